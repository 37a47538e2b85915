// Package metrics records a service's HTTP metrics (requests by route,
// status and outcome, with their durations) in a registry of its own,
// with the Go runtime and process metrics and the service's own gauges,
// and serves them for /actuator/prometheus in the Prometheus exposition
// formats, named and tagged as Micrometer's Prometheus registry names
// Spring Boot's, so that the dashboards made for Spring services work as
// they are. meters.go reads the same registry back as Micrometer's meters,
// for /actuator/metrics.
//
// The exposition is written here (exposition.go), with the standard
// library only, as client_golang's promhttp wrote it, and the runtime and
// process metrics (runtime.go, process.go) are those of its collectors:
// linking client_golang, with prometheus/common, procfs and client_model,
// cost a service about 0.9 MiB of idle memory and a quarter of its
// start-up instructions, mostly in their package initialisation.
package metrics

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

// Options configure the metrics.
type Options struct {
	// PercentilesHistogram is
	// management.metrics.distribution.percentiles-histogram.http.server.requests:
	// publish http_server_requests_seconds as a histogram with Micrometer's
	// buckets, rather than as a summary of count and sum.
	PercentilesHistogram bool
}

// HTTP records requests as Spring MVC's http.server.requests timer, which
// Micrometer's Prometheus registry writes as http_server_requests_seconds
// (_count, _sum, and _bucket with the percentiles histogram) and
// http_server_requests_seconds_max, tagged error, exception, method,
// outcome, status and uri (the route pattern, never the raw path). Every
// tag has a bounded set of values: unknown methods count as "other",
// requests no route took share the dispatcher's fixed labels, and errors
// are named by their Go type, of which the binary has a fixed number.
type HTTP struct {
	registry registry
	requests *timers

	mu     sync.RWMutex
	series map[labels]*timer

	// byRoute holds, by Observation.RouteID, the series already seen of
	// each route, so that a request of a route finds its series without
	// hashing its labels: a few entries to compare, for the route's
	// methods, statuses and errors. Written under mu, copied on write.
	byRoute atomic.Pointer[[]*[]routeSeries]

	// The Go runtime and process collectors are registered at the first
	// read: building them reads the runtime metrics' descriptions, which
	// would add to start-up for nothing until someone scrapes.
	runtimeOnce sync.Once
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

// New creates the metrics and their registry.
func New(opts Options) *HTTP {
	m := &HTTP{
		requests: newTimers("http_server_requests_seconds",
			"Duration of HTTP server requests, by method, route pattern, status and error.", opts.PercentilesHistogram),
		series: map[labels]*timer{},
	}
	m.registry.register(m.requests.collect)
	return m
}

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
	if o.Err != nil {
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
// formats label values nor allocates.
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

// errorName is the exception tag of an error, as Spring names an
// exception by its class's simple name: the name of its Go type, without
// package or pointer (NotFoundError for a *orders.NotFoundError). A
// *dispatch.Error that carries a cause is named by its cause.
func errorName(err error) string {
	if e, ok := err.(*dispatch.Error); ok && e.Err != nil {
		err = e.Err
	}
	t := reflect.TypeOf(err)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if name := t.Name(); name != "" {
		return name
	}
	return t.String()
}

// Handler serves every metric, in the format the scraper asks for.
func (m *HTTP) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveExposition(w, r, m.gather())
	})
}

// gather reads every metric, the runtime and process metrics included.
func (m *HTTP) gather() []family {
	m.runtimeOnce.Do(func() {
		m.registry.register(newGoCollector().collect, collectProcess)
	})
	return m.registry.gather()
}

// Sessions reports the HTTP session store: the sessions it holds, the
// most it holds, and how many it ended to make room for new ones (a
// flood of cookie-less requests shows there first).
func (m *HTTP) Sessions(active func() int, max int, evicted func() uint64) {
	m.registry.register(func() []family {
		return []family{
			single("http_sessions_active", "HTTP sessions held now.", gaugeType, float64(active())),
			single("http_sessions_max", "HTTP sessions held at most (server.servlet.session.max-sessions).", gaugeType, float64(max)),
			single("http_sessions_evicted_total", "HTTP sessions ended to make room for new ones.", counterType, float64(evicted())),
		}
	})
}
