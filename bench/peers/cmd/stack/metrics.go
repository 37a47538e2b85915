package main

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics times every request as the service does by default, which is
// what Spring Boot's Micrometer publishes for http.server.requests: a
// summary http_server_requests_seconds (count and sum, no quantiles) and
// a gauge http_server_requests_seconds_max (the longest request over the
// last two minutes), labelled error, exception, method, outcome, status
// and uri (the route pattern). client_golang has the summary; the
// windowed maximum it does not have, so it is the few lines below.
type metrics struct {
	registry *prometheus.Registry
	seconds  *prometheus.SummaryVec

	mu  sync.RWMutex
	max map[series]*windowMax
}

// series is a request's labels, in the order of labelNames.
type series struct {
	error, exception, method, outcome, status, uri string
}

var labelNames = []string{"error", "exception", "method", "outcome", "status", "uri"}

const (
	secondsHelp = "Duration of HTTP server requests, by method, route pattern, status and error."
	maxHelp     = secondsHelp + " Maximum over the last two minutes."
)

var maxDesc = prometheus.NewDesc("http_server_requests_seconds_max", maxHelp, labelNames, nil)

// newMetrics registers the timer in a registry of its own, with the Go
// runtime and process collectors that client_golang's default registry
// holds, as the service's exposition has them. Every series is labelled
// application="greeter", as the service labels its own (greeter sets
// Spring's management.metrics.tags.application): the label is added when
// the registry is read, so it costs a request nothing.
func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		seconds: prometheus.NewSummaryVec(prometheus.SummaryOpts{
			Name: "http_server_requests_seconds",
			Help: secondsHelp,
		}, labelNames),
		max: map[series]*windowMax{},
	}
	prometheus.WrapRegistererWith(prometheus.Labels{"application": "greeter"}, m.registry).MustRegister(
		m.seconds, maxCollector{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// handler serves the registry for Prometheus to scrape, as the service's
// /actuator/prometheus does.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// middleware times the request and records it under its route's pattern,
// which chi knows only once it has routed the request: after next returns.
func (m *metrics) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		end := time.Now()
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		s := series{method: r.Method, status: strconv.Itoa(status), outcome: outcome(status),
			exception: rec.exception, uri: chi.RouteContext(r.Context()).RoutePattern()}
		if s.exception == "" {
			s.exception = "none"
		}
		s.error = s.exception
		if s.uri == "" { // no route took it: Spring's fixed values keep the labels bounded
			s.uri = "UNKNOWN"
			if status == http.StatusNotFound {
				s.uri = "NOT_FOUND"
			}
		}
		d := end.Sub(start).Seconds()
		m.seconds.WithLabelValues(s.error, s.exception, s.method, s.outcome, s.status, s.uri).Observe(d)
		m.maxOf(s).record(d, end)
	})
}

// maxOf returns the series' windowed maximum, made at its first request.
func (m *metrics) maxOf(s series) *windowMax {
	m.mu.RLock()
	w := m.max[s]
	m.mu.RUnlock()
	if w != nil {
		return w
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if w = m.max[s]; w == nil {
		w = new(windowMax)
		m.max[s] = w
	}
	return w
}

// outcome is Spring's outcome label for a status.
func outcome(status int) string {
	switch {
	case status < 200:
		return "INFORMATIONAL"
	case status < 300:
		return "SUCCESS"
	case status < 400:
		return "REDIRECTION"
	case status < 500:
		return "CLIENT_ERROR"
	case status < 600:
		return "SERVER_ERROR"
	}
	return "UNKNOWN"
}

// recorder remembers the status a handler answered with, and the name of
// the error behind a problem document (writeProblem sets it). chi's own
// middleware.WrapResponseWriter keeps the status but has no room for the
// error.
type recorder struct {
	http.ResponseWriter
	status    int
	exception string
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// maxCollector writes the windowed maxima as the _max gauge at a scrape.
type maxCollector struct{ m *metrics }

func (c maxCollector) Describe(ch chan<- *prometheus.Desc) { ch <- maxDesc }

func (c maxCollector) Collect(ch chan<- prometheus.Metric) {
	now := time.Now()
	c.m.mu.RLock()
	defer c.m.mu.RUnlock()
	for s, w := range c.m.max {
		ch <- prometheus.MustNewConstMetric(maxDesc, prometheus.GaugeValue, w.poll(now),
			s.error, s.exception, s.method, s.outcome, s.status, s.uri)
	}
}

// Micrometer's TimeWindowMax defaults: the maximum is kept over two
// minutes, in a ring of three buckets of which the oldest is cleared every
// 40 seconds.
const (
	maxBuckets  = 3
	maxRotation = 2 * time.Minute / maxBuckets
)

// windowMax is Micrometer's TimeWindowMax: a record raises every bucket; a
// poll reads the current one, which holds the largest of the last two
// minutes (up to 40 seconds more, as in Micrometer).
type windowMax struct {
	mu      sync.Mutex
	ring    [maxBuckets]float64
	current int
	rotated time.Time // when the current bucket became current
}

func (w *windowMax) record(v float64, now time.Time) {
	w.mu.Lock()
	w.rotate(now)
	for i := range w.ring {
		w.ring[i] = max(w.ring[i], v)
	}
	w.mu.Unlock()
}

func (w *windowMax) poll(now time.Time) float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rotate(now)
	return w.ring[w.current]
}

// rotate clears the buckets that have expired since the last rotation;
// w.mu is held.
func (w *windowMax) rotate(now time.Time) {
	if w.rotated.IsZero() {
		w.rotated = now
		return
	}
	since := now.Sub(w.rotated)
	if since < maxRotation {
		return
	}
	if since >= maxRotation*maxBuckets {
		w.ring = [maxBuckets]float64{}
		w.current = 0
		w.rotated = now.Add(-since % maxRotation)
		return
	}
	for ; since >= maxRotation; since -= maxRotation {
		w.ring[w.current] = 0
		w.current = (w.current + 1) % maxBuckets
		w.rotated = w.rotated.Add(maxRotation)
	}
}
