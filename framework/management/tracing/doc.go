// Package tracing follows a service's requests in distributed traces with
// OpenTelemetry, as Spring Boot 3 does with Micrometer Tracing and its
// OpenTelemetry bridge.
//
// A trace is the tree of work that one call to a system caused, across
// services; each node is a span (one service's handling of one request),
// named and timed, with attributes. Services tell each other which trace
// and span a call belongs to in the W3C Trace Context headers: traceparent
// ("00-<32 hex trace ID>-<16 hex span ID>-<flags>", flag 01 meaning the
// caller records it) and tracestate (vendors' extra data, passed on as
// is).
//
// Three parts, each usable alone:
//
//   - Tracer (server.go) is the dispatcher's dispatch.Tracer: it reads a
//     request's traceparent into its context and, when spans are
//     recorded, starts a server span per request, named after the route
//     pattern the dispatcher matched.
//   - New (provider.go) builds the OpenTelemetry SDK from the
//     management.tracing.* and management.opentelemetry.tracing.export.otlp.*
//     settings (read by their Spring Boot 3.5 names too): a
//     sampler (sampler.go: Spring Boot 4.1's, or OTEL_TRACES_SAMPLER),
//     and the SDK's batch span processor, which hands the
//     recorded spans to the exporter that Options.NewExporter builds for
//     the transport (http, or grpc: package otlpgrpc's, which the
//     OTLP/gRPC starter gives, the one that links gRPC), over the TLS of
//     an SSL bundle or of OpenTelemetry's certificate variables:
//     package otlp's, which the OTLP tracing starter gives (OpenTelemetry's
//     otlptrace converts each batch to the official OTLP protobuf types,
//     and an OTLP/HTTP client of our own posts it and retries a batch the
//     collector refuses for now). Without an exporter no span is
//     recorded, and neither the exporter nor protobuf is linked. The
//     spans' resource (resource.go) names the service, its instance, host and
//     process. OpenTelemetry's own variables (OTEL_EXPORTER_OTLP_*,
//     OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES; variables.go) fill in
//     what the settings leave unset, read from the environment the
//     service was given.
//   - LogHandler (log.go) wraps a slog.Handler so that a log line written
//     with a request's context carries trace_id and span_id, as Spring
//     puts traceId and spanId in the logging MDC.
package tracing
