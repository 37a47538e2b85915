package otlp

// The export path: spans recorded by the dispatcher's Tracer, batched by
// the SDK and sent by OpenTelemetry's OTLP/HTTP exporter, as a collector
// inside the test receives them, decoded with the official OTLP types.

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/tracing"
)

// traceparent is a caller's W3C trace context, as the spec's example.
const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// export is one request the collector received.
type export struct {
	at      time.Time
	path    string
	header  http.Header
	gzipped bool
	request *collectorpb.ExportTraceServiceRequest // nil when it did not decode
}

// collector is an OTLP/HTTP receiver. answer says what it answers to
// its nth request (from 0); nil accepts every one.
type collector struct {
	*httptest.Server
	answer func(n int, w http.ResponseWriter) bool // true: accepted

	mu       sync.Mutex
	exports  []export
	accepted []export
}

func newCollector(t *testing.T, answer func(n int, w http.ResponseWriter) bool) *collector {
	c := &collector{answer: answer}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e := export{at: time.Now(), path: r.URL.Path, header: r.Header.Clone()}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				t.Errorf("a gzip export that is not gzip: %v", err)
				http.Error(w, "bad gzip", http.StatusBadRequest)
				return
			}
			e.gzipped, body = true, zr
		}
		raw, err := io.ReadAll(body)
		req := &collectorpb.ExportTraceServiceRequest{}
		if err == nil {
			err = proto.Unmarshal(raw, req)
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("the collector got %s %s (%s), not an OTLP/HTTP protobuf export: %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
			http.Error(w, "not an export", http.StatusBadRequest)
			return
		}
		e.request = req
		c.mu.Lock()
		n := len(c.exports)
		c.exports = append(c.exports, e)
		c.mu.Unlock()
		if c.answer != nil && !c.answer(n, w) {
			return
		}
		c.mu.Lock()
		c.accepted = append(c.accepted, e)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf") // an empty ExportTraceServiceResponse
	}))
	t.Cleanup(c.Close)
	return c
}

// received returns every export, and those accepted.
func (c *collector) received() (all, accepted []export) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]export(nil), c.exports...), append([]export(nil), c.accepted...)
}

// spans returns the spans of exports by name.
func spans(exports []export) map[string][]*tracepb.Span {
	m := map[string][]*tracepb.Span{}
	for _, e := range exports {
		for _, rs := range e.request.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					m[s.Name] = append(m[s.Name], s)
				}
			}
		}
	}
	return m
}

// resourceOf returns the attributes of the only resource of e, as
// strings (integers printed).
func resourceOf(t *testing.T, e export) map[string]string {
	t.Helper()
	if len(e.request.ResourceSpans) != 1 {
		t.Fatalf("%d resources in one export, want 1", len(e.request.ResourceSpans))
	}
	return attributes(e.request.ResourceSpans[0].Resource.GetAttributes())
}

func attributes(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = strconv.FormatInt(v.IntValue, 10)
		default:
			m[kv.Key] = kv.Value.String()
		}
	}
	return m
}

// serve records one request for path through t's Tracer, as the
// dispatcher does, with headers ("Name: value").
func serve(tr *tracing.Tracer, method, path, route string, status int, headers ...string) {
	r := httptest.NewRequest(method, path, nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		r.Header.Set(k, v)
	}
	tr.End(tr.Start(r), dispatch.Observation{Method: method, Route: route, Status: status, Request: r})
}

// newTracing is New for a test: every trace recorded, a short timeout,
// and the failures logged to log.
func newTracing(t *testing.T, opts tracing.Options, log io.Writer) *tracing.Tracing {
	t.Helper()
	opts.Enabled, opts.Probability = true, 1
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Second
	}
	if log != nil {
		opts.Logger = slog.New(slog.NewTextHandler(log, nil))
	}
	if opts.NewExporter == nil {
		opts.NewExporter = New
	}
	tr, err := tracing.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// The spans reach the collector as one OTLP/HTTP protobuf export to the
