package boot_test

// End-to-end tests of tracing: a span per request exported over OTLP/HTTP
// to a receiver inside the test, and a caller's trace passed to the log
// lines and problem documents, with tracing on and off.

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// The caller's trace in the tests: a traceparent is
// "00-<trace ID>-<the caller's span ID>-<flags>", flags 01 when the caller
// records the trace.
const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
	traceparent = "traceparent: 00-" + callerTrace + "-" + callerSpan + "-01"
	// unsampled is the same trace, which the caller does not record.
	unsampled = "traceparent: 00-" + callerTrace + "-" + callerSpan + "-00"
)

// otlpReceiver is a collector's OTLP/HTTP endpoint inside the test: it
// decodes every export request as a collector would and keeps its spans.
type otlpReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*tracepb.Span
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	rcv := &otlpReceiver{}
	rcv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var req collectorpb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("the receiver got %s %s (%s), not an OTLP/HTTP protobuf export: %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
			http.Error(w, "not an export", http.StatusBadRequest)
			return
		}
		rcv.mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				rcv.spans = append(rcv.spans, ss.Spans...)
			}
		}
		rcv.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(rcv.Close)
	return rcv
}

func (rcv *otlpReceiver) received() []*tracepb.Span {
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	return append([]*tracepb.Span(nil), rcv.spans...)
}

// attrs returns a span's attributes as strings, integers printed.
func attrs(s *tracepb.Span) map[string]any {
	m := map[string]any{}
	for _, kv := range s.Attributes {
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = v.IntValue
		}
	}
	return m
}

// TestTracingExportsASpanPerRequest: with an endpoint, every sampled
// request is one server span named by its route, in the caller's trace
// when it sent a traceparent; the spans are sent at shutdown at the
// latest, and the request's log lines and problem document name the trace.
func TestTracingExportsASpanPerRequest(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, []string{"--management.otlp.tracing.endpoint=" + rcv.URL + "/v1/traces",
		"--management.tracing.sampling.probability=1", "--server.access-log.enabled=true"}, nil)

	if r := send(t, nil, "GET", s.URL+"/hello/7", "", traceparent); r.status != http.StatusOK {
		t.Fatalf("GET /hello/7: %d %s", r.status, r.body)
	}
	failed := send(t, nil, "GET", s.URL+"/fail", "", traceparent)
	if p := problemOf(t, failed); failed.status != 500 || p.TraceID != callerTrace {
		t.Errorf("GET /fail: %d with traceId %q, want 500 with the caller's %s", failed.status, p.TraceID, callerTrace)
	}
	notFound := send(t, nil, "GET", s.URL+"/no/such/path", "") // a trace of its own
	if p := problemOf(t, notFound); !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(p.TraceID) || p.TraceID == callerTrace {
		t.Errorf("GET /no/such/path: traceId %q, want a new trace ID", p.TraceID)
	}
	if r := send(t, nil, "GET", s.URL+"/hello", "", unsampled); r.status != http.StatusOK {
		t.Fatalf("GET /hello: %d", r.status)
	}
	if err := s.Stop(); err != nil { // the spans still queued are sent now
		t.Fatal(err)
	}

	spans := map[string]*tracepb.Span{}
	for _, sp := range rcv.received() {
		if spans[sp.Name] != nil {
			t.Errorf("two spans named %q", sp.Name)
		}
		spans[sp.Name] = sp
	}
	if len(spans) != 3 {
		t.Fatalf("received %d spans %v, want 3: the unsampled trace's request is not recorded", len(spans), spans)
	}
	hello, failure, unmatched := spans["GET /hello/{n}"], spans["GET /fail"], spans["GET"]
	if hello == nil || failure == nil || unmatched == nil {
		t.Fatalf("spans %v, want GET /hello/{n}, GET /fail and GET", spans)
	}
	for _, sp := range []*tracepb.Span{hello, failure} {
		if got := hex.EncodeToString(sp.TraceId); got != callerTrace {
			t.Errorf("%s: trace ID %s, want the caller's %s", sp.Name, got, callerTrace)
		}
		if got := hex.EncodeToString(sp.ParentSpanId); got != callerSpan {
			t.Errorf("%s: parent span ID %s, want the caller's %s", sp.Name, got, callerSpan)
		}
		if sp.Kind != tracepb.Span_SPAN_KIND_SERVER {
			t.Errorf("%s: kind %v, want SERVER", sp.Name, sp.Kind)
		}
	}
	want := map[string]any{"http.request.method": "GET", "http.route": "/hello/{n}", "url.path": "/hello/7",
		"url.scheme": "http", "server.address": "127.0.0.1", "client.address": "127.0.0.1",
		"http.response.status_code": int64(200), "network.protocol.version": "1.1"}
	got := attrs(hello)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s=%v, want %v (all: %v)", hello.Name, k, got[k], v, got)
		}
	}
	if failure.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || hello.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("statuses: %v for the 500, %v for the 200; want only the 500's an error", failure.Status, hello.Status)
	}
	if a := attrs(unmatched); a["http.route"] != nil || a["http.response.status_code"] != int64(404) || len(unmatched.ParentSpanId) != 0 {
		t.Errorf("the unmatched request's span: %v, parent %x; want a root span with a 404 and no route", a, unmatched.ParentSpanId)
	}

	// The log lines about a request carry its trace and its own span.
	ids := "trace_id=" + callerTrace + " span_id="
	s.WaitForLog(t, regexp.MustCompile(`msg=request .*path=/hello/7 .*`+ids+hex.EncodeToString(hello.SpanId)))
	s.WaitForLog(t, regexp.MustCompile(`msg="request failed" .*path=/fail .*`+ids+hex.EncodeToString(failure.SpanId)))
}

// TestTracingOffPropagatesTheCallersTrace: without an endpoint nothing is
// recorded or sent, and no ID is made; a caller's traceparent still
// reaches the log lines and the problem document, with the caller's span
// ID, so that they can be found from the caller's trace.
func TestTracingOffPropagatesTheCallersTrace(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, []string{"--management.otlp.tracing.endpoint=" + rcv.URL + "/v1/traces",
		"--management.tracing.enabled=false", "--server.access-log.enabled=true"}, nil)

	failed := send(t, nil, "GET", s.URL+"/fail", "", traceparent)
	if p := problemOf(t, failed); p.TraceID != callerTrace {
		t.Errorf("GET /fail: traceId %q, want the caller's %s", p.TraceID, callerTrace)
	}
	alone := send(t, nil, "GET", s.URL+"/hello/x", "") // a 400, without a traceparent
	if p := decode[map[string]any](t, alone); alone.status != 400 || p["traceId"] != nil {
		t.Errorf("GET /hello/x without a traceparent: %d, traceId %v, want a 400 with none", alone.status, p["traceId"])
	}
	ids := "trace_id=" + callerTrace + " span_id=" + callerSpan
	s.WaitForLog(t, regexp.MustCompile(`msg=request .*path=/fail .*`+ids))
	s.WaitForLog(t, regexp.MustCompile(`msg="request failed" .*path=/fail .*`+ids))
	line := s.WaitForLog(t, regexp.MustCompile(`msg=request .*path=/hello/x .*`))
	if strings.Contains(line[0], "trace_id=") {
		t.Errorf("a request without a traceparent is logged with a trace: %s", line[0])
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if spans := rcv.received(); len(spans) != 0 {
		t.Errorf("management.tracing.enabled=false, and %d spans were exported", len(spans))
	}
}
