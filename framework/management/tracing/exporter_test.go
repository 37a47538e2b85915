package tracing

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/springport/greeter/framework/dispatch"
)

// The exporter posts a batch as one OTLP/HTTP protobuf export of what
// otlptrace makes of it; a batch of no span is not posted; and, as with
// otlptrace's exporter, a batch handed over after Shutdown is still
// posted (the SDK's batch processor hands over none).
func TestSpanExporterPostsTheBatch(t *testing.T) {
	var mu sync.Mutex
	var bodies [][]byte
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("the collector got %s (%s): %v", r.Method, r.Header.Get("Content-Type"), err)
		}
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
	}))
	defer collector.Close()
	exporter := &spanExporter{collector: newOTLPHTTP(collector.URL+"/v1/traces", time.Second)}
	spans := serverSpans(t, 3)
	for _, batch := range [][]sdktrace.ReadOnlySpan{spans, nil, {nil}} {
		if err := exporter.ExportSpans(context.Background(), batch); err != nil {
			t.Fatal(err)
		}
	}
	if err := exporter.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := exporter.ExportSpans(context.Background(), spans); err != nil {
		t.Errorf("ExportSpans after Shutdown: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 2 {
		t.Fatalf("%d exports posted, want 2 (the batch of spans, before and after Shutdown)", len(bodies))
	}
	want := officialExportRequest(t, spans)
	for _, body := range bodies {
		var got collectorpb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &got); err != nil || !proto.Equal(&got, want) {
			t.Errorf("the collector got %v (%v), want %v", &got, err, want)
		}
	}
}

// An export that failed says so, as otlptrace's did.
func TestSpanExporterReportsAFailure(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer refusing.Close()
	exporter := &spanExporter{collector: newOTLPHTTP(refusing.URL+"/v1/traces", time.Second)}
	err := exporter.ExportSpans(context.Background(), serverSpans(t, 1))
	if err == nil || !strings.HasPrefix(err.Error(), "traces export: ") || !strings.Contains(err.Error(), "503") {
		t.Errorf("ExportSpans to a collector that answers 503: %v", err)
	}
}

// The cost of encoding a full batch (512 spans, the batch processor's
// largest) of the service's server spans: ours, and otlptrace's, which
// builds the generated OTLP messages that proto.Marshal then encodes.
func BenchmarkEncodeBatch(b *testing.B) {
	spans := serverSpans(b, 512)
	b.Run("ours", func(b *testing.B) {
		exporter := &spanExporter{}
		b.ReportAllocs()
		for b.Loop() {
			exporter.encode(spans)
		}
	})
	b.Run("otlptrace+proto.Marshal", func(b *testing.B) {
		client := &marshalingClient{}
		exporter, err := otlptrace.New(context.Background(), client)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := exporter.ExportSpans(context.Background(), spans); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// marshalingClient is an otlptrace client that encodes what it is given,
// as the one the service had before its own encoder did.
type marshalingClient struct{}

func (marshalingClient) Start(context.Context) error { return nil }
func (marshalingClient) Stop(context.Context) error  { return nil }
func (marshalingClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	_, err := proto.Marshal(&collectorpb.ExportTraceServiceRequest{ResourceSpans: rs})
	return err
}

// serverSpans are n spans as the service records them: the dispatcher's
// Tracer over the SDK, for requests of which every other one carries a
// caller's traceparent and every fifth fails.
func serverSpans(t testing.TB, n int) []sdktrace.ReadOnlySpan {
	recorder := tracetest.NewSpanRecorder()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder),
		sdktrace.WithResource(resource.NewSchemaless(semconv.ServiceName("greeter"), semconv.ServiceVersion("v1.2.3"))))
	tr := &Tracer{tracer: provider.Tracer("github.com/springport/greeter/framework/dispatch")}
	for i := range n {
		r := httptest.NewRequest("GET", "/api/hello/world", nil)
		r.Header.Set("User-Agent", "wrk/4.2.0")
		if i%2 == 0 {
			r.Header.Set("traceparent", traceparent)
		}
		status := 200
		if i%5 == 0 {
			status = 503
		}
		tr.End(tr.Start(r), dispatch.Observation{Method: "GET", Route: "/api/hello/{name}", Status: status, Bytes: 27, Request: r})
	}
	if err := provider.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return recorder.Ended()
}
