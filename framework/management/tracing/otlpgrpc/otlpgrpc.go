// Package otlpgrpc sends the spans that framework/management/tracing
// records to a collector over OTLP/gRPC, with OpenTelemetry's own gRPC
// exporter (otlptracegrpc). It is what the OTLP/gRPC tracing starter
// (framework/starter/otlptracinggrpc) brings in: gRPC, grpc-gateway and
// genproto are linked only into the services that name that starter
// (their package-level state costs every garbage-collection cycle, see
// docs/performance.md#tracing); the OTLP/HTTP exporter (package otlp)
// links none of them.
package otlpgrpc

import (
	"context"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding/gzip"

	"github.com/springport/greeter/framework/management/tracing"
)

// New returns the exporter that sends spans over gRPC to the collector
// of e.Endpoint (checked by tracing.ParseEndpoint): its host and port, in
// plain text for http:, over TLS for https: (e.TLS, or the system's CAs);
// its path is not used, as gRPC names the service it calls. e.Headers go
// as gRPC metadata, e.Gzip compresses each export, and e.Timeout bounds
// each export with its retries. It is a tracing.ExporterFunc.
//
// The connection is made here, with every option given, rather than by
// otlptracegrpc from its own: that one reads the process's
// OTEL_EXPORTER_OTLP_* variables for whatever it is not told, while the
// service's settings, and the variables of the environment it was
// given, are the whole truth.
func New(e tracing.Export) (sdktrace.SpanExporter, error) {
	u, err := url.Parse(e.Endpoint)
	if err != nil || u.Host == "" {
		return nil, errors.New("the gRPC endpoint is not a URL with a host: want one such as http://localhost:4317")
	}
	creds := insecure.NewCredentials()
	if strings.EqualFold(u.Scheme, "https") {
		creds = credentials.NewTLS(e.TLS) // nil: the system's CAs
	}
	dial := []grpc.DialOption{grpc.WithTransportCredentials(creds), grpc.WithUserAgent(userAgent)}
	if e.Gzip {
		dial = append(dial, grpc.WithDefaultCallOptions(grpc.UseCompressor(gzip.Name)))
	}
	conn, err := grpc.NewClient(u.Host, dial...) // connects at the first export
	if err != nil {
		return nil, err
	}
	headers := map[string]string{} // not nil: none at all, whatever the process's variables say
	for k, v := range e.Headers {
		headers[strings.ToLower(k)] = v // gRPC metadata keys are lower case
	}
	// A user and password in the URL are sent as HTTP basic
	// authentication, as over HTTP, unless an Authorization header is
	// given.
	if _, given := headers["authorization"]; u.User != nil && !given {
		password, _ := u.User.Password()
		headers["authorization"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+password))
	}
	exp, err := otlptrace.New(context.Background(), otlptracegrpc.NewClient(
		otlptracegrpc.WithGRPCConn(conn),
		otlptracegrpc.WithHeaders(headers),
		otlptracegrpc.WithTimeout(e.Timeout),
		otlptracegrpc.WithRetry(retryPolicy(e.Timeout)),
	))
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &exporter{Exporter: exp, conn: conn}, nil
}

// userAgent names the exporter as otlptracegrpc does.
var userAgent = "OTel OTLP Exporter Go/" + otlptrace.Version()

// retryPolicy is the OTLP/HTTP exporter's (package otlp): an export the
// collector refuses for now (UNAVAILABLE, RESOURCE_EXHAUSTED with a
// retry delay...) is sent again after a back-off that starts at a tenth
// of the timeout, at most 5 s, and grows to half of it, never past the
// timeout, so that a collector that keeps refusing holds the SDK's
// export goroutine and a shutdown no longer than that.
func retryPolicy(timeout time.Duration) otlptracegrpc.RetryConfig {
	return otlptracegrpc.RetryConfig{
		Enabled:         true,
		InitialInterval: min(timeout/10, 5*time.Second),
		MaxInterval:     min(timeout/2, 30*time.Second),
		MaxElapsedTime:  timeout,
	}
}

// exporter is otlptrace's, whose Shutdown also closes the connection,
// which otlptracegrpc leaves to whoever gave it.
type exporter struct {
	*otlptrace.Exporter
	conn *grpc.ClientConn
}

// Shutdown stops the exporter and closes its connection; it may be
// called more than once.
func (e *exporter) Shutdown(ctx context.Context) error {
	err := e.Exporter.Shutdown(ctx)
	e.conn.Close() // a second Close says it is closed already: nothing to report
	return err
}
