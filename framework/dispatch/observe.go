package dispatch

import (
	"context"
	"net/http"
	"time"
)

// Observation is what the dispatcher reports about each request once it
// has been answered, for metrics and access logs.
type Observation struct {
	Method string
	Path   string // the raw path, escaped as sent
	// Route is the matched route's pattern, or for a request no route took
	// one of the fixed labels NotFound, Redirection or Unknown, so that a
	// scan of random paths adds no new values.
	Route     string
	Status    int
	Bytes     int64 // response body bytes written
	Duration  time.Duration
	RequestID string
	// Context is the request's, so that a log line about the request
	// carries what the context holds (its trace, for one).
	Context context.Context
}

// Labels for requests that no route took, as Spring's metrics name them.
const (
	NotFound    = "NOT_FOUND"
	Redirection = "REDIRECTION"
	Unknown     = "UNKNOWN"
)

// observe reports the finished exchange to the observers, then to the
// Tracer when there is one.
func observe(observers []func(Observation), tracer Tracer, ex *exchange, r *http.Request) {
	route := ex.pattern
	status := ex.status
	if status == 0 {
		status = http.StatusOK
	}
	if route == "" {
		switch {
		case status == http.StatusNotFound:
			route = NotFound
		case status >= 300 && status < 400:
			route = Redirection
		default:
			route = Unknown
		}
	}
	o := Observation{Method: r.Method, Path: r.URL.EscapedPath(), Route: route, Status: status,
		Bytes: ex.written, Duration: time.Since(ex.began), RequestID: ex.requestID, Context: r.Context()}
	for _, f := range observers {
		f(o)
	}
	if tracer != nil {
		tracer.End(o.Context, o)
	}
}
