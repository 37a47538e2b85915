// Package metrics records a service's HTTP metrics (requests by route,
// status and outcome, with their durations) in a Prometheus registry of
// its own (github.com/prometheus/client_golang), with client_golang's Go
// runtime and process collectors and the service's own gauges, and serves
// them for /actuator/prometheus with client_golang's promhttp, named and
// tagged as Micrometer's Prometheus registry names Spring Boot's, so that
// the dashboards made for Spring services work as they are. meters.go
// reads the same registry back as Micrometer's meters, for
// /actuator/metrics.
package metrics

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
	"go.opentelemetry.io/otel/trace"

	"github.com/springport/greeter/framework/dispatch"
)

// Options configure the metrics.
type Options struct {
	// PercentilesHistogram is
	// management.metrics.distribution.percentiles-histogram.http.server.requests:
	// publish http_server_requests_seconds as a histogram with Micrometer's
	// buckets, rather than as a summary of count and sum.
	PercentilesHistogram bool

	// CommonTags are management.metrics.tags.*: labels every series
	// carries, as Micrometer's common tags (Spring's dashboards select on
	// application). Their names are made valid label names as Micrometer's
	// PrometheusNamingConvention makes them (see TagName).
	CommonTags map[string]string

	// Exemplars attaches the trace and span of a recorded (sampled) span
	// to the request timer's observation, as Micrometer Tracing does, so
	// that a dashboard goes from a slow bucket to its trace. client_golang
	// writes exemplars on a histogram's buckets only (OpenMetrics and
	// protobuf), so they need PercentilesHistogram.
	Exemplars bool

	// Logger receives what a scrape could not gather (a service's gauge
	// with an invalid name, say); the rest is still served.
	Logger *slog.Logger
}

// HTTP records requests as Spring MVC's http.server.requests timer, which
// Micrometer's Prometheus registry writes as http_server_requests_seconds
// (_count, _sum, and _bucket with the percentiles histogram) and
// http_server_requests_seconds_max, tagged error, exception, method,
// outcome, status and uri (the route pattern, never the raw path). Every
// tag has a bounded set of values: unknown methods count as "other",
// requests no route took share the dispatcher's fixed labels, and the
// errors of server errors are named by their Go type, of which the binary
// has a fixed number.
type HTTP struct {
	registry *prometheus.Registry
	// registerer registers in registry with the common tags added.
	registerer prometheus.Registerer
	requests   requestTimers
	exemplars  bool
	logger     *slog.Logger

	mu     sync.RWMutex
	series map[labels]*timer

	// byRoute holds, by Observation.RouteID, the series already seen of
	// each route, so that a request of a route finds its series without
	// hashing its labels: a few entries to compare, for the route's
	// methods, statuses and errors. Written under mu, copied on write.
	byRoute atomic.Pointer[[]*[]routeSeries]

	// tagKeys are the common tags' keys as set (cloud.region), by their
	// label names (cloud_region), for the OTLP export (snapshot.go).
	tagKeys map[string]string
}

// routeSeries is a series of a route, by the labels that vary within it.
type routeSeries struct {
	method, exception string
	status            int
	t                 *timer
}

type labels struct {
	method, route, exception string
	status                   int
}

// reservedTags are the label names the framework's own metrics use: a
// common tag of the same name would make two labels of one name.
var reservedTags = append([]string{"le", "quantile", "name", "pool", "version", "bundle", "certificate", "chain", "reason", "level"}, timerLabels...)

// TagName is the label name of a common tag's key, as Micrometer's
// PrometheusNamingConvention writes a tag key: every character that may
// not be in a label name becomes _, and a key that starts with a digit
// gets m_ in front.
func TagName(key string) string {
	name := invalidLabelChars.ReplaceAllString(key, "_")
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		name = "m_" + name
	}
	return name
}

var invalidLabelChars = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// CheckTag reports why key cannot be a common tag, or nil.
func CheckTag(key string) error {
	name := TagName(key)
	switch {
	case name == "":
		return errors.New("a tag needs a name")
	case slices.Contains(reservedTags, name):
		return fmt.Errorf("the tag would be a label named %s, which the framework's metrics have already", name)
	case len(name) > 1 && name[0] == '_' && name[1] == '_':
		return fmt.Errorf("the tag would be a label named %s, and names that start with __ are Prometheus's own", name)
	}
	return nil
}

