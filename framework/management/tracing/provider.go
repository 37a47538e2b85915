package tracing

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// Options are the tracing settings, named as Spring Boot names them.
type Options struct {
	// Enabled is management.tracing.enabled: false records no span even
	// with an endpoint.
	Enabled bool
	// Endpoint is management.otlp.tracing.endpoint, the full URL that
	// spans are posted to (http://collector:4318/v1/traces). Empty, the
	// default, records no span: there is nowhere to send them.
	Endpoint string
	// Probability is management.tracing.sampling.probability, the share
	// of traces that start here which are recorded (0 to 1). A request
	// whose caller sent a traceparent follows the caller's choice, so
	// that a trace is recorded whole or not at all.
	Probability float64
	// Timeout is management.otlp.tracing.timeout: it bounds each export,
	// and the last one at shutdown.
	Timeout time.Duration
	// Service names the service in the spans' resource.
	Service, Version string
	// Logger receives export failures.
	Logger *slog.Logger
}

// Tracing is the running OpenTelemetry SDK, or nothing when spans are not
// recorded.
type Tracing struct {
	provider *sdktrace.TracerProvider // nil: spans are not recorded
	timeout  time.Duration
}

// New builds the SDK when spans are to be recorded. Nothing is started,
// and nothing is sent anywhere, when they are not.
func New(opts Options) *Tracing {
	t := &Tracing{timeout: opts.Timeout}
	if !opts.Enabled || opts.Endpoint == "" {
		return t
	}
	exporter := &spanExporter{collector: newOTLPHTTP(opts.Endpoint, opts.Timeout)}
	// The SDK reports failures to send through a process-wide handler,
	// by default to the standard log package's stderr; they go to the
	// service's log instead, naming the collector without the password
	// its URL may carry.
	if opts.Logger != nil {
		logger := opts.Logger
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
			logger.Warn("tracing: spans could not be exported", "endpoint", exporter.collector.shown, "err", err)
		}))
	}
	t.provider = sdktrace.NewTracerProvider(
		// Spans are queued and sent in batches from a goroutine of the
		// SDK's (every 5 s, or at 512 spans); a full queue drops spans
		// rather than slowing requests, and a batch that could not be
		// sent is dropped, not sent again.
		sdktrace.WithBatcher(exporter, sdktrace.WithExportTimeout(opts.Timeout)),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(opts.Probability))),
		sdktrace.WithResource(resource.NewSchemaless(semconv.ServiceName(opts.Service), semconv.ServiceVersion(opts.Version))),
	)
	return t
}

// Recording reports whether spans are recorded and exported.
func (t *Tracing) Recording() bool { return t.provider != nil }

// Tracer returns the dispatcher's tracer: one that records a span per
// request when spans are recorded, else one that only propagates.
func (t *Tracing) Tracer() *Tracer {
	if t.provider == nil {
		return &Tracer{}
	}
	return &Tracer{tracer: t.provider.Tracer("github.com/springport/greeter/framework/dispatch")}
}

// Shutdown sends the spans still queued and stops the SDK, within the
// export timeout; spans that could not be sent by then are lost. Call it
// once the server has stopped taking requests.
func (t *Tracing) Shutdown() error {
	if t.provider == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout)
	defer cancel()
	if err := t.provider.Shutdown(ctx); err != nil {
		return errors.Join(errors.New("tracing: spans still queued at shutdown may be lost"), err)
	}
	return nil
}
