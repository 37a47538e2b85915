package main

import (
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"
)

// problem is an RFC 9457 problem document, with the request's ID and the
// caller's trace as extension members, as the service writes them, so
// that a client can quote them when it reports the error.
type problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail,omitempty"`
	Instance  string `json:"instance"`
	RequestID string `json:"requestId,omitempty"`
	TraceID   string `json:"traceId,omitempty"`
}

// writeProblem answers status with a problem document as
// application/problem+json, and the request ID (chi's, from the client or
// made up) in X-Request-Id. err, when the error came from one, names the
// exception label of the request's timer.
func writeProblem(w http.ResponseWriter, r *http.Request, status int, detail string, err error) {
	p := problem{
		Type:      "about:blank",
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Instance:  r.URL.Path,
		RequestID: middleware.GetReqID(r.Context()),
	}
	if sc := trace.SpanContextFromContext(r.Context()); sc.HasTraceID() {
		p.TraceID = sc.TraceID().String()
	}
	if rec, ok := w.(*recorder); ok && err != nil {
		rec.exception = errorName(err)
	}
	body, _ := json.Marshal(p) // strings and an int: it cannot fail
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	if p.RequestID != "" {
		h.Set(middleware.RequestIDHeader, p.RequestID)
	}
	w.WriteHeader(status)
	w.Write(body)
}

// errorName is an error's type name without its package or pointer
// (NumError for a bad id, from strconv), as Micrometer labels an exception by
// its class's simple name.
func errorName(err error) string {
	t := reflect.TypeOf(err)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() != "" {
		return t.Name()
	}
	return t.String()
}
