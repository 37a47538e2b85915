package tracing

import (
	"context"
	"crypto/tls"
	"errors"
	"github.com/springport/greeter/framework/config"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Options are the tracing settings, named as Spring Boot names them.
type Options struct {
	// Enabled is management.tracing.export.enabled: false records no
	// span even with an endpoint.
	Enabled bool
	// Endpoint is the full URL that spans are posted to
	// (http://collector:4318/v1/traces):
	// management.opentelemetry.tracing.export.otlp.endpoint, or what
	// OpenTelemetry's variables say (Variables.Endpoint). Empty, the
	// default, records no span: there is nowhere to send them. A user and
	// password in it are sent as HTTP basic authentication.
	Endpoint string
	// Headers are sent with every export:
	// management.opentelemetry.tracing.export.otlp.headers.*, or else
	// Variables.Headers. Their values are secrets.
	Headers map[string]string
	// Compression is management.opentelemetry.tracing.export.otlp.compression:
	// "gzip" compresses each export; "none" or "" does not.
	Compression string
	// Sampler is management.opentelemetry.tracing.sampler, or else
	// OTEL_TRACES_SAMPLER: which traces are recorded (sampler.go). ""
	// is Spring's default, parent-based-trace-id-ratio.
	Sampler string
	// Probability is management.tracing.sampling.probability, the share
	// of traces that start here which are recorded (0 to 1), by the
	// trace-id-ratio samplers. With the parent-based ones, the default, a
	// request whose caller sent a traceparent follows the caller's
	// choice, so that a trace is recorded whole or not at all.
	Probability float64
	// Transport is management.opentelemetry.tracing.export.otlp.transport,
	// or else OTEL_EXPORTER_OTLP_PROTOCOL: http (OTLP/HTTP, binary
	// protobuf), the default, or grpc. It picks the exporter (boot's
	// starters give one per transport).
	Transport string
	// TLS is the TLS to the collector of an https (or gRPC over TLS)
	// endpoint: the SSL bundle that
	// management.opentelemetry.tracing.export.otlp.ssl.bundle names, or
	// else what OTEL_EXPORTER_OTLP_CERTIFICATE and its kin say; nil for
	// the system's CAs and no client certificate.
	TLS *tls.Config
	// Timeout is management.opentelemetry.tracing.export.otlp.timeout: it
	// bounds each export, its retries included, and the last one at
	// shutdown.
	Timeout time.Duration

	// Service is app.application.name when it is set, else "".
	Service string
	// DefaultService names the service when nothing else does: its own
	// name (boot.Service.Name).
	DefaultService string
	// Version is service.version: the module's version.
	Version string
	// InstanceID is service.instance.id, made once per start (Bind), so
	// that the spans and the pushed meters of one instance name it alike;
	// "" makes one for the spans alone.
	InstanceID string
	// ResourceAttributes are management.opentelemetry.resource-attributes.*:
	// the resource's attributes, set or overridden (see newResource).
	ResourceAttributes map[string]string
	// Variables are what OpenTelemetry's variables say (BindVariables).
	// The resource is read from them here; the fields above that they can
	// set (Endpoint, Headers, Compression, Timeout) hold them already.
	Variables Variables

	// Logger receives export failures.
	Logger *slog.Logger

	// NewExporter builds the exporter of the spans: otlp.New, which the
	// OTLP tracing starter gives. Nil records no span, whatever Endpoint
	// says: there is nothing to send them with.
	NewExporter ExporterFunc
}

// ExporterFunc builds an exporter that sends spans as e says: otlp.New
// over HTTP, otlpgrpc.New over gRPC.
type ExporterFunc func(e Export) (sdktrace.SpanExporter, error)

// Export is what an exporter is told.
type Export struct {
	// Endpoint is where spans are sent (checked by ParseEndpoint): the
	// URL they are posted to over HTTP; over gRPC its scheme (http:
	// without TLS, https: with) and its host and port.
	Endpoint string
	// Headers are sent with every export (as gRPC metadata over gRPC).
	Headers map[string]string
	// Gzip compresses each export.
	Gzip bool
	// Timeout bounds each export, its retries included.
	Timeout time.Duration
	// TLS, when not nil, is the TLS to an https endpoint: its CAs and the
	// client's certificate.
	TLS *tls.Config
}

// Tracing is the running OpenTelemetry SDK, or nothing when spans are not
// recorded.
type Tracing struct {
	provider *sdktrace.TracerProvider // nil: spans are not recorded
	exporter sdktrace.SpanExporter
	timeout  time.Duration
}

// Spans are queued and sent in batches by the SDK's batch span processor,
// with the SDK's defaults, given here so that the process's OTEL_BSP_*
// variables cannot change them behind the environment the service was
// given.
const (
	maxQueueSize = sdktrace.DefaultMaxQueueSize       // 2048: a full queue drops spans
	maxBatchSize = sdktrace.DefaultMaxExportBatchSize // 512
	batchDelay   = sdktrace.DefaultScheduleDelay * time.Millisecond
)

// New builds the SDK when spans are to be recorded. Nothing is started,
// and nothing is sent anywhere, when they are not. It fails only when
// the exporter cannot be built, which settings that have been checked
// (ParseEndpoint) do not cause.
func New(opts Options) (*Tracing, error) {
	t := &Tracing{timeout: opts.Timeout}
	if !opts.Enabled || opts.Endpoint == "" || opts.NewExporter == nil {
		return t, nil
	}
	// The exporter converts the SDK's spans to the official OTLP messages
	// and posts them. It does not read the process's environment.
	exporter, err := opts.NewExporter(Export{Endpoint: opts.Endpoint, Headers: opts.Headers, Gzip: opts.Compression == "gzip",
		Timeout: opts.Timeout, TLS: opts.TLS})
	if err != nil {
		return nil, err
	}
	t.exporter = exporter
	res, err := newResource(opts)
	if err != nil && opts.Logger != nil {
		opts.Logger.Warn("tracing: part of the spans' resource could not be found out", "error", err)
	}
	// The SDK reports failures to send through a process-wide handler,
	// by default to the standard log package's stderr; they go to the
	// service's log instead, naming the collector without the password
	// its URL may carry.
	if opts.Logger != nil {
		logger, shown := opts.Logger, redacted(opts.Endpoint)
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
			logger.Warn("tracing: spans could not be exported", "endpoint", shown, "error", err)
		}))
	}
	t.provider = sdktrace.NewTracerProvider(
		// Spans are sent from a goroutine of the SDK's (every 5 s, or at
		// 512 spans); a full queue drops spans rather than slowing
		// requests. A batch the collector refuses for now is retried
		// (retryPolicy); one that still could not be sent is dropped.
		sdktrace.WithBatcher(exporter, sdktrace.WithExportTimeout(opts.Timeout),
			sdktrace.WithMaxQueueSize(maxQueueSize), sdktrace.WithMaxExportBatchSize(maxBatchSize), sdktrace.WithBatchTimeout(batchDelay)),
		sdktrace.WithSampler(newSampler(opts.Sampler, opts.Probability)),
		sdktrace.WithRawSpanLimits(spanLimits),
		sdktrace.WithResource(res),
	)
	return t, nil
}

