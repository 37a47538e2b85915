// Package otlptracing is the starter that sends a service's spans to an
// OpenTelemetry collector over OTLP/HTTP, as Spring Boot's
// micrometer-tracing-bridge-otel with opentelemetry-exporter-otlp: with
// it, management.opentelemetry.tracing.export.otlp.endpoint (or OpenTelemetry's
// OTEL_EXPORTER_OTLP_ENDPOINT) turns on a span per request, exported in
// batches (framework/management/tracing/otlp). The tracing settings are
// the framework's; see docs/operations.md.
//
// A service that does not name it links neither the OTLP exporter nor
// protobuf, and one given an endpoint records no span, with a warning
// at start-up naming this starter.
package otlptracing

import (
	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/management/tracing/otlp"
)

// Starter exports spans over OTLP/HTTP.
var Starter = boot.Starter{
	Name:         boot.OTLPTracingStarter,
	SpanExporter: otlp.New,
}
