package tracing

import (
	"cmp"
	"crypto/tls"
	"time"

	"github.com/google/uuid"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/otlpenv"
	"github.com/springport/greeter/framework/ssl"
)

// The prefixes of the tracing settings that are maps, a key per entry:
// management.opentelemetry.tracing.export.otlp.headers.<name> and
// management.opentelemetry.resource-attributes.<key>.
const (
	HeadersPrefix            = otlpPrefix + "headers."
	ResourceAttributesPrefix = "management.opentelemetry.resource-attributes."
)

// The keys of the tracing settings, as Spring Boot 4 names them.
const (
	enabledKey = "management.tracing.export.enabled"
	otlpPrefix = "management.opentelemetry.tracing.export.otlp."
	// EndpointKey is the OTLP/HTTP URL that spans are sent to.
	EndpointKey    = otlpPrefix + "endpoint"
	compressionKey = otlpPrefix + "compression"
	timeoutKey     = otlpPrefix + "timeout"
	// TransportKey picks the exporter: http (OTLP/HTTP) or grpc.
	TransportKey = otlpPrefix + "transport"
	// SSLBundleKey names the SSL bundle of the TLS to the collector.
	SSLBundleKey = otlpPrefix + "ssl.bundle"
)

// The transports of TransportKey.
const (
	HTTP = "http"
	GRPC = "grpc"
)

// The tracing settings that Spring Boot 4.0 renamed, read by their 3.5
// names too, with a warning (config.Renamed). The
// OTLP exporter's settings moved from management.otlp.tracing.* to
// OtlpTracingProperties' management.opentelemetry.tracing.export.otlp.*
// (spring-boot-micrometer-tracing-opentelemetry's
// additional-spring-configuration-metadata.json lists each old key with
// its replacement, at level error), and management.tracing.enabled to
// management.tracing.export.enabled (spring-boot-micrometer-tracing's).
var _ = config.Renamed(
	config.Rename{Old: "management.tracing.enabled", New: enabledKey, Since: "4.0", Source: metadataOf("micrometer-tracing")},
	config.Rename{Old: "management.otlp.tracing.endpoint", New: EndpointKey, Since: "4.0", Source: metadataOf("micrometer-tracing-opentelemetry")},
	config.Rename{Old: "management.otlp.tracing.headers.", New: HeadersPrefix, Since: "4.0", Source: metadataOf("micrometer-tracing-opentelemetry")},
	config.Rename{Old: "management.otlp.tracing.compression", New: compressionKey, Since: "4.0", Source: metadataOf("micrometer-tracing-opentelemetry")},
	config.Rename{Old: "management.otlp.tracing.timeout", New: timeoutKey, Since: "4.0", Source: metadataOf("micrometer-tracing-opentelemetry")},
	config.Rename{Old: "management.otlp.tracing.transport", New: TransportKey, Since: "4.0", Source: metadataOf("micrometer-tracing-opentelemetry")},
)

// metadataOf names the file of Spring Boot's module spring-boot-<module>
// that declares its settings' renames.
func metadataOf(module string) string {
	return "module/spring-boot-" + module + "/src/main/resources/META-INF/additional-spring-configuration-metadata.json"
}

// Bind reads Spring Boot's tracing settings, and
// OpenTelemetry's variables (OTEL_EXPORTER_OTLP_ENDPOINT...; see
// BindVariables), which stand in for the settings that are not
// set, as the defaults: a setting the service was given wins, as an
// OpenTelemetry SDK's configuration in code wins over its variables.
// Spans are recorded only with an OTLP endpoint to send them to;
// Spring's defaults are kept otherwise (enabled, 10% of the traces that
// start here, 10 s per export, no compression).
func Bind(b *config.Binder) Options {
	otel := BindVariables(b)
	b.Describe(HeadersPrefix+"<name>", "the HTTP header <name> sent with every span export ("+HeadersPrefix+
		"authorization: Authorization), a secret, masked; none set: the pairs name=value of OTEL_EXPORTER_OTLP_HEADERS, comma-separated, percent-encoded")
	b.Describe(ResourceAttributesPrefix+"<key>", "the attribute <key> of the spans' resource, set or overridden (deployment.environment); "+
		"the pairs key=value of OTEL_RESOURCE_ATTRIBUTES set them too, beneath these")
	// The headers are a map, a key per header (as Spring binds
	// Map<String, String>), found in the settings files and the command
	// line; the environment cannot list its variables, so there it is
	// OTEL_EXPORTER_OTLP_HEADERS that sets them.
	headers := BindHeaders(b, HeadersPrefix, "span export")
	if len(headers) == 0 {
		headers = otel.Headers
	}
	enabled := config.Bind(b, enabledKey, true, config.Bool, "record a span per request when spans have an endpoint ("+EndpointKey+", or OTEL_EXPORTER_OTLP_ENDPOINT)")
	sampler, probability := bindSampler(b, otel)
	transport, endpoint := bindEndpoint(b, otel)
	tlsConfig := bindTLS(b, otel, endpoint)
	return Options{
		Enabled:     enabled,
		Sampler:     sampler,
		Probability: probability,
		Transport:   transport,
		Endpoint:    endpoint,
		TLS:         tlsConfig,
		Headers:     headers,
		Compression: config.Bind(b, compressionKey, cmp.Or(otel.Compression, "none"), ParseCompression, "none or gzip: how span exports are compressed (unset: OTEL_EXPORTER_OTLP_COMPRESSION)"),
		Timeout:     config.Bind(b, timeoutKey, cmp.Or(otel.Timeout, 10*time.Second), config.Timeout, "bound on each span export, its retries included, and on the last one at shutdown (unset: OTEL_EXPORTER_OTLP_TIMEOUT, in ms)"),
		Service:     config.Bind(b, "app.application.name", "", config.String, "the application's name, the service.name of its spans (OTEL_SERVICE_NAME overrides it); unset, the service's own name"),
		ResourceAttributes: config.BindPrefixed(b, ResourceAttributesPrefix, nil, config.String,
			func(name string) string { return "the resource attribute " + name + " of the spans" }),
		Variables:  otel,
		InstanceID: uuid.NewString(),
	}
}

