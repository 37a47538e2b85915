// Command stack serves the measured endpoints on the stack a Go user
// assembles from libraries for what the service does by default, for
// bench/run: a chi v5 router with chi's request-ID and panic-recovery
// middleware, OpenTelemetry's W3C trace-context propagator (tracing off:
// no exporter, as the service's default), a client_golang timer per route
// named and labelled as the service's (metrics.go), JSON or XML chosen by
// the Accept header with Vary: Accept (negotiate.go), and RFC 9457 problem
// documents for errors (problem.go).
//
// The bare routers beside it (cmd/chi, cmd/gin, …) measure a router alone;
// this one measures what it costs to get the service's behaviour without
// the framework, so that the service can be held to doing it for less
// (issue 21). TestSameAsService checks its answers against the service's.
package main

import (
	"encoding/xml"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/propagation"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

func main() {
	peer.Main(peer.HTTP(handler))
}

// message is a greeting or a posted message, in JSON {"text":…} and in XML
// <Message><text>…</text></Message>, as the service writes and reads it.
type message struct {
	XMLName xml.Name `json:"-" xml:"Message"`
	Text    string   `json:"text" xml:"text"`
}

// number is GET /api/number/val-a's answer: a bare integer in JSON, and
// <Integer>…</Integer> in XML, as Spring names a boxed int.
type number struct {
	XMLName xml.Name `xml:"Integer"`
	Value   int32    `xml:",chardata"`
}

// handler is the measured endpoints on the stack, with metrics of their own.
func handler(messages *peer.Messages, valA int32) http.Handler {
	return routes(messages, valA, newMetrics())
}

// routes is the router of handler. The middleware runs in the order given:
// the request ID first, so that everything after it (the problem
// documents) can name it; the timer around the rest, so that a panic the
// recoverer turns into a 500 is timed and counted too.
func routes(messages *peer.Messages, valA int32, m *metrics) http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID, m.middleware, middleware.Recoverer, propagate, echoRequestID)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, http.StatusNotFound, "No endpoint "+r.Method+" "+r.URL.Path+".", nil)
	})
	// chi's own 405 lists the allowed methods in Allow, but a handler of
	// one's own cannot read them (they are private to chi's context), so
	// this problem document goes without.
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, http.StatusMethodNotAllowed, "Method '"+r.Method+"' is not supported.", nil)
	})

	r.Get("/api/hello", func(w http.ResponseWriter, r *http.Request) {
		writeNegotiated(w, r, message{Text: reference.Greeting})
	})
	r.Get("/api/hi", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Vary", "Accept")
		if _, ok := negotiate(r.Header.Get("Accept"), textTypes); !ok {
			notAcceptable(w, r, textTypes)
			return
		}
		w.Header().Set("Content-Type", "text/plain;charset=UTF-8")
		w.Write([]byte("Hi"))
	})
	r.Get("/api/hello/{id}", func(w http.ResponseWriter, r *http.Request) {
		raw := chi.URLParam(r, "id")
		id, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			w.Header().Set("Vary", "Accept") // the service's 400 here varies, as its 200 does
			writeProblem(w, r, http.StatusBadRequest,
				"Failed to convert 'id' with value: '"+raw+"' (expected a 32-bit integer).", err)
			return
		}
		writeNegotiated(w, r, message{Text: reference.Greeting + " " + strconv.FormatInt(id, 10)})
	})
	r.Get("/api/number/val-a", func(w http.ResponseWriter, r *http.Request) {
		writeNegotiated(w, r, number{Value: valA})
	})
	r.Post("/api/messages", func(w http.ResponseWriter, r *http.Request) {
		text, ok := readText(w, r)
		if !ok {
			return
		}
		messages.Append(text)
		w.WriteHeader(http.StatusCreated)
	})
	r.Method(http.MethodGet, "/actuator/prometheus", m.handler())
	return r
}

// propagate puts the caller's W3C trace context (the traceparent and
// tracestate headers) into the request's context with OpenTelemetry's
// propagator, as the service does with tracing off, so that a problem
// document can name the caller's trace. No span is started: without an
// exporter, as by the service's default, it would go nowhere.
func propagate(next http.Handler) http.Handler {
	var propagator propagation.TraceContext
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := propagator.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// echoRequestID answers a request that came with an X-Request-Id with the
// same header, as the service does; chi's RequestID only keeps it in the
// context (and makes one up when there is none, which the problem
// documents then name).
func echoRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(middleware.RequestIDHeader); id != "" {
			w.Header().Set(middleware.RequestIDHeader, id)
		}
		next.ServeHTTP(w, r)
	})
}
