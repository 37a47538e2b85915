// Package otlp sends the spans that framework/management/tracing records
// to a collector over OTLP/HTTP: OpenTelemetry's otlptrace exporter
// converts them to the official OTLP protobuf messages, and a client of
// our own (framework/management/internal/otlphttp, which says why)
// posts them, retrying what the collector refuses for now. It is what the OTLP tracing starter
// (framework/starter/otlptracing) brings in: a service that does not
// name the starter links neither it nor protobuf.
package otlp

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// New returns the exporter that posts spans to endpoint (checked by
// tracing.ParseEndpoint) with headers, gzip-compressed when gzipped, each
// export with its retries bounded by timeout. A user and password in
// endpoint are sent as HTTP basic authentication. It has the signature
// of tracing.Options.NewExporter.
func New(endpoint string, headers map[string]string, gzipped bool, timeout time.Duration) (sdktrace.SpanExporter, error) {
	client := newOTLPHTTP(endpoint, headers, gzipped, timeout)
	exp, err := otlptrace.New(context.Background(), client)
	if err != nil {
		return nil, err
	}
	return &exporter{Exporter: exp, client: client}, nil
}

// exporter is otlptrace's, whose Shutdown also stops the client when the
// SDK's shutdown was cut off before it did.
type exporter struct {
	*otlptrace.Exporter
	client *otlpHTTP
}

// Shutdown stops the exporter and its client; it may be called more than
// once.
func (e *exporter) Shutdown(ctx context.Context) error {
	err := e.Exporter.Shutdown(ctx)
	e.client.Stop(ctx)
	return err
}
