package dispatch

import (
	"context"
	"net/http"
)

// Tracer follows each request in a distributed trace. The dispatcher knows
// what a trace needs and an http.Handler around it does not: the route
// pattern the request matched, its final status, and where its log lines
// and problem document are made. A Tracer keeps the dispatcher free of any
// tracing library: a service implements it with the one it uses
// (OpenTelemetry, say).
type Tracer interface {
	// Start is called as a request arrives. The context it returns becomes
	// the request's, so that handlers and log lines see the trace; it
	// returns r.Context() itself when it has nothing to add, which costs
	// the request nothing.
	Start(r *http.Request) context.Context

	// End is called once the request is answered, with the request's
	// context and what the observers are told.
	End(ctx context.Context, o Observation)

	// TraceID returns the trace ID that a problem document names beside
	// the request ID, or "" when the request is in no trace.
	TraceID(ctx context.Context) string
}

// startTrace gives r the context of its trace, when there is a Tracer.
func (d *Dispatcher) startTrace(r *http.Request) *http.Request {
	if d.tracer == nil {
		return r
	}
	if ctx := d.tracer.Start(r); ctx != r.Context() {
		r = r.WithContext(ctx)
	}
	return r
}

// traceID is the trace ID for a problem document about r.
func (d *Dispatcher) traceID(r *http.Request) string {
	if d.tracer == nil {
		return ""
	}
	return d.tracer.TraceID(r.Context())
}
