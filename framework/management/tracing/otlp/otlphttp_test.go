package otlp

// The OTLP/HTTP client alone (otlphttp.go): the request body it writes
// by hand around protobuf's encoding, and what it makes of the
// collector's answers. exporter_test.go tests it behind the SDK.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/springport/greeter/framework/management/internal/otlphttp"
)

// resourceSpans returns n resources of spans, each different, with
// strings long enough (over 127 bytes) that the lengths take varints of
// more than one byte.
func resourceSpans(n int) []*tracepb.ResourceSpans {
	var all []*tracepb.ResourceSpans
	for i := range n {
		str := func(k, v string) *commonpb.KeyValue {
			return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
		}
		var spans []*tracepb.Span
		for j := range i + 1 {
			spans = append(spans, &tracepb.Span{
				TraceId: bytes.Repeat([]byte{byte(i + 1)}, 16), SpanId: bytes.Repeat([]byte{byte(j + 1)}, 8),
				Name: fmt.Sprintf("GET /items/{id} %d", j), Kind: tracepb.Span_SPAN_KIND_SERVER,
				StartTimeUnixNano: uint64(1e18 + i*1000 + j), EndTimeUnixNano: uint64(1e18 + i*1000 + j + 500),
				Attributes: []*commonpb.KeyValue{str("url.path", "/items/"+strings.Repeat("x", 200*(j+1)))},
				Status:     &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "boom"},
			})
		}
		all = append(all, &tracepb.ResourceSpans{
			Resource:   &resourcepb.Resource{Attributes: []*commonpb.KeyValue{str("service.name", fmt.Sprintf("svc-%d", i))}},
			ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: "dispatch"}, Spans: spans}},
			SchemaUrl:  "https://opentelemetry.io/schemas/1.26.0",
		})
	}
	return all
}

// The body is an ExportTraceServiceRequest: the collector package's type
// decodes it to the same resources, in order, and protobuf's own
// encoding of that request is the same bytes.
func TestExportRequestIsAnExportTraceServiceRequest(t *testing.T) {
	for _, n := range []int{0, 1, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			want := resourceSpans(n)
			body, err := exportRequest(want)
			if err != nil {
				t.Fatal(err)
			}
			got := &collectorpb.ExportTraceServiceRequest{}
			if err := proto.Unmarshal(body, got); err != nil {
				t.Fatalf("the body does not decode as an ExportTraceServiceRequest: %v", err)
			}
			if !proto.Equal(got, &collectorpb.ExportTraceServiceRequest{ResourceSpans: want}) {
				t.Errorf("decoded %v,\nwant %v", got, want)
			}
			if len(got.ResourceSpans) != n {
				t.Errorf("%d resources decoded, want %d", len(got.ResourceSpans), n)
			}
			reference, err := proto.Marshal(&collectorpb.ExportTraceServiceRequest{ResourceSpans: want})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(body, reference) {
				t.Errorf("%d bytes, protobuf's encoding of the request %d bytes, or the same length but other bytes", len(body), len(reference))
			}
		})
	}
}

// A span that protobuf refuses to encode (a string that is not UTF-8)
// fails the export, saying so, rather than sending a broken body.
func TestExportRequestRefusesWhatProtobufRefuses(t *testing.T) {
	spans := resourceSpans(1)
	spans[0].ScopeSpans[0].Spans[0].Name = "bad \xff"
	if _, err := exportRequest(spans); err == nil || !strings.Contains(err.Error(), "could not be encoded") {
		t.Errorf("exportRequest: %v, want an encoding error", err)
	}
}

// answering starts a collector that answers every export with answer,
// and a client of it with timeout.
func answering(t *testing.T, timeout time.Duration, answer http.HandlerFunc) (*otlpHTTP, *collector) {
	t.Helper()
	c := newCollector(t, func(_ int, w http.ResponseWriter) bool {
		answer(w, nil)
		return false
	})
	client := newOTLPHTTP(c.URL+"/v1/traces", map[string]string{"Authorization": "Bearer s3cret"}, false, timeout, nil)
	t.Cleanup(func() { client.Stop(context.Background()) })
	return client, c
}

// A collector's partial success, the spans it took but rejected, is an
// error worded as otlptracehttp's; an empty answer, or a partial
// success that rejects nothing, is not.
func TestPartialSuccess(t *testing.T) {
	for _, tt := range []struct {
		name   string
		answer *collectorpb.ExportTraceServiceResponse
		want   string // "": no error
	}{
		{"empty", &collectorpb.ExportTraceServiceResponse{}, ""},
		{"nothing rejected", &collectorpb.ExportTraceServiceResponse{PartialSuccess: &collectorpb.ExportTracePartialSuccess{}}, ""},
		{"rejected", &collectorpb.ExportTraceServiceResponse{PartialSuccess: &collectorpb.ExportTracePartialSuccess{RejectedSpans: 3, ErrorMessage: "too old"}},
			"OTLP partial success: too old (3 spans rejected)"},
		{"no message", &collectorpb.ExportTraceServiceResponse{PartialSuccess: &collectorpb.ExportTracePartialSuccess{RejectedSpans: 1}},
			"OTLP partial success: empty message (1 spans rejected)"},
		{"a message alone", &collectorpb.ExportTraceServiceResponse{PartialSuccess: &collectorpb.ExportTracePartialSuccess{ErrorMessage: "dropped a field"}},
			"OTLP partial success: dropped a field (0 spans rejected)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body, err := proto.Marshal(tt.answer)
			if err != nil {
				t.Fatal(err)
			}
			client, c := answering(t, 2*time.Second, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/x-protobuf")
				w.Write(body)
			})
			err = client.UploadTraces(context.Background(), resourceSpans(1))
			if (err == nil) != (tt.want == "") || (err != nil && err.Error() != tt.want) {
				t.Errorf("UploadTraces: %v, want %q", err, tt.want)
			}
			if all, _ := c.received(); len(all) != 1 {
				t.Errorf("%d exports, want 1: a partial success is not retried", len(all))
			}
		})
	}
}

