package tracing

// The prefixes of the tracing settings that are maps, a key per entry:
// management.otlp.tracing.headers.<name> and
// management.opentelemetry.resource-attributes.<key>.
const (
	HeadersPrefix            = "management.otlp.tracing.headers."
	ResourceAttributesPrefix = "management.opentelemetry.resource-attributes."
)