// endpoint's path, with the headers set, gzip-compressed when asked, in
// the caller's trace when it sent a traceparent, under a resource that
// names the service and the process but not its command line.
func TestExportSendsTheSpans(t *testing.T) {
	for _, compression := range []string{"none", "gzip"} {
		t.Run(compression, func(t *testing.T) {
			c := newCollector(t, nil)
			tr := newTracing(t, tracing.Options{Endpoint: c.URL + "/otlp/v1/traces", Compression: compression,
				Headers:        map[string]string{"Authorization": "Bearer s3cret", "X-Tenant": "blue"},
				DefaultService: "items", Version: "v1.2.3"}, nil)
			tracer := tr.Tracer()
			serve(tracer, "GET", "/items/7", "/items/{id}", 200, "traceparent: "+traceparent)
			serve(tracer, "POST", "/items", "/items", 503)
			if err := tr.Shutdown(); err != nil { // sends what is queued
				t.Fatal(err)
			}

			all, _ := c.received()
			if len(all) != 1 {
				t.Fatalf("%d exports, want the one batch", len(all))
			}
			e := all[0]
			if e.path != "/otlp/v1/traces" || e.gzipped != (compression == "gzip") {
				t.Errorf("export to %s, gzipped %v; want /otlp/v1/traces, gzipped only with gzip", e.path, e.gzipped)
			}
			if e.header.Get("Authorization") != "Bearer s3cret" || e.header.Get("X-Tenant") != "blue" {
				t.Errorf("headers %v, want Authorization and X-Tenant as set", e.header)
			}
			got := spans(all)
			get, post := got["GET /items/{id}"], got["POST /items"]
			if len(got) != 2 || len(get) != 1 || len(post) != 1 {
				t.Fatalf("spans %v, want GET /items/{id} and POST /items once each", got)
			}
			if id := hex.EncodeToString(get[0].TraceId); id != "4bf92f3577b34da6a3ce929d0e0e4736" || hex.EncodeToString(get[0].ParentSpanId) != "00f067aa0ba902b7" {
				t.Errorf("GET's span in trace %s under %x, want the caller's", id, get[0].ParentSpanId)
			}
			if post[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || post[0].Kind != tracepb.Span_SPAN_KIND_SERVER {
				t.Errorf("POST's span: %v, %v; want a server span in error", post[0].Status, post[0].Kind)
			}

			res := resourceOf(t, e)
			host, _ := os.Hostname()
			exe, _ := os.Executable()
			want := map[string]string{"service.name": "items", "service.version": "v1.2.3", "host.name": host,
				"process.pid": strconv.Itoa(os.Getpid()), "process.executable.name": filepath.Base(exe),
				"process.runtime.name": "go", "telemetry.sdk.language": "go", "telemetry.sdk.name": "opentelemetry"}
			for k, v := range want {
				if res[k] != v {
					t.Errorf("resource %s=%q, want %q (all: %v)", k, res[k], v, res)
				}
			}
			uuidRE := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
			if !uuidRE.MatchString(res["service.instance.id"]) || !strings.HasPrefix(res["process.runtime.description"], "go version go1.") {
				t.Errorf("service.instance.id %q, process.runtime.description %q; want a random UUID and the toolchain",
					res["service.instance.id"], res["process.runtime.description"])
			}
			for k := range res {
				if strings.HasPrefix(k, "process.command") || k == "process.owner" {
					t.Errorf("the resource has %s: the command line may hold passwords", k)
				}
			}
		})
	}
}

// Each start is an instance of its own: service.instance.id differs.
func TestInstanceIDsDiffer(t *testing.T) {
	c := newCollector(t, nil)
	for range 2 {
		tr := newTracing(t, tracing.Options{Endpoint: c.URL + "/v1/traces", DefaultService: "items"}, nil)
		serve(tr.Tracer(), "GET", "/", "/", 200)
		if err := tr.Shutdown(); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := c.received()
	if len(all) != 2 {
		t.Fatalf("%d exports, want 2", len(all))
	}
	if a, b := resourceOf(t, all[0])["service.instance.id"], resourceOf(t, all[1])["service.instance.id"]; a == "" || a == b {
		t.Errorf("instance IDs %q and %q, want two different ones", a, b)
	}
}

// A batch the collector refuses for now (503, or 429 with Retry-After)
// is sent again, after the back-off or the Retry-After, whichever is
// longer, and delivered once.
func TestExportRetriesARefusedBatch(t *testing.T) {
	for _, tt := range []struct {
		name       string
		status     int
		retryAfter string
		atLeast    time.Duration // between the refusal and the retry
	}{
		{"503", http.StatusServiceUnavailable, "", 100 * time.Millisecond}, // half the first back-off of a 2 s timeout
		{"429 Retry-After", http.StatusTooManyRequests, "1", time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newCollector(t, func(n int, w http.ResponseWriter) bool {
				if n > 0 {
					return true
				}
				if tt.retryAfter != "" {
					w.Header().Set("Retry-After", tt.retryAfter)
				}
				http.Error(w, "busy", tt.status)
				return false
			})
			var log syncBuffer
			tr := newTracing(t, tracing.Options{Endpoint: c.URL + "/v1/traces", Timeout: 3 * time.Second}, &log)
			serve(tr.Tracer(), "GET", "/items", "/items", 200)
			if err := tr.Shutdown(); err != nil {
				t.Fatal(err)
			}
			all, accepted := c.received()
			if len(all) != 2 || len(accepted) != 1 || len(spans(accepted)["GET /items"]) != 1 {
				t.Fatalf("%d exports, %d accepted with spans %v; want a refusal, then the span delivered once", len(all), len(accepted), spans(accepted))
			}
			if waited := all[1].at.Sub(all[0].at); waited < tt.atLeast {
				t.Errorf("retried after %v, want at least %v", waited, tt.atLeast)
			}
			if strings.Contains(log.String(), "could not be exported") {
				t.Errorf("a batch delivered on retry was logged as lost:\n%s", log.String())
			}
		})
	}
}

// A collector that keeps refusing gets retries only within the export's
// timeout: shutdown is not held much longer, and the loss is logged.
func TestRetriesStopAtTheTimeout(t *testing.T) {
	c := newCollector(t, func(_ int, w http.ResponseWriter) bool {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return false
	})
	var log syncBuffer
	const timeout = time.Second
	tr := newTracing(t, tracing.Options{Endpoint: c.URL + "/v1/traces", Timeout: timeout}, &log)
	serve(tr.Tracer(), "GET", "/items", "/items", 200)
	began := time.Now()
	err := tr.Shutdown()
	// Shutdown gives the export the timeout and a second more: retries
	// that went on past the timeout would be cut off then, at the
	// earliest, however idle the machine (and Shutdown would return an
	// error, checked below).
	if took := time.Since(began); took >= timeout+time.Second {
		t.Errorf("shutdown took %v against a collector that refuses everything, want about the %v timeout", took, timeout)
	}
	if all, _ := c.received(); len(all) < 2 {
		t.Errorf("%d exports, want the batch retried", len(all))
	}
	// The reason is the collector's last answer, or the timeout when it
	// fell during an attempt.
	if err != nil || !strings.Contains(log.String(), "spans could not be exported") {
		t.Errorf("Shutdown: %v; the log of the lost batch:\n%s\nwant the loss logged", err, log.String())
	}
}

// A user and password in the endpoint's URL are sent as HTTP basic
// authentication, and a failed export's log line names the collector
// without the password.
func TestEndpointCredentials(t *testing.T) {
	c := newCollector(t, func(n int, w http.ResponseWriter) bool {
		if n == 0 {
			http.Error(w, "no", http.StatusBadRequest) // not retried
			return false
		}
		return true
	})
	withPassword := strings.Replace(c.URL, "http://", "http://user:hunter2@", 1) + "/v1/traces"
	var log syncBuffer
	for range 2 {
		tr := newTracing(t, tracing.Options{Endpoint: withPassword}, &log)
		serve(tr.Tracer(), "GET", "/", "/", 200)
		tr.Shutdown()
	}
	all, accepted := c.received()
	if len(all) != 2 || len(accepted) != 1 {
		t.Fatalf("%d exports, %d accepted; want one refused, one accepted", len(all), len(accepted))
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("user:hunter2"))
	if got := accepted[0].header.Get("Authorization"); got != want {
		t.Errorf("Authorization %q, want %q", got, want)
	}
	if !strings.Contains(log.String(), "spans could not be exported") || !strings.Contains(log.String(), "user:******@") ||
		strings.Contains(log.String(), "hunter2") {
		t.Errorf("the log of the failed export:\n%s\nwant it naming the collector without the password", log.String())
	}
}

// A path that is not UTF-8 (%ff) is repaired, not a reason to lose the
// batch: the protobuf encoder refuses such a string, and the batch with
// it.
func TestSpanOfANonUTF8PathIsExported(t *testing.T) {
	c := newCollector(t, nil)
	tr := newTracing(t, tracing.Options{Endpoint: c.URL + "/v1/traces"}, nil)
	serve(tr.Tracer(), "GET", "/items/%ff", "/items/{id}", 404, "User-Agent: bot\xfe")
	serve(tr.Tracer(), "GET", "/items/1", "/items/{id}", 200)
	if err := tr.Shutdown(); err != nil {
		t.Fatal(err)
	}
	_, accepted := c.received()
	got := spans(accepted)["GET /items/{id}"]
	if len(got) != 2 {
		t.Fatalf("%d spans, want both", len(got))
	}
	a := attributes(got[0].Attributes)
	if a["url.path"] != "/items/\uFFFD" || a["user_agent.original"] != "bot\uFFFD" {
		t.Errorf("url.path %q, user_agent.original %q; want U+FFFD for the bytes that are not UTF-8", a["url.path"], a["user_agent.original"])
	}
}

// What the service was told wins over the process's own OTEL_*
// variables, which the exporter and the SDK would otherwise read
// themselves: the service reads OpenTelemetry's variables from the
// environment it was given (BindVariables), which may not be the
// process's.
func TestTheProcessEnvironmentIsNotRead(t *testing.T) {
	c := newCollector(t, nil)
	elsewhere := newCollector(t, nil)
	// A CA certificate, which the exporter would load and then refuse to
	// post to an http:// endpoint with.
	tlsServer := httptest.NewTLSServer(http.NotFoundHandler())
	tlsServer.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsServer.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT":     elsewhere.URL,
		"OTEL_EXPORTER_OTLP_HEADERS":      "x-from-process=1",
		"OTEL_EXPORTER_OTLP_COMPRESSION":  "gzip",
		"OTEL_EXPORTER_OTLP_PROTOCOL":     "http/json",
		"OTEL_EXPORTER_OTLP_TIMEOUT":      "1",
		"OTEL_EXPORTER_OTLP_CERTIFICATE":  ca,
		"OTEL_SERVICE_NAME":               "from-process",
		"OTEL_BSP_MAX_EXPORT_BATCH_SIZE":  "1",
		"OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT": "1",
		"OTEL_TRACES_SAMPLER":             "always_off",
	} {
		t.Setenv(k, v)
	}
	tr := newTracing(t, tracing.Options{Endpoint: c.URL + "/v1/traces", DefaultService: "items"}, nil)
	for range 3 {
		serve(tr.Tracer(), "GET", "/items", "/items", 200)
	}
	if err := tr.Shutdown(); err != nil {
		t.Fatal(err)
	}
	all, _ := c.received()
	if other, _ := elsewhere.received(); len(other) != 0 {
		t.Errorf("%d exports went to the process's OTEL_EXPORTER_OTLP_ENDPOINT", len(other))
	}
	if len(all) != 1 {
		t.Fatalf("%d exports, want one batch of the 3 spans", len(all))
	}
	e := all[0]
	if e.gzipped || e.header.Get("X-From-Process") != "" || resourceOf(t, e)["service.name"] != "items" {
		t.Errorf("gzipped %v, headers %v, service.name %q: the process's variables were read", e.gzipped, e.header, resourceOf(t, e)["service.name"])
	}
	got := spans(all)["GET /items"]
	if len(got) != 3 || len(got[0].Attributes) < 2 {
		t.Errorf("%d spans (the first with %d attributes), want 3 with all their attributes", len(got), len(got[0].Attributes))
	}
}

// syncBuffer is a log that the SDK's goroutine writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