// A refusal that will not change (400) is not retried, and its error
// names the status and quotes the start of the body, never the
// request's headers.
func TestPermanentRefusal(t *testing.T) {
	long := "invalid spans: " + strings.Repeat("y", 100<<10)
	client, c := answering(t, 2*time.Second, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Echo", "Bearer s3cret")
		http.Error(w, long, http.StatusBadRequest)
	})
	err := client.UploadTraces(context.Background(), resourceSpans(1))
	if err == nil {
		t.Fatal("UploadTraces: no error for a 400")
	}
	msg := err.Error()
	if !strings.Contains(msg, "400 Bad Request") || !strings.Contains(msg, "invalid spans: yyy") || len(msg) > 1024 || strings.Contains(msg, "s3cret") {
		t.Errorf("UploadTraces: %d bytes of error %.300q…; want the status and a bounded excerpt of the body, no header", len(msg), msg)
	}
	if all, _ := c.received(); len(all) != 1 {
		t.Errorf("%d exports, want 1: a 400 is not retried", len(all))
	}
	if otlphttp.IsRetryable(err) {
		t.Error("a 400 was marked retryable")
	}
}

// Each of the statuses that the OTLP specification calls retryable is
// retried until the collector takes the batch.
func TestRetryableStatuses(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			c := newCollector(t, func(n int, w http.ResponseWriter) bool {
				if n < 2 {
					http.Error(w, "later", status)
					return false
				}
				return true
			})
			client := newOTLPHTTP(c.URL+"/v1/traces", nil, false, time.Second, nil) // first back-off 100 ms ±50%
			defer client.Stop(context.Background())
			if err := client.UploadTraces(context.Background(), resourceSpans(1)); err != nil {
				t.Fatalf("UploadTraces: %v, want the batch taken on the third try", err)
			}
			if all, accepted := c.received(); len(all) != 3 || len(accepted) != 1 {
				t.Errorf("%d exports, %d accepted; want 3 and 1", len(all), len(accepted))
			}
		})
	}
}

// A Retry-After longer than what is left of the export's time ends the
// export at once, rather than waiting to be cut off: within half the
// timeout of 10 s, which a loaded machine's one exchange on loopback is
// far from.
func TestRetryAfterPastTheTimeout(t *testing.T) {
	const timeout = 10 * time.Second
	client, c := answering(t, timeout, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "come back later", http.StatusTooManyRequests)
	})
	began := time.Now()
	err := client.UploadTraces(context.Background(), resourceSpans(1))
	if took := time.Since(began); took > timeout/2 {
		t.Errorf("UploadTraces took %v, want it to give up at once, not at the timeout of %v", took, timeout)
	}
	if err == nil || !strings.Contains(err.Error(), "would elapse") || !strings.Contains(err.Error(), "429 Too Many Requests") {
		t.Errorf("UploadTraces: %v, want the 429 given up for the time it asks", err)
	}
	if all, _ := c.received(); len(all) != 1 {
		t.Errorf("%d exports, want 1", len(all))
	}
}

// The request is a protobuf POST with the configured headers and the
// exporter's User-Agent.
func TestRequestHeaders(t *testing.T) {
	c := newCollector(t, nil)
	client := newOTLPHTTP(c.URL+"/v1/traces", map[string]string{"x-tenant": "blue"}, true, time.Second, nil)
	defer client.Stop(context.Background())
	if err := client.UploadTraces(context.Background(), resourceSpans(2)); err != nil {
		t.Fatal(err)
	}
	all, _ := c.received()
	if len(all) != 1 {
		t.Fatalf("%d exports, want 1", len(all))
	}
	h := all[0].header
	if h.Get("User-Agent") != "OTel OTLP Exporter Go/"+otlptrace.Version() || h.Get("X-Tenant") != "blue" || !all[0].gzipped {
		t.Errorf("headers %v (gzipped %v), want otlptracehttp's User-Agent, X-Tenant and gzip", h, all[0].gzipped)
	}
	if !proto.Equal(all[0].request, &collectorpb.ExportTraceServiceRequest{ResourceSpans: resourceSpans(2)}) {
		t.Errorf("the collector decoded %v", all[0].request)
	}
}

// Stop interrupts an export under way, and a stopped client sends
// nothing more.
func TestStopInterruptsAnExport(t *testing.T) {
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer server.Close()
	defer close(release)
	client := newOTLPHTTP(server.URL+"/v1/traces", nil, false, time.Minute, nil)
	done := make(chan error, 1)
	go func() { done <- client.UploadTraces(context.Background(), resourceSpans(1)) }()
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the export never reached the collector")
	}
	if err := client.Stop(context.Background()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("UploadTraces: %v, want it cancelled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not interrupt the export under way")
	}
	if err := client.UploadTraces(context.Background(), resourceSpans(1)); err == nil {
		t.Error("a stopped client exported")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := client.Stop(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Stop with a done context: %v, want its error", err)
	}
}