// New creates the metrics and their registry, with client_golang's Go
// runtime and process collectors and Micrometer's process and system
// meters (process.go).
func New(opts Options) (*HTTP, error) {
	tags, tagKeys := prometheus.Labels{}, map[string]string{}
	for _, key := range slices.Sorted(maps.Keys(opts.CommonTags)) {
		if err := CheckTag(key); err != nil {
			return nil, fmt.Errorf("management.metrics.tags.%s: %w", key, err)
		}
		tags[TagName(key)] = opts.CommonTags[key]
		tagKeys[TagName(key)] = key
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	registry := prometheus.NewRegistry()
	m := &HTTP{
		registry:   registry,
		registerer: prometheus.WrapRegistererWith(tags, registry),
		tagKeys:    tagKeys,
		requests:   newRequestTimers(opts.PercentilesHistogram),
		exemplars:  opts.Exemplars && opts.PercentilesHistogram,
		logger:     logger,
		series:     map[labels]*timer{},
	}
	for _, c := range []prometheus.Collector{
		m.requests.vec, m.requests.maxima,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		newProcessMeters(), // process.go
	} {
		if err := m.registerer.Register(c); err != nil {
			return nil, fmt.Errorf("management.metrics.tags: %w", err)
		}
	}
	return m, nil
}

// Registerer registers a service's own client_golang collectors in the
// registry that /actuator/prometheus serves, with the common tags added.
func (m *HTTP) Registerer() prometheus.Registerer { return m.registerer }

// knownMethod reports whether a method is one of HTTP's own, which label
// a request as they are; any other is "other". A switch, not a map: it
// runs for every request.
func knownMethod(m string) bool {
	switch m {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT":
		return true
	}
	return false
}

// Observe records one request; it is a dispatch observer.
func (m *HTTP) Observe(o dispatch.Observation) {
	method := o.Method
	if !knownMethod(method) {
		method = "other"
	}
	key := labels{method: method, route: o.Route, status: o.Status}
	if o.Err != nil && o.Status >= 500 {
		key.exception = errorName(o.Err)
	}
	id := o.RouteID
	t := m.ofRoute(id, key)
	if t == nil {
		m.mu.RLock()
		t = m.series[key]
		m.mu.RUnlock()
		if t == nil {
			t = m.add(key)
		}
		if id > 0 {
			m.remember(id, key, t)
		}
	}
	end := o.End
	if end.IsZero() { // an observer's caller that does not say when
		end = time.Now()
	}
	if m.exemplars && o.Request != nil {
		if sc := trace.SpanContextFromContext(o.Request.Context()); sc.IsSampled() {
			t.recordWithTrace(o.Duration, clock(end), sc)
			return
		}
	}
	t.record(o.Duration, clock(end))
}

// ofRoute returns the series of the route id with the labels of key, when
// it has been seen, or nil.
func (m *HTTP) ofRoute(id int, key labels) *timer {
	all := m.byRoute.Load()
	if id <= 0 || all == nil || id >= len(*all) || (*all)[id] == nil {
		return nil
	}
	for _, rs := range *(*all)[id] {
		if rs.status == key.status && rs.method == key.method && rs.exception == key.exception {
			return rs.t
		}
	}
	return nil
}

// maxRouteSeries bounds the series remembered per route, and maxRouteID
// the routes remembered (route IDs count the groups of every dispatcher
// the process has built, tests' included): past them, series are found by
// their labels alone.
const (
	maxRouteSeries = 16
	maxRouteID     = 4096
)

// remember adds the series t of key to those of the route id.
func (m *HTTP) remember(id int, key labels, t *timer) {
	if id >= maxRouteID {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []*[]routeSeries
	if p := m.byRoute.Load(); p != nil {
		all = *p
	}
	if id >= len(all) {
		all = append(slices.Clone(all), make([]*[]routeSeries, id+1-len(all))...)
	} else {
		all = slices.Clone(all)
	}
	var list []routeSeries
	if all[id] != nil {
		list = *all[id]
	}
	for _, rs := range list {
		if rs.status == key.status && rs.method == key.method && rs.exception == key.exception {
			return // another request remembered it first
		}
	}
	if len(list) >= maxRouteSeries {
		return
	}
	list = append(slices.Clip(list), routeSeries{method: key.method, exception: key.exception, status: key.status, t: t})
	all[id] = &list
	m.byRoute.Store(&all)
}

// add makes the series of a label set, once: the hot path then neither
// formats label values nor looks up client_golang's children.
func (m *HTTP) add(key labels) *timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.series[key]; t != nil {
		return t
	}
	exception := key.exception
	if exception == "" {
		exception = "none"
	}
	// Micrometer's error tag (DefaultMeterObservationHandler) and Spring's
	// exception tag (DefaultServerRequestObservationConvention) both name
	// the error's class, or say none.
	t := m.requests.add(exception, exception, key.method, outcome(key.status), strconv.Itoa(key.status), key.route)
	m.series[key] = t
	return t
}

// outcome is Spring's outcome tag for a status: its series, as
// HttpStatus.Series names them, or UNKNOWN for a status Spring does not
// know.
func outcome(status int) string {
	switch {
	case status >= 200 && status < 300:
		return "SUCCESS"
	case http.StatusText(status) == "":
		return "UNKNOWN"
	case status < 200:
		return "INFORMATIONAL"
	case status < 400:
		return "REDIRECTION"
	case status < 500:
		return "CLIENT_ERROR"
	default:
		return "SERVER_ERROR"
	}
}

// ContentTypes are the representations promhttp writes, for the
// dispatcher's negotiation (any other Accept is a 406): OpenMetrics,
// Prometheus's text format, and its protobuf format, which Prometheus asks
// for first when it scrapes native histograms.
var ContentTypes = []string{
	"text/plain;version=0.0.4;charset=utf-8",
	"application/openmetrics-text;version=1.0.0;charset=utf-8",
	"application/openmetrics-text;version=0.0.1;charset=utf-8",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
}

// Handler serves every metric with promhttp, in the format the scraper
// asks for, gzipped when it accepts gzip. What cannot be gathered is
// logged and left out; the rest is served. Concurrent scrapes share
// renderings (see scrapeShare).
func (m *HTTP) Handler() http.Handler { return m.handler(m.registry) }

// handler serves what g gathers.
func (m *HTTP) handler(g prometheus.Gatherer) http.Handler {
	// The formats and compressions are named rather than left to
	// promhttp's defaults, since scrapeShare tells representations apart
	// by them: these are the defaults with OpenMetrics, without zstd
	// (which promhttp offers only when its zstd package is linked in).
	formats := expfmt.DefaultOpenMetricsAcceptedFormats()
	return newScrapeShare(promhttp.HandlerFor(g, promhttp.HandlerOpts{
		EnableOpenMetrics:   true,
		AcceptedFormats:     formats,
		OfferedCompressions: []promhttp.Compression{promhttp.Identity, promhttp.Gzip},
		ErrorHandling:       promhttp.ContinueOnError,
		ErrorLog:            scrapeLog{m.logger},
	}), formats, m.logger)
}

// scrapeLog is promhttp's error log on a slog.Logger.
type scrapeLog struct{ logger *slog.Logger }

func (l scrapeLog) Println(v ...any) {
	l.logger.Warn("a scrape of /actuator/prometheus left metrics out", "error", fmt.Sprint(v...))
}

// Sessions reports the HTTP session store: the sessions it holds, the
// most it holds, and how many it ended to make room for new ones (a
// flood of cookie-less requests shows there first).
func (m *HTTP) Sessions(active func() int, max int, evicted func() uint64) {
	m.registerer.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "http_sessions_active", Help: "HTTP sessions held now."},
			func() float64 { return float64(active()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "http_sessions_max", Help: "HTTP sessions held at most (server.servlet.session.max-sessions)."},
			func() float64 { return float64(max) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "http_sessions_evicted_total", Help: "HTTP sessions ended to make room for new ones."},
			func() float64 { return float64(evicted()) }),
	)
}
