package otlpmetrics

import (
	"errors"
	"maps"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/metrics/otlp"
	"github.com/springport/greeter/framework/management/otlpenv"
	"github.com/springport/greeter/framework/management/tracing"
)

// The settings of Spring Boot 4's OtlpMetricsProperties (and of 3.5,
// which named them alike), management.otlp.metrics.export.*.
const (
	prefix        = "management.otlp.metrics.export."
	headersPrefix = prefix + "headers."
	urlKey        = prefix + "url"
	defaultURL    = "http://localhost:4318/v1/metrics"
	metricsPath   = "/v1/metrics"
)

// settings are the bound settings: whether to push, and how.
type settings struct {
	enabled bool
	opts    otlp.Options
}

// bind reads the settings, with OpenTelemetry's variables standing in
// for those that are not set, as Micrometer's OtlpConfig reads them
// (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_HEADERS and _METRICS_HEADERS,
// OTEL_METRIC_EXPORT_INTERVAL): a setting the service was given wins.
func bind(b *config.Binder) settings {
	variables := bindVariables(b)
	b.Describe(headersPrefix+"<name>", "the HTTP header <name> sent with every metrics export ("+headersPrefix+
		"authorization: Authorization), a secret, masked; none set: the pairs name=value of OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_METRICS_HEADERS")
	headers := tracing.BindHeaders(b, headersPrefix, "metrics export")
	if len(headers) == 0 {
		headers = variables.headers
	}
	s := settings{
		enabled: config.Bind(b, prefix+"enabled", true, config.Bool, "push the meters to the OTLP collector at url every step (the OTLP metrics starter)"),
		opts: otlp.Options{
			URL:     config.Bind(b, urlKey, variables.url, parseURL, "the OTLP/HTTP URL the meters are pushed to (unset: OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/metrics, or "+defaultURL+")"),
			Headers: headers,
			Step:    config.Bind(b, prefix+"step", variables.step, config.DurationAtLeast(time.Second), "how often the meters are pushed, at least 1s (unset: OTEL_METRIC_EXPORT_INTERVAL, in ms, or 1m)"),
			Gzip:    config.Bind(b, prefix+"compression-mode", "none", config.OneOf("none", "gzip"), "none or gzip: how each export is compressed") == "gzip",
			ConnectTimeout: config.Bind(b, prefix+"connect-timeout", time.Second, config.DurationAtLeast(time.Millisecond),
				"bound on opening a connection to the collector"),
			ReadTimeout: config.Bind(b, prefix+"read-timeout", 10*time.Second, config.DurationAtLeast(time.Millisecond),
				"bound on the collector's answer; with connect-timeout, on each export and its retries, and on the last one at shutdown"),
			BaseTimeUnit: config.Bind(b, prefix+"base-time-unit", otlp.Milliseconds, parseTimeUnit, "the unit durations are pushed in (a timer's, a time gauge's): nanoseconds to days"),
		},
	}
	config.Bind(b, prefix+"aggregation-temporality", "cumulative", parseTemporality, "cumulative: each export holds the counts since start (delta is not supported)")
	s.opts.TLS = otlpenv.ClientTLS(b, otlpenv.Metrics)
	if s.enabled {
		refuseGRPC(b)
		otlpenv.RefusePlainHTTP(b, otlpenv.Metrics, s.opts.URL)
	}
	return s
}

// refuseGRPC stops start-up when OpenTelemetry's protocol variable asks
// for the meters over gRPC: this starter posts OTLP/HTTP only, and would
// post it, unasked, to what is likely a collector's gRPC port (4317),
// which cannot answer it. OTEL_EXPORTER_OTLP_METRICS_PROTOCOL speaks of
// the meters alone, and is refused whatever else is set; the general
// OTEL_EXPORTER_OTLP_PROTOCOL may be set for the spans' gRPC starter, and
// is refused only when the URL is not set: a setting the service was
// given wins over the variables.
func refuseGRPC(b *config.Binder) {
	protocol, variable := otlpenv.Protocol(b, otlpenv.Metrics)
	if protocol != otlpenv.GRPC || variable == otlpenv.Variable("", "PROTOCOL") && b.IsSet(urlKey) {
		return
	}
	b.RefuseVariable(variable, "asks for the meters over gRPC, which no exporter here sends: the OTLP metrics starter pushes OTLP/HTTP (http/protobuf). Set "+
		otlpenv.Variable(otlpenv.Metrics, "PROTOCOL")+"=http/protobuf, or "+urlKey+" to the collector's OTLP/HTTP endpoint, such as "+defaultURL)
}

