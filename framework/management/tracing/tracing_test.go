package tracing

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/springport/greeter/framework/dispatch"
)

const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// The zero Tracer only propagates: a request without a traceparent keeps
// its context, at no allocation, and one with a traceparent gets the
// caller's span context.
func TestZeroTracerPropagates(t *testing.T) {
	var tr Tracer
	r := httptest.NewRequest("GET", "/", nil)
	if got := testing.AllocsPerRun(100, func() {
		if tr.Start(r) != r.Context() {
			t.Fatal("a request without a traceparent got a new context")
		}
	}); got != 0 {
		t.Errorf("Start without a traceparent: %v allocations, want 0", got)
	}
	r.Header.Set("traceparent", traceparent)
	ctx := tr.Start(r)
	sc := trace.SpanContextFromContext(ctx)
	if sc.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || sc.SpanID().String() != "00f067aa0ba902b7" || !sc.IsRemote() {
		t.Errorf("span context %+v, want the caller's", sc)
	}
	if got := tr.TraceID(ctx); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("TraceID %q", got)
	}
	r.Header.Set("traceparent", "00-garbage")
	if tr.Start(r) != r.Context() || tr.TraceID(r.Context()) != "" {
		t.Error("a malformed traceparent was taken")
	}
}

// LogHandler adds the trace's IDs to a record logged in a trace, and only
// then, through the handlers that With and WithGroup derive.
func TestLogHandlerAddsTheTrace(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(LogHandler(slog.NewTextHandler(&buf, nil))).With("k", "v")
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("traceparent", traceparent)
	logger.InfoContext((&Tracer{}).Start(r), "in a trace")
	logger.InfoContext(context.Background(), "in none")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "k=v trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7") ||
		strings.Contains(lines[1], "trace_id") {
		t.Errorf("log lines:\n%s", buf.String())
	}
}

// Unknown methods do not become span names.
func TestMethodOf(t *testing.T) {
	for in, want := range map[string][2]string{"GET": {"GET", ""}, "PURGE": {"HTTP", "PURGE"}} {
		if m, o := methodOf(in); m != want[0] || o != want[1] {
			t.Errorf("methodOf(%q) = %q, %q", in, m, o)
		}
	}
	if spanName("GET", "") != "GET" || spanName("GET", "/a/{id}") != "GET /a/{id}" {
		t.Error("spanName")
	}
}

// BenchmarkPropagationOnly is what tracing off adds to a request without a
// traceparent: the zero Tracer's Start and End.
func BenchmarkPropagationOnly(b *testing.B) {
	var tr Tracer
	r := httptest.NewRequest("GET", "/api/hello", nil)
	o := dispatch.Observation{Method: "GET", Route: "/api/hello", Status: 200, Request: r}
	b.ReportAllocs()
	for b.Loop() {
		tr.End(tr.Start(r), o)
	}
}

// A collector's refusal is an error of the export, which the SDK reports
// (and the service logs); the batch is not sent again.
func TestOTLPHTTPReportsARefusal(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer refusing.Close()
	c := newOTLPHTTP(refusing.URL+"/v1/traces", time.Second)
	err := c.post(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("post to a collector that answers 503: %v", err)
	}
}

// An export error names the collector without the password its URL may
// carry: the error is logged.
func TestOTLPHTTPErrorsHideThePassword(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer refusing.Close()
	withPassword := strings.Replace(refusing.URL, "http://", "http://user:hunter2@", 1)
	for _, endpoint := range []string{withPassword + "/v1/traces", "http://user:hunter2@127.0.0.1:1/v1/traces"} {
		err := newOTLPHTTP(endpoint, time.Second).post(context.Background(), nil)
		if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "user:") {
			t.Errorf("post to %s: %v; want an error naming the collector without its password", endpoint, err)
		}
	}
}

// The log line of a failed export names the collector without the
// password its URL may carry, as the export's error does.
func TestFailedExportLogHidesThePassword(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer refusing.Close()
	var log bytes.Buffer
	tr := New(Options{Enabled: true, Endpoint: strings.Replace(refusing.URL, "http://", "http://user:hunter2@", 1) + "/v1/traces",
		Probability: 1, Timeout: time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	tracer := tr.Tracer()
	r := httptest.NewRequest("GET", "/", nil)
	tracer.End(tracer.Start(r), dispatch.Observation{Method: "GET", Route: "/", Status: 200, Request: r})
	tr.Shutdown()
	if !strings.Contains(log.String(), "spans could not be exported") || strings.Contains(log.String(), "hunter2") {
		t.Errorf("the log of a failed export:\n%s\nwant it without the password", log.String())
	}
}
