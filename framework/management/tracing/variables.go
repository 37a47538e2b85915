package tracing

import (
	"cmp"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/otlpenv"
)

// OpenTelemetry's SDKs, in every language, read a set of environment
// variables (the OTEL_* of the OpenTelemetry specification's "SDK
// environment variables" and "OTLP exporter configuration"), and
// operators set them for every service of a deployment, whatever its
// language. The service reads them too, through the environment it was
// given rather than the process's, so that a test's environment is the
// whole truth; they fill in what the service's own settings
// (management.opentelemetry.tracing.export.otlp.*, app.application.name) leave unset.

// Variables are what OpenTelemetry's variables say, each field empty
// when they say nothing.
type Variables struct {
	// Endpoint is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, used as it is, or
	// else OTEL_EXPORTER_OTLP_ENDPOINT, a base URL to which the path of
	// traces, /v1/traces, is appended: where OTLP/HTTP posts spans.
	Endpoint string
	// GRPCEndpoint is where OTLP/gRPC sends them:
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or else
	// OTEL_EXPORTER_OTLP_ENDPOINT, each as it is (gRPC names a service,
	// not a path).
	GRPCEndpoint string
	// Protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, or else
	// OTEL_EXPORTER_OTLP_PROTOCOL: grpc or http/protobuf;
	// ProtocolVariable names the one of them that said it.
	Protocol, ProtocolVariable string
	// TLS is what OTEL_EXPORTER_OTLP_(TRACES_)CERTIFICATE,
	// _CLIENT_CERTIFICATE and _CLIENT_KEY say (otlpenv.ClientTLS); nil
	// when none is set.
	TLS *tls.Config
	// Sampler is OTEL_TRACES_SAMPLER, as a sampler's name
	// (parent-based-trace-id-ratio for parentbased_traceidratio).
	Sampler string
	// SamplerArg is OTEL_TRACES_SAMPLER_ARG, the ratio of a Sampler that
	// takes one (trace-id-ratio, parent-based-trace-id-ratio), or 1 when
	// it is unset, as the specification says; 0 for another sampler.
	SamplerArg float64
	// Headers are OTEL_EXPORTER_OTLP_TRACES_HEADERS, or else
	// OTEL_EXPORTER_OTLP_HEADERS: name=value pairs, comma-separated, each
	// value percent-decoded. nil when neither is set.
	Headers map[string]string
	// Compression is OTEL_EXPORTER_OTLP_TRACES_COMPRESSION, or else
	// OTEL_EXPORTER_OTLP_COMPRESSION: none or gzip.
	Compression string
	// Timeout is OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, or else
	// OTEL_EXPORTER_OTLP_TIMEOUT, in milliseconds.
	Timeout time.Duration
	// ServiceName is OTEL_SERVICE_NAME.
	ServiceName string
	// ResourceAttributes are OTEL_RESOURCE_ATTRIBUTES: key=value pairs,
	// comma-separated, each value percent-decoded.
	ResourceAttributes map[string]string
}

// tracesPath is where OTLP/HTTP takes spans under a base URL.
const tracesPath = "v1/traces"

