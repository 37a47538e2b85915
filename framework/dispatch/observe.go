package dispatch

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Observation is what the dispatcher reports about each request once it
// has been answered, for metrics and access logs.
type Observation struct {
	Method string
	// Route is the matched route's pattern, or for a request no route took
	// one of the fixed labels NotFound, Redirection or Unknown, so that a
	// scan of random paths adds no new values.
	Route string
	// RouteID identifies the route group (a method and a pattern) that
	// took the request, unique within the process and above 0, or is 0
	// when no route took it. An observer may use it to find what it keeps
	// per route without hashing the route's labels for every request;
	// observations with the same RouteID have the same Route.
	RouteID   int
	Status    int
	Bytes     int64 // response body bytes written
	Duration  time.Duration
	End       time.Time // when the answer was finished
	RequestID string
	// Err is what the answer was made from when a handler or the
	// dispatcher failed (a handler's panic is a *PanicError; an error that
	// Options.Classify gave an *Error with a Kind unwraps to both, see
	// errorkind.go); nil otherwise.
	Err error
	// Request is the request itself, for an observer that records more
	// than the fields above (the recent exchanges of
	// /actuator/httpexchanges). Like ResponseHeader, it is valid only
	// during the call: an observer must copy what it keeps.
	Request *http.Request

	ex *exchange // for ResponseHeader
}

// Context returns the request's context, so that a log line about the
// request carries what the context holds (its trace, for one).
func (o Observation) Context() context.Context {
	if o.Request == nil {
		return context.Background()
	}
	return o.Request.Context()
}

// Path returns the request's path, escaped as sent (r.URL.EscapedPath).
// It is a method, not a field, because escaping the path costs every
// request: only an observer that reads it pays for it, as an access log
// does.
func (o Observation) Path() string {
	if o.Request == nil {
		return ""
	}
	return o.Request.URL.EscapedPath()
}

// ResponseHeader returns the headers of the answer. It is a method, not a
// field, because net/http copies the header map when it is asked for
// between the status line and the body's first bytes, as it is here: only
// an observer that reads the headers pays for the copy.
func (o Observation) ResponseHeader() http.Header { return o.ex.Header() }

// PanicError is the Observation.Err of a request whose handler panicked
// with a value that is not an error.
type PanicError struct{ Value any }

func (e *PanicError) Error() string { return fmt.Sprint("panic: ", e.Value) }

// panicked is the error a recovered panic value stands for.
func panicked(p any) error {
	if err, ok := p.(error); ok {
		return err
	}
	return &PanicError{Value: p}
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
	routeID := 0
	if g := ex.mux.group; g != nil && ex.pattern != "" {
		routeID = g.id
	}
	end := time.Now()
	o := Observation{Method: r.Method, Route: route, RouteID: routeID, Status: status,
		Bytes: ex.written, Duration: end.Sub(ex.began), End: end, RequestID: ex.requestID, Err: ex.err,
		Request: r, ex: ex}
	for _, f := range observers {
		f(o)
	}
	if tracer != nil {
		tracer.End(o.Context(), o)
	}
}
