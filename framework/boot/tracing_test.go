package boot_test

// End-to-end tests of tracing: a span per request exported over OTLP/HTTP
// to a receiver inside the test, and a caller's trace passed to the log
// lines and problem documents, with tracing on and off.

import (
	"compress/gzip"
	"crypto/tls"
	"encoding/hex"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/springport/greeter/framework/boot/boottest"
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
// decodes every export request as a collector would (gzip-compressed
// ones too) and keeps the requests and their spans. answer, when set,
// says what it answers to its nth request (from 0): false when it has
// refused it.
type otlpReceiver struct {
	*httptest.Server
	answer  func(n int, w http.ResponseWriter) bool
	mu      sync.Mutex
	exports []otlpExport // every request, accepted or not
	spans   []*tracepb.Span
}

// otlpExport is one export request as the receiver got it.
type otlpExport struct {
	path     string
	header   http.Header
	gzipped  bool
	resource map[string]any // the attributes of its resources
	accepted bool
}

func newOTLPReceiver(t *testing.T) *otlpReceiver { return newOTLPReceiverOver(t, nil) }

// newOTLPReceiverOver is newOTLPReceiver served over TLS with cfg, when
// cfg is not nil: a collector with a certificate of its own, which may
// ask for the client's.
func newOTLPReceiverOver(t *testing.T, cfg *tls.Config) *otlpReceiver {
	rcv := &otlpReceiver{}
	rcv.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e := otlpExport{path: r.URL.Path, header: r.Header.Clone(), resource: map[string]any{}}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				t.Errorf("the receiver got a gzip export that is not gzip: %v", err)
				http.Error(w, "bad gzip", http.StatusBadRequest)
				return
			}
			e.gzipped, body = true, zr
		}
		raw, err := io.ReadAll(body)
		var req collectorpb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(raw, &req)
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("the receiver got %s %s (%s), not an OTLP/HTTP protobuf export: %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
			http.Error(w, "not an export", http.StatusBadRequest)
			return
		}
		for _, rs := range req.ResourceSpans {
			maps.Copy(e.resource, attrs(rs.Resource.GetAttributes()))
		}
		rcv.mu.Lock()
		defer rcv.mu.Unlock()
		e.accepted = rcv.answer == nil || rcv.answer(len(rcv.exports), w)
		rcv.exports = append(rcv.exports, e)
		if !e.accepted {
			return
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				rcv.spans = append(rcv.spans, ss.Spans...)
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	if cfg != nil {
		rcv.TLS = cfg
		rcv.StartTLS()
	} else {
		rcv.Start()
	}
	t.Cleanup(rcv.Close)
	return rcv
}

// received returns the spans of the exports accepted.
func (rcv *otlpReceiver) received() []*tracepb.Span {
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	return append([]*tracepb.Span(nil), rcv.spans...)
}

// requests returns every export request received.
func (rcv *otlpReceiver) requests() []otlpExport {
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	return append([]otlpExport(nil), rcv.exports...)
}

// waitForSpans waits, polling, until the receiver has accepted n spans
// of s, and returns them by name. The SDK sends a batch every 5 s; each
// poll has s send the spans it has queued at once (Instance.FlushSpans),
// as the next batch would.
func (rcv *otlpReceiver) waitForSpans(t *testing.T, s *boottest.Instance, n int) map[string]*tracepb.Span {
	t.Helper()
	boottest.WaitFor(t, strconv.Itoa(n)+" spans at the receiver", func() bool {
		if err := s.FlushSpans(); err != nil {
			t.Logf("flushing the spans: %v", err)
		}
		return len(rcv.received()) >= n
	})
	byName := map[string]*tracepb.Span{}
	for _, sp := range rcv.received() {
		byName[sp.Name] = sp
	}
	return byName
}

// attrs returns attributes as strings and integers.
func attrs(kvs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
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
	s := start(t, []string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces",
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
	got := attrs(hello.Attributes)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s=%v, want %v (all: %v)", hello.Name, k, got[k], v, got)
		}
	}
	if failure.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || hello.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("statuses: %v for the 500, %v for the 200; want only the 500's an error", failure.Status, hello.Status)
	}
	if a := attrs(unmatched.Attributes); a["http.route"] != nil || a["http.response.status_code"] != int64(404) || len(unmatched.ParentSpanId) != 0 {
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
	s := start(t, []string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces",
		"--management.tracing.export.enabled=false", "--server.access-log.enabled=true"}, nil)

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
		t.Errorf("management.tracing.export.enabled=false, and %d spans were exported", len(spans))
	}
}