// spanLimits are the SDK's default limits (128 attributes, events and
// links a span, no limit on a value's length), given here so that the
// process's OTEL_SPAN_* variables cannot change them.
var spanLimits = sdktrace.SpanLimits{
	AttributeValueLengthLimit:   sdktrace.DefaultAttributeValueLengthLimit,
	AttributeValueDepthLimit:    sdktrace.DefaultAttributeValueDepthLimit,
	AttributeCountLimit:         sdktrace.DefaultAttributeCountLimit,
	EventCountLimit:             sdktrace.DefaultEventCountLimit,
	LinkCountLimit:              sdktrace.DefaultLinkCountLimit,
	AttributePerEventCountLimit: sdktrace.DefaultAttributePerEventCountLimit,
	AttributePerLinkCountLimit:  sdktrace.DefaultAttributePerLinkCountLimit,
}

// redacted is endpoint with the passwords it may hold masked, in its
// user-info or its query, parsed or not.
func redacted(endpoint string) string { return config.MaskPasswords(endpoint) }

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

// Flush sends the spans queued now, without waiting for the batch's
// delay, and returns once they are sent, given up on, or ctx is done:
// for a test that checks what a collector receives while the service
// runs, which would otherwise wait out the 5 s between batches. Nothing
// else changes; with spans not recorded it does nothing.
func (t *Tracing) Flush(ctx context.Context) error {
	if t.provider == nil {
		return nil
	}
	return t.provider.ForceFlush(ctx)
}

// Shutdown sends the spans still queued and stops the SDK, within the
// export timeout; spans that could not be sent by then are lost, and the
// failure is logged as any export's. Call it once the server has stopped
// taking requests.
func (t *Tracing) Shutdown() error {
	if t.provider == nil {
		return nil
	}
	// The last export gives up at the timeout itself, saying why; the
	// second more lets it do so rather than be cut off unexplained.
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout+time.Second)
	defer cancel()
	err := t.provider.Shutdown(ctx)
	t.exporter.Shutdown(ctx) // also when the provider gave up before stopping the exporter
	if err != nil {
		return errors.Join(errors.New("tracing: spans still queued at shutdown may be lost"), err)
	}
	return nil
}
