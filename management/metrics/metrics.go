// Package metrics records the service's HTTP metrics in a Prometheus
// registry of its own, with the Go runtime and process collectors, and
// serves them with promhttp for /actuator/prometheus.
package metrics

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/springport/greeter/framework/dispatch"
)

// ContentTypes are the representations the handler writes, as promhttp
// negotiates them from Accept: the text exposition format, and protobuf
// for a scraper that asks for it.
var ContentTypes = []string{
	"text/plain;version=0.0.4;charset=utf-8",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
}

// HTTP records requests as http_server_requests_seconds, Spring Boot's
// name: a histogram whose _count is the request count, labelled by method,
// route pattern (never the raw path) and status. Every label has a bounded
// set of values: unknown methods count as "other", and requests no route
// took share the dispatcher's fixed labels.
type HTTP struct {
	registry *prometheus.Registry
	seconds  *prometheus.HistogramVec

	mu        sync.RWMutex
	observers map[labels]prometheus.Observer

	// The Go runtime and process collectors are registered at the first
	// scrape: building them reads every runtime metric's description,
	// which would add to start-up for nothing until someone scrapes.
	runtimeOnce sync.Once
}

type labels struct {
	method, route string
	status        int
}

// New creates the metrics and their registry.
func New() *HTTP {
	m := &HTTP{
		registry: prometheus.NewRegistry(),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_server_requests_seconds",
			Help:    "Duration of HTTP server requests, by method, route pattern and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "uri", "status"}),
		observers: map[labels]prometheus.Observer{},
	}
	m.registry.MustRegister(m.seconds)
	return m
}

var knownMethods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true,
	"DELETE": true, "OPTIONS": true, "TRACE": true, "CONNECT": true}

// Observe records one request; it is a dispatch observer.
func (m *HTTP) Observe(o dispatch.Observation) {
	method := o.Method
	if !knownMethods[method] {
		method = "other"
	}
	key := labels{method: method, route: o.Route, status: o.Status}
	m.mu.RLock()
	obs := m.observers[key]
	m.mu.RUnlock()
	if obs == nil {
		// Once per label set: the children are cached so that the hot path
		// neither hashes label values nor allocates.
		obs = m.seconds.WithLabelValues(method, o.Route, strconv.Itoa(o.Status))
		m.mu.Lock()
		m.observers[key] = obs
		m.mu.Unlock()
	}
	obs.Observe(o.Duration.Seconds())
}

// Handler serves every metric, in the format the scraper asks for.
func (m *HTTP) Handler() http.Handler {
	scrape := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.runtimeOnce.Do(func() {
			m.registry.MustRegister(collectors.NewGoCollector(),
				collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		})
		scrape.ServeHTTP(w, r)
	})
}

// Sessions reports the HTTP session store: the sessions it holds, the
// most it holds, and how many it ended to make room for new ones (a
// flood of cookie-less requests shows there first).
func (m *HTTP) Sessions(active func() int, max int, evicted func() uint64) {
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "http_sessions_active", Help: "HTTP sessions held now."},
			func() float64 { return float64(active()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "http_sessions_max", Help: "HTTP sessions held at most (server.servlet.session.max-sessions)."},
			func() float64 { return float64(max) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "http_sessions_evicted_total", Help: "HTTP sessions ended to make room for new ones."},
			func() float64 { return float64(evicted()) }),
	)
}