// variables are what OpenTelemetry's variables say, as defaults.
type variables struct {
	url     string
	headers map[string]string
	step    time.Duration
}

// bindVariables reads OpenTelemetry's variables as Micrometer's OtlpConfig
// does. OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS are
// checked, and a bad one reported, by the tracing settings, which read
// them too; here a bad one is only left aside.
func bindVariables(b *config.Binder) variables {
	v := variables{url: defaultURL, step: time.Minute}
	endpoint := config.BindVariable(b, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "", parseURL)
	if endpoint == "" {
		endpoint, _ = parseURL(config.BindVariable(b, "OTEL_EXPORTER_OTLP_ENDPOINT", "", config.String))
	}
	if endpoint != "" {
		// Micrometer appends the metrics' path to either variable unless
		// it ends with it already.
		if !strings.HasSuffix(endpoint, metricsPath) {
			endpoint = strings.TrimSuffix(endpoint, "/") + metricsPath
		}
		v.url = endpoint
	}
	common, _ := tracing.ParseHeaders(config.BindVariable(b, "OTEL_EXPORTER_OTLP_HEADERS", "", config.String))
	own := config.BindVariable(b, "OTEL_EXPORTER_OTLP_METRICS_HEADERS", nil, tracing.ParseHeaders)
	if len(common)+len(own) > 0 {
		// A header in both is the metrics' one, as Micrometer's.
		v.headers = map[string]string{}
		maps.Copy(v.headers, common)
		maps.Copy(v.headers, own)
	}
	v.step = config.BindVariable(b, "OTEL_METRIC_EXPORT_INTERVAL", v.step, parseMilliseconds)
	return v
}

// parseURL parses the URL the meters are posted to: http or https, with
// a host, without a query or a fragment (OTLP/HTTP posts to the URL's
// host and path). The reason never quotes the URL: it may hold a
// password.
func parseURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Host == "" || u.Opaque != "" {
		return "", errors.New("want an http:// or https:// URL with a host, such as " + defaultURL)
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", errors.New("want a URL without a query or a fragment: OTLP/HTTP posts to the URL's host and path only")
	}
	return s, nil
}

// parseMilliseconds parses OTEL_METRIC_EXPORT_INTERVAL: milliseconds, at
// least 1000, as step is at least 1s.
func parseMilliseconds(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1000 || n > int64(24*time.Hour/time.Millisecond) {
		return 0, errors.New("want a number of milliseconds from 1000 to 86400000")
	}
	return time.Duration(n) * time.Millisecond, nil
}

// timeUnits are Java's TimeUnit values, as Spring binds base-time-unit
// (MILLISECONDS, or milliseconds).
var timeUnits = map[string]time.Duration{
	"nanoseconds": time.Nanosecond, "microseconds": time.Microsecond, "milliseconds": time.Millisecond,
	"seconds": time.Second, "minutes": time.Minute, "hours": time.Hour, "days": 24 * time.Hour,
}

func parseTimeUnit(s string) (otlp.TimeUnit, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if d, ok := timeUnits[name]; ok {
		return otlp.TimeUnit{Length: d, Name: name}, nil
	}
	return otlp.TimeUnit{}, errors.New("want one of nanoseconds, microseconds, milliseconds, seconds, minutes, hours, days")
}

// parseTemporality takes cumulative, the default of Micrometer and of
// OpenTelemetry: delta, which some backends want, is not done here, and
// refusing it says so rather than sending what the backend would
// misread.
func parseTemporality(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "cumulative":
		return "cumulative", nil
	case "delta":
		return "", errors.New("delta is not supported by this starter: the meters are pushed cumulative, each export holding the counts since start")
	}
	return "", errors.New("want cumulative")
}
