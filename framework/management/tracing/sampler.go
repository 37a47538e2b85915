package tracing

import (
	"cmp"
	"errors"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/springport/greeter/framework/config"
)

// A sampler decides, as a trace starts, whether its spans are recorded:
// only a recorded span is exported, and a trace is recorded whole or not
// at all when each service follows its caller's choice (the parent-based
// samplers), which the traceparent header's flag carries.
//
// The samplers are Spring Boot 4.1's management.opentelemetry.tracing.sampler
// values, which are those of OpenTelemetry's OTEL_TRACES_SAMPLER under
// other spellings (traceidratio is trace-id-ratio; config.OneOf takes
// either, as Spring binds an enum).
const (
	samplerKey               = "management.opentelemetry.tracing.sampler"
	alwaysOn                 = "always-on"
	alwaysOff                = "always-off"
	traceIDRatio             = "trace-id-ratio"
	parentBasedAlwaysOn      = "parent-based-always-on"
	parentBasedAlwaysOff     = "parent-based-always-off"
	parentBasedTraceIDRatio  = "parent-based-trace-id-ratio" // Spring's default
	probabilityKey           = "management.tracing.sampling.probability"
	defaultProbability       = 0.1 // Spring's
	variableDefaultRatio     = 1.0 // OTEL_TRACES_SAMPLER_ARG's, when its sampler takes a ratio
	samplerVariable          = "OTEL_TRACES_SAMPLER"
	samplerArgumentVariable  = "OTEL_TRACES_SAMPLER_ARG"
	unsupportedSamplerReason = " is a sampler that OpenTelemetry's SDKs may offer, but not this one: want "
)

var samplers = []string{alwaysOn, alwaysOff, traceIDRatio, parentBasedAlwaysOn, parentBasedAlwaysOff, parentBasedTraceIDRatio}

// parseSampler parses a sampler's name, in Spring's spelling or
// OpenTelemetry's. The samplers OpenTelemetry's specification lists that
// this service does not have (Jaeger's remote sampler, AWS X-Ray's) are
// refused by their name.
func parseSampler(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "jaeger_remote", "parentbased_jaeger_remote", "xray":
		return "", errors.New(v + unsupportedSamplerReason + strings.Join(samplers, ", "))
	}
	return config.OneOf(samplers...)(s)
}

// takesRatio reports whether the sampler samples a share of the traces.
func takesRatio(sampler string) bool {
	return sampler == traceIDRatio || sampler == parentBasedTraceIDRatio
}

// bindSamplerVariables reads OTEL_TRACES_SAMPLER, and
// OTEL_TRACES_SAMPLER_ARG when that names a sampler that takes a ratio
// (1 when it is unset, as the specification says); an argument of
// another sampler, or of none, is ignored, as the SDKs ignore it.
func bindSamplerVariables(b *config.Binder) (sampler string, ratio float64) {
	sampler = config.BindVariable(b, samplerVariable, "", parseSampler)
	if !takesRatio(sampler) {
		return sampler, 0
	}
	return sampler, config.BindVariable(b, samplerArgumentVariable, variableDefaultRatio, config.Probability)
}

// bindSampler reads the sampler and its probability: the settings, and
// where they are not set OpenTelemetry's variables, as for every tracing
// setting (a setting the service was given wins).
func bindSampler(b *config.Binder, otel Variables) (sampler string, probability float64) {
	sampler = config.Bind(b, samplerKey, cmp.Or(otel.Sampler, parentBasedTraceIDRatio), parseSampler,
		"which traces are recorded: always-on, always-off, trace-id-ratio (the share "+probabilityKey+" says), or parent-based-* of one of them, "+
			"which follows a caller's traceparent and samples as the other only the traces that start here (unset: OTEL_TRACES_SAMPLER)")
	def := defaultProbability
	if takesRatio(otel.Sampler) {
		def = otel.SamplerArg
	}
	probability = config.Bind(b, probabilityKey, def, config.Probability,
		"share of the traces that start here that are recorded (0 to 1), by the trace-id-ratio samplers; a caller's traceparent decides for its own "+
			"(unset: OTEL_TRACES_SAMPLER_ARG, when OTEL_TRACES_SAMPLER names a ratio sampler)")
	return sampler, probability
}

// newSampler is the SDK's sampler that sampler names.
func newSampler(sampler string, probability float64) sdktrace.Sampler {
	switch sampler {
	case alwaysOn:
		return sdktrace.AlwaysSample()
	case alwaysOff:
		return sdktrace.NeverSample()
	case traceIDRatio:
		return sdktrace.TraceIDRatioBased(probability)
	case parentBasedAlwaysOn:
		return sdktrace.ParentBased(sdktrace.AlwaysSample())
	case parentBasedAlwaysOff:
		return sdktrace.ParentBased(sdktrace.NeverSample())
	}
	return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(probability))
}
