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

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/springport/greeter/framework/management/tracing"
)

// New returns the exporter that posts spans to e.Endpoint (checked by
// tracing.ParseEndpoint) with e.Headers, gzip-compressed when e.Gzip,
// each export with its retries bounded by e.Timeout, over e.TLS to an
// https endpoint. A user and password in the endpoint are sent as HTTP
// basic authentication. It is a tracing.ExporterFunc.
func New(e tracing.Export) (sdktrace.SpanExporter, error) {
	client := newOTLPHTTP(e.Endpoint, e.Headers, e.Gzip, e.Timeout, e.TLS)
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
