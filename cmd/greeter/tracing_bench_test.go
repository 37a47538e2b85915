package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkTracedRequest serves GET /api/hello with tracing on, its spans
// exported to a receiver that discards them, every trace recorded
// (traced-1) or Spring's default share (traced-0.1); and with tracing off
// but a traceparent sent (off-traceparent). bench/run reports it beside
// BenchmarkRequest's service/hello, the same request with tracing off.
func BenchmarkTracedRequest(b *testing.B) {
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	b.Cleanup(sink.Close)
	endpoint := "--management.opentelemetry.tracing.export.otlp.endpoint=" + sink.URL + "/v1/traces"
	variants := []struct {
		name, traceparent string
		args              []string
	}{
		{"traced-1", "", []string{endpoint, "--management.tracing.sampling.probability=1"}},
		{"traced-0.1", "", []string{endpoint, "--management.tracing.sampling.probability=0.1"}},
		{"off-traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", nil},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			s := newServeOnce(serviceHandlerWith(b, v.args...), benchRequests[0])
			if v.traceparent != "" {
				s.r.Header.Set("Traceparent", v.traceparent)
			}
			s.loop(b)
		})
	}
}