// bindEndpoint reads the transport, then the endpoint, whose variable is
// read as the transport reads it: OTLP/HTTP appends /v1/traces to
// OTEL_EXPORTER_OTLP_ENDPOINT, OTLP/gRPC takes it as it is.
func bindEndpoint(b *config.Binder, otel Variables) (transport, endpoint string) {
	def := HTTP
	if otel.Protocol == otlpenv.GRPC {
		def = GRPC
	}
	transport = config.Bind(b, TransportKey, def, config.OneOf(HTTP, GRPC),
		"how spans are sent: http (OTLP over HTTP, binary protobuf) or grpc (OTLP over gRPC, with the starter "+
			"framework/starter/otlptracinggrpc) (unset: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL, http/protobuf or grpc)")
	fromVariables := otel.Endpoint
	if transport == GRPC {
		fromVariables = otel.GRPCEndpoint
	}
	endpoint = config.Bind(b, EndpointKey, fromVariables, ParseEndpoint,
		"URL spans are sent to: over http the URL posted to, e.g. http://localhost:4318/v1/traces; over grpc the collector's, e.g. http://localhost:4317 "+
			"(https: with TLS) (unset: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT, + /v1/traces over http; none: no spans recorded)")
	return transport, endpoint
}

// bindTLS reads the TLS to the collector: the SSL bundle that
// SSLBundleKey names (its trust store the collector's CAs, its key store
// the client's certificate), or where none is named what
// OpenTelemetry's certificate variables say, as Spring Boot 4.1 turns
// them into a bundle of its own.
//
// Either, with an endpoint that is plain http://, stops start-up: the
// spans would go unencrypted with the TLS asked for unused.
func bindTLS(b *config.Binder, otel Variables, endpoint string) *tls.Config {
	bundle := config.Bind(b, SSLBundleKey, "", config.String,
		"the SSL bundle (app.ssl.bundle.*) of the TLS to an https collector: its trust store the collector's CAs, its key store the client's certificate "+
			"(unset: OTEL_EXPORTER_OTLP_CERTIFICATE, _CLIENT_CERTIFICATE and _CLIENT_KEY, PEM files, or their _TRACES_ forms)")
	if bundle == "" {
		otlpenv.RefusePlainHTTP(b, otlpenv.Traces, endpoint)
		return otel.TLS
	}
	if otlpenv.IsPlainHTTP(endpoint) {
		b.Refuse(SSLBundleKey, "asks for TLS to the collector, whose endpoint is plain http://: the spans would not be encrypted; write the endpoint with https://")
	}
	return ssl.BindClient(b, SSLBundleKey, bundle)
}

// RefuseGRPCWithout stops start-up when o asks for spans over gRPC, with
// an endpoint to send them to, in a service that has no gRPC exporter
// (hasGRPC false): starter names the starter to add, and the report
// names the setting, or OpenTelemetry's variable, that asked for gRPC.
func RefuseGRPCWithout(b *config.Binder, o Options, hasGRPC bool, starter string) {
	if hasGRPC || o.Transport != GRPC || !o.Enabled || o.Endpoint == "" {
		return
	}
	reason := "asks for spans over gRPC, whose exporter comes with the starter " + starter +
		": add it to the service's Starters (without it no span would be exported)"
	if b.IsSet(TransportKey) {
		b.Refuse(TransportKey, reason)
	} else {
		b.RefuseVariable(o.Variables.ProtocolVariable, reason)
	}
}

// BindHeaders reads the HTTP headers under prefix, a key per header
// (prefix+"X-Api-Key", or prefix+"[X-Api-Key]"), as Spring binds a
// Map<String, String>: each value checked as a header's, the highest
// source's entry once. export names what they are sent with ("span
// export").
func BindHeaders(b *config.Binder, prefix, export string) map[string]string {
	headers := map[string]string{}
	for _, key := range b.KeysWithPrefix(prefix) {
		name := config.MemberName(key, prefix) // headers.[X-Api-Key] is X-Api-Key
		if _, ok := headers[name]; ok {
			continue // the highest source's, as Spring binds a map's entry once
		}
		headers[name] = config.Bind(b, key, "", HeaderValue(name), "the header "+name+" of every "+export)
	}
	return headers
}