// BindVariables reads OpenTelemetry's variables through b, so that a bad
// value stops start-up with the bad settings, reported as they are: the
// variable, its value (a header's masked) and why. Every variable that is
// set is checked, even one that a more specific one overrides.
func BindVariables(b *config.Binder) Variables {
	var v Variables
	base := config.BindVariable(b, "OTEL_EXPORTER_OTLP_ENDPOINT", "", ParseEndpoint)
	v.Endpoint = config.BindVariable(b, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "", ParseEndpoint)
	v.GRPCEndpoint = cmp.Or(v.Endpoint, base)
	if v.Endpoint == "" && base != "" {
		u, _ := url.Parse(base) // ParseEndpoint parsed it
		v.Endpoint = u.JoinPath(tracesPath).String()
	}
	v.Protocol, v.ProtocolVariable = otlpenv.Protocol(b, otlpenv.Traces)
	v.TLS = otlpenv.ClientTLS(b, otlpenv.Traces)
	v.Sampler, v.SamplerArg = bindSamplerVariables(b)
	v.Headers = config.BindVariable(b, "OTEL_EXPORTER_OTLP_HEADERS", nil, parseHeaders)
	if h := config.BindVariable(b, "OTEL_EXPORTER_OTLP_TRACES_HEADERS", nil, parseHeaders); h != nil {
		v.Headers = h
	}
	v.Compression = config.BindVariable(b, "OTEL_EXPORTER_OTLP_COMPRESSION", "", ParseCompression)
	v.Compression = config.BindVariable(b, "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", v.Compression, ParseCompression)
	v.Timeout = config.BindVariable(b, "OTEL_EXPORTER_OTLP_TIMEOUT", 0, parseMilliseconds)
	v.Timeout = config.BindVariable(b, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", v.Timeout, parseMilliseconds)
	v.ServiceName = config.BindVariable(b, "OTEL_SERVICE_NAME", "", config.String)
	v.ResourceAttributes = config.BindVariable(b, "OTEL_RESOURCE_ATTRIBUTES", nil, parseResourceAttributes)
	return v
}

// ParseEndpoint parses the URL spans are posted to: http or https, with a
// host. The exporter posts to the URL's host and path, so a URL with a
// query or a fragment, which it would drop, is refused. The empty string
// is taken as unset. The reason never quotes the URL: it may hold a
// password.
func ParseEndpoint(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Host == "" || u.Opaque != "" {
		return "", errors.New("want an http:// or https:// URL with a host, such as http://localhost:4318/v1/traces")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", errors.New("want a URL without a query or a fragment: OTLP/HTTP posts to the URL's host and path only")
	}
	return s, nil
}

// ParseCompression parses how export requests are compressed: none or
// gzip, the two that every OTLP receiver takes.
func ParseCompression(s string) (string, error) { return config.OneOf("none", "gzip")(s) }

// parseMilliseconds parses a timeout in milliseconds, at least 100 as
// management.opentelemetry.tracing.export.otlp.timeout is.
func parseMilliseconds(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 100 || n > int64(time.Hour/time.Millisecond) {
		return 0, errors.New("want a number of milliseconds from 100 to 3600000")
	}
	return time.Duration(n) * time.Millisecond, nil
}

// HeaderValue returns the parser of the value of the header name,
// management.opentelemetry.tracing.export.otlp.headers.<name>: it refuses a name or a value
// that HTTP does not allow, which the exporter could not send. The reason
// never quotes the value: it is a secret.
func HeaderValue(name string) func(string) (string, error) {
	return func(value string) (string, error) {
		if err := checkHeader(name, value); err != nil {
			return "", err
		}
		return value, nil
	}
}

func checkHeader(name, value string) error {
	if !httpguts.ValidHeaderFieldName(name) {
		return fmt.Errorf("%q is not an HTTP header name (letters, digits and !#$%%&'*+-.^_`|~)", name)
	}
	if !httpguts.ValidHeaderFieldValue(value) {
		return fmt.Errorf("the value of header %s holds a control character, such as a line break, that HTTP does not allow", name)
	}
	return nil
}

// parseHeaders parses OTEL_EXPORTER_OTLP_HEADERS. The reasons name a
// header by its name, never its value.
func parseHeaders(s string) (map[string]string, error) {
	headers, err := parsePairs(s, "header")
	if err != nil {
		return nil, err
	}
	for name, value := range headers {
		if err := checkHeader(name, value); err != nil {
			return nil, err
		}
	}
	return headers, nil
}

// parseResourceAttributes parses OTEL_RESOURCE_ATTRIBUTES.
func parseResourceAttributes(s string) (map[string]string, error) {
	return parsePairs(s, "attribute")
}

// parsePairs parses the form of OTEL_EXPORTER_OTLP_HEADERS and
// OTEL_RESOURCE_ATTRIBUTES, which follows W3C Baggage's: key=value pairs
// separated by commas, the blanks around each key and value dropped, and
// each value percent-decoded, so that a value may hold a comma (%2C) or
// an equals sign (%3D). Empty entries (a trailing comma) are skipped.
// The SDKs skip a malformed pair and log it; here it stops start-up, as
// any bad setting does. what names a pair in the reasons ("header").
func parsePairs(s, what string) (map[string]string, error) {
	pairs := map[string]string{}
	for i, entry := range strings.Split(s, ",") {
		if strings.TrimSpace(entry) == "" {
			continue
		}
		key, value, ok := strings.Cut(entry, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("%s %d of the list is not key=value", what, i+1)
		}
		decoded, err := url.PathUnescape(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("the value of %s %s is not percent-encoded properly (a %% must start %%XX)", what, key)
		}
		pairs[key] = decoded
	}
	return pairs, nil
}
