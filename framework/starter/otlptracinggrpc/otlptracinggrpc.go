// Package otlptracinggrpc is the starter that sends a service's spans to
// an OpenTelemetry collector over OTLP/gRPC, as Spring Boot does with
// management.opentelemetry.tracing.export.otlp.transport=grpc (3.4's
// management.otlp.tracing.transport) and opentelemetry-exporter-otlp's
// gRPC sender: with it, that setting, or OpenTelemetry's
// OTEL_EXPORTER_OTLP_PROTOCOL=grpc, sends the spans of each request to
// the collector that management.opentelemetry.tracing.export.otlp.endpoint
// (or OTEL_EXPORTER_OTLP_ENDPOINT) names, such as http://localhost:4317
// (framework/management/tracing/otlpgrpc). The tracing settings are the
// framework's; see docs/operations.md.
//
// It is a starter of its own, apart from the OTLP/HTTP one
// (framework/starter/otlptracing), because it links gRPC: a service that
// does not name it links no gRPC package, and one that asks for gRPC
// without it does not start, its report naming this starter. A service
// may name both; the transport setting picks one.
package otlptracinggrpc

import (
	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/management/tracing/otlpgrpc"
)

// Starter exports spans over OTLP/gRPC.
var Starter = boot.Starter{
	Name:          boot.OTLPTracingGRPCStarter,
	SpanExporter:  otlpgrpc.New,
	SpanTransport: tracing.GRPC,
}
