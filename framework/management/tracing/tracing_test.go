package tracing

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
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

// BenchmarkRecordedSpan is what a sampled request's server span costs the
// request: the Tracer's Start and End with every attribute, the span
// recorded (no processor: it goes nowhere after).
func BenchmarkRecordedSpan(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
	tr := &Tracer{tracer: tp.Tracer("bench")}
	r := httptest.NewRequest("GET", "/api/hello?name=world", nil)
	r.Header.Set("User-Agent", "bench/1.0")
	r.RemoteAddr = "10.1.2.3:5555"
	o := dispatch.Observation{Method: "GET", Route: "/api/hello", Status: 200, Bytes: 12, Request: r}
	b.ReportAllocs()
	for b.Loop() {
		tr.End(tr.Start(r), o)
	}
}

// url.query keeps the query as sent, with the values of the signature
// parameters OpenTelemetry's conventions list replaced by REDACTED; a
// query without them is returned as it is, at no allocation.
func TestRedactQuery(t *testing.T) {
	for in, want := range map[string]string{
		"q=a%20b&page=2":                        "q=a%20b&page=2",
		"sig=abc":                               "sig=REDACTED",
		"a=1&Signature=x&b=2":                   "a=1&Signature=REDACTED&b=2",
		"AWSAccessKeyId=AKIA&X-Goog-Signature=": "AWSAccessKeyId=REDACTED&X-Goog-Signature=REDACTED",
		"Sig=kept&sig&signature=kept&&sig=x":    "Sig=kept&sig&signature=kept&&sig=REDACTED",
		"sig=a=b&x=1":                           "sig=REDACTED&x=1",
		// SigV4's, the list of the conventions in force (semconv v1.43.0).
		"X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260101&X-Amz-Security-Token=tok&X-Amz-Signature=f00d": "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=REDACTED&X-Amz-Security-Token=REDACTED&X-Amz-Signature=REDACTED",
		"x-amz-signature=kept": "x-amz-signature=kept",
	} {
		if got := redactQuery(in); got != want {
			t.Errorf("redactQuery(%q) = %q, want %q", in, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { redactQuery("q=a%20b&page=2&signatures=1") }); n != 0 {
		t.Errorf("a query with nothing to redact: %v allocations, want 0", n)
	}
}

// error.type is the status of a server error, nothing for a success or
// the client's error, and the failure's type when there is no status.
func TestErrorType(t *testing.T) {
	for _, tt := range []struct {
		o    dispatch.Observation
		want string
	}{
		{dispatch.Observation{Status: 500}, "500"},
		{dispatch.Observation{Status: 503, Err: errors.New("down")}, "503"},
		{dispatch.Observation{Status: 404}, ""},
		{dispatch.Observation{Status: 200}, ""},
		{dispatch.Observation{Err: &net.OpError{Op: "write", Err: errors.New("broken pipe")}}, "*net.OpError"},
		{dispatch.Observation{}, "_OTHER"},
	} {
		if got := errorType(tt.o); got != tt.want {
			t.Errorf("errorType(%+v) = %q, want %q", tt.o, got, tt.want)
		}
	}
}
