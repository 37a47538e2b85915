package tracing

import (
	"context"
	"fmt"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// spanExporter is the SDK's span exporter: the batch span processor
// hands it each batch of ended spans, which it encodes as one OTLP
// export request (otlpencode.go) and posts to the collector (otlphttp.go).
//
// It stands in for the OpenTelemetry exporter otlptrace, which builds
// the request as generated protobuf messages (go.opentelemetry.io/proto/otlp)
// and so links the protobuf module, whose init functions cost the
// service's start-up time and idle memory even with tracing off (see
// docs/performance.md, Tracing). It behaves as otlptrace.Exporter did with
// our client: the same bytes (but for strings that are not UTF-8, which
// otlptrace could not send at all; see appendString), the same errors,
// and Shutdown only closes idle connections, after which a late export is
// still attempted.
type spanExporter struct {
	collector *otlpHTTP
	// lastSize is the size of the last request. The next is likely
	// about as large (a full batch is 512 spans, some 250 kB), and one
	// allocation of that size saves the copies and garbage of growing a
	// buffer to it. (The buffer itself is not reused: net/http may still
	// be reading a request's body after the response has come.)
	lastSize int
}

var _ sdktrace.SpanExporter = (*spanExporter)(nil)

// ExportSpans sends one batch. The SDK calls it from one goroutine at a
// time.
func (e *spanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	body := e.encode(spans)
	if len(body) == 0 {
		return nil // no span, or only nil ones: nothing to send
	}
	if err := e.collector.post(ctx, body); err != nil {
		return fmt.Errorf("traces export: %w", err)
	}
	return nil
}

// encode writes the export request of spans into a new buffer of about
// the last one's size.
func (e *spanExporter) encode(spans []sdktrace.ReadOnlySpan) []byte {
	body := appendExportRequest(make([]byte, 0, e.lastSize+e.lastSize/8), spans)
	e.lastSize = len(body)
	return body
}

// Shutdown closes the connections to the collector that are idle. The
// SDK calls it once the batch processor has sent what was queued.
func (e *spanExporter) Shutdown(context.Context) error {
	e.collector.client.CloseIdleConnections()
	return nil
}