// TestTracingSettingsReachTheReceiver: the headers, the compression, the
// application's name and the resource attributes that the settings give
// reach the receiver with the spans, which the test waits for as they
// come, in batches; OTEL_RESOURCE_ATTRIBUTES adds to the resource, and
// its service.name yields to app.application.name. The resource names
// the instance, the host and the process, not its command line.
func TestTracingSettingsReachTheReceiver(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, []string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces", "--management.tracing.sampling.probability=1",
		"--management.opentelemetry.tracing.export.otlp.compression=gzip", "--management.opentelemetry.tracing.export.otlp.headers.authorization=Bearer hunter2",
		"--management.opentelemetry.tracing.export.otlp.headers.X-Tenant=blue", "--app.application.name=orders",
		"--management.opentelemetry.resource-attributes.deployment.environment=prod"},
		map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "service.namespace=shop,service.name=from-attributes"})

	send(t, nil, "GET", s.URL+"/hello/7", "", traceparent)
	send(t, nil, "GET", s.URL+"/fail", "") // a trace of its own
	spans := rcv.waitForSpans(t, s, 2)
	hello, failure := spans["GET /hello/{n}"], spans["GET /fail"]
	if hello == nil || failure == nil || hex.EncodeToString(hello.TraceId) != callerTrace || len(failure.ParentSpanId) != 0 {
		t.Fatalf("spans %v: want GET /hello/{n} in the caller's trace and GET /fail a root span", spans)
	}
	e := rcv.requests()[0]
	if !e.gzipped || e.header.Get("Authorization") != "Bearer hunter2" || e.header.Get("X-Tenant") != "blue" || e.path != "/v1/traces" {
		t.Errorf("export to %s, gzipped %v, headers %v; want gzip with the headers set", e.path, e.gzipped, e.header)
	}
	host, _ := os.Hostname()
	want := map[string]any{"service.name": "orders", "deployment.environment": "prod", "service.namespace": "shop",
		"host.name": host, "process.pid": int64(os.Getpid()), "process.runtime.name": "go", "telemetry.sdk.language": "go"}
	for k, v := range want {
		if e.resource[k] != v {
			t.Errorf("resource %s=%v, want %v (all: %v)", k, e.resource[k], v, e.resource)
		}
	}
	if id, _ := e.resource["service.instance.id"].(string); len(id) != 36 {
		t.Errorf("service.instance.id %q, want a UUID", id)
	}
	for k := range e.resource {
		if strings.HasPrefix(k, "process.command") {
			t.Errorf("the resource has %s: the command line, which may hold secrets, stays out", k)
		}
	}
}

// TestTracingHeadersAreMasked: the headers' values are secrets, masked in
// /actuator/env even when it shows values.
func TestTracingHeadersAreMasked(t *testing.T) {
	t.Parallel()
	s := start(t, append([]string{"--management.opentelemetry.tracing.export.otlp.headers.x-api=hunter2"}, exposeEnv...),
		map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=hunter2"})
	if p := s.ReadProperty(t, "management.opentelemetry.tracing.export.otlp.headers.x-api"); p.Value != "******" {
		t.Errorf("management.opentelemetry.tracing.export.otlp.headers.x-api shows %q, want it masked", p.Value)
	}
	if status, body := get(t, s.URL+"/actuator/env"); status != 200 || strings.Contains(body, "hunter2") {
		t.Errorf("/actuator/env: %d, and shows a header's value:\n%s", status, body)
	}
}

// TestOTELVariablesAlone: OpenTelemetry's variables work as in any SDK,
// read from the environment the service was given: an endpoint alone
// turns export on, to its /v1/traces; headers, compression and resource
// attributes come with it; OTEL_SERVICE_NAME names the service over
// app.application.name.
func TestOTELVariablesAlone(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, []string{"--app.application.name=orders"}, map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT":    rcv.URL,
		"OTEL_EXPORTER_OTLP_HEADERS":     "authorization=Bearer%20t0ken,x-tenant=blue",
		"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
		"OTEL_SERVICE_NAME":              "from-otel",
		"OTEL_RESOURCE_ATTRIBUTES":       "deployment.environment=staging",
	})
	send(t, nil, "GET", s.URL+"/hello/7", "", traceparent) // sampled by the caller
	if spans := rcv.waitForSpans(t, s, 1); spans["GET /hello/{n}"] == nil {
		t.Fatalf("spans %v, want GET /hello/{n}", spans)
	}
	e := rcv.requests()[0]
	if e.path != "/v1/traces" || !e.gzipped || e.header.Get("Authorization") != "Bearer t0ken" || e.header.Get("X-Tenant") != "blue" {
		t.Errorf("export to %s, gzipped %v, headers %v", e.path, e.gzipped, e.header)
	}
	if e.resource["service.name"] != "from-otel" || e.resource["deployment.environment"] != "staging" {
		t.Errorf("resource %v, want service.name from OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES' attribute", e.resource)
	}
}

