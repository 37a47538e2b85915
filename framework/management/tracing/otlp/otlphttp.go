package otlp

import (
	"context"
	"crypto/tls"
	"errors"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/springport/greeter/framework/management/internal/otlphttp"
)

// otlpHTTP is the OTLP/HTTP transport of the exporter: OpenTelemetry's
// otlptrace.Exporter converts the SDK's spans to the official OTLP
// protobuf messages and hands them to this client, which posts them to
// the collector as OTLP/HTTP's binary protobuf encoding with the
// framework's client (framework/management/internal/otlphttp, which says
// why it stands in for otlptracehttp), retrying a batch the collector
// refuses for now, as the OTLP specification asks.
type otlpHTTP struct {
	*otlphttp.Client
}

var _ otlptrace.Client = (*otlpHTTP)(nil)

// newOTLPHTTP returns the client that posts to endpoint (checked by
// ParseEndpoint) with headers, gzip-compressed when gzipped, each export
// with its retries bounded by timeout, over tlsConfig to an https
// endpoint (nil: Go's defaults). A user and password in endpoint are
// sent as HTTP basic authentication.
func newOTLPHTTP(endpoint string, headers map[string]string, gzipped bool, timeout time.Duration, tlsConfig *tls.Config) *otlpHTTP {
	return &otlpHTTP{otlphttp.New(otlphttp.Options{Endpoint: endpoint, Headers: headers, Gzip: gzipped,
		Timeout: timeout, TLS: tlsConfig, UserAgent: userAgent, Items: "spans"})}
}

// userAgent names the exporter as otlptracehttp does, with the version
// of the otlptrace module that converts the spans.
var userAgent = "OTel OTLP Exporter Go/" + otlptrace.Version()

// Start has nothing to start: connections are opened by the first
// export.
func (c *otlpHTTP) Start(ctx context.Context) error { return ctx.Err() }

// Stop interrupts the exports under way and closes the idle connections.
// It may be called more than once: otlptrace's exporter calls it at
// shutdown, and exporter.Shutdown again in case that was cut off before
// it did.
func (c *otlpHTTP) Stop(ctx context.Context) error {
	c.Client.Stop()
	return ctx.Err()
}

// UploadTraces posts one batch, retrying it while the collector refuses
// it for now and ctx, and the retry policy's total, allow.
func (c *otlpHTTP) UploadTraces(ctx context.Context, spans []*tracepb.ResourceSpans) error {
	if c.Stopped() {
		return errors.New("the exporter is stopped")
	}
	body, err := exportRequest(spans)
	if err != nil {
		return err
	}
	return c.Post(ctx, body)
}

// exportRequest encodes an ExportTraceServiceRequest holding spans (see
// otlphttp.ExportRequest). A test decodes the result with the collector
// package's type.
func exportRequest(spans []*tracepb.ResourceSpans) ([]byte, error) {
	return otlphttp.ExportRequest("spans", spans)
}