// TestTracingSettingsWinOverOTELVariables: a setting the service was
// given wins over OpenTelemetry's variable for the same thing.
func TestTracingSettingsWinOverOTELVariables(t *testing.T) {
	t.Parallel()
	rcv, elsewhere := newOTLPReceiver(t), newOTLPReceiver(t)
	s := start(t, []string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces", "--management.opentelemetry.tracing.export.otlp.compression=none",
		"--management.opentelemetry.tracing.export.otlp.headers.x-tenant=from-setting"}, map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT":    elsewhere.URL,
		"OTEL_EXPORTER_OTLP_HEADERS":     "x-tenant=from-variable,x-other=1",
		"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
	})
	send(t, nil, "GET", s.URL+"/hello/7", "", traceparent)
	rcv.waitForSpans(t, s, 1)
	e := rcv.requests()[0]
	if e.gzipped || e.header.Get("X-Tenant") != "from-setting" || e.header.Get("X-Other") != "" {
		t.Errorf("gzipped %v, headers %v; want the settings' (no gzip, only their headers)", e.gzipped, e.header)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := len(elsewhere.requests()); n != 0 {
		t.Errorf("%d exports went to OTEL_EXPORTER_OTLP_ENDPOINT, which the setting overrides", n)
	}

	// The endpoint set empty turns export off, whatever the variable says.
	off := start(t, []string{"--management.opentelemetry.tracing.export.otlp.endpoint="}, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": elsewhere.URL})
	send(t, nil, "GET", off.URL+"/hello/7", "", traceparent)
	if err := off.Stop(); err != nil { // the spans still queued would be sent now
		t.Fatal(err)
	}
	if n := len(elsewhere.requests()); n != 0 {
		t.Errorf("management.opentelemetry.tracing.export.otlp.endpoint is set empty, and %d exports went to OTEL_EXPORTER_OTLP_ENDPOINT", n)
	}
}

// TestRefusedBatchIsRetried: a batch the receiver refuses with a 503 is
// sent again, and its spans arrive once.
func TestRefusedBatchIsRetried(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	rcv.answer = func(n int, w http.ResponseWriter) bool {
		if n == 0 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return false
		}
		return true
	}
	s := start(t, []string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces", "--management.opentelemetry.tracing.export.otlp.timeout=3s"}, nil)
	send(t, nil, "GET", s.URL+"/hello/7", "", traceparent)
	rcv.waitForSpans(t, s, 1)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if reqs, spans := rcv.requests(), rcv.received(); len(reqs) != 2 || reqs[0].accepted || len(spans) != 1 {
		t.Errorf("%d requests (the first accepted: %v), %d spans; want a refusal, then the span once", len(reqs), reqs[0].accepted, len(spans))
	}
}

// TestBadTracingSettingsAreRefused: a bad tracing setting or OTEL_*
// variable stops start-up, the report naming it, its value (a header's
// masked), its origin and why.
func TestBadTracingSettingsAreRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{[]string{"--management.opentelemetry.tracing.export.otlp.compression=brotli"}, nil, []string{"Property: management.opentelemetry.tracing.export.otlp.compression",
			`Value: "brotli"`, "Origin: command-line argument --management.opentelemetry.tracing.export.otlp.compression=brotli", "Reason: want one of none, gzip"}},
		{[]string{"--management.opentelemetry.tracing.export.otlp.endpoint=localhost:4318"}, nil, []string{"Property: management.opentelemetry.tracing.export.otlp.endpoint",
			"Reason: want an http:// or https:// URL with a host"}},
		{[]string{"--management.opentelemetry.tracing.export.otlp.headers.x(tenant)=hunter2"}, nil, []string{"Property: management.opentelemetry.tracing.export.otlp.headers.x(tenant)",
			`Value: "******"`, "Origin: command-line argument --management.opentelemetry.tracing.export.otlp.headers.x(tenant)\n", `Reason: "x(tenant)" is not an HTTP header name`}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"}, []string{"Property: OTEL_EXPORTER_OTLP_COMPRESSION",
			`Value: "zstd"`, "Origin: environment variable OTEL_EXPORTER_OTLP_COMPRESSION", "Reason: want one of none, gzip"}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, []string{"Property: OTEL_EXPORTER_OTLP_ENDPOINT",
			`Value: "collector:4318"`, "Origin: environment variable OTEL_EXPORTER_OTLP_ENDPOINT", "Reason: want an http:// or https:// URL"}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization: Bearer hunter2"}, []string{"Property: OTEL_EXPORTER_OTLP_HEADERS",
			`Value: "******"`, "Reason: header 1 of the list is not key=value"}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, []string{"Property: OTEL_EXPORTER_OTLP_TIMEOUT",
			"Reason: want a number of milliseconds"}},
	}
	for _, tt := range tests {
		report, err := boottest.FailToStart(t, tester(), append([]string{"--server.port=0"}, tt.args...), tt.env)
		if err == nil {
			t.Errorf("%v %v: started", tt.args, tt.env)
			continue
		}
		for _, w := range append(tt.want, "APPLICATION FAILED TO START") {
			if !strings.Contains(report, w) {
				t.Errorf("%v %v: the report lacks %q:\n%s", tt.args, tt.env, w, report)
			}
		}
		if strings.Contains(report, "hunter2") {
			t.Errorf("%v %v: the report shows a header's value:\n%s", tt.args, tt.env, report)
		}
	}
}
