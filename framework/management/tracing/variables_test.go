package tracing

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/config"
)

// bindVariables reads OpenTelemetry's variables from env, and returns
// what they say and the failures' messages.
func bindVariables(t *testing.T, env map[string]string) (Variables, []string) {
	t.Helper()
	e, err := config.Load(config.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	b := config.NewBinder(e)
	v := BindVariables(b)
	var msgs []string
	if err := b.Err(); err != nil {
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			var se *config.SettingError
			if !errors.As(e, &se) {
				t.Fatalf("%v is not a *config.SettingError", e)
			}
			msgs = append(msgs, se.Error())
		}
	}
	return v, msgs
}

// The variables are read as the OpenTelemetry specification says: a base
// endpoint gets /v1/traces appended, a signal's own is used as it is and
// wins, as do its headers, compression and timeout; pairs are
// percent-decoded; an empty variable is unset.
func TestBindVariables(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		want Variables
	}{
		{"nothing", nil, Variables{}},
		{"empty is unset", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "", "OTEL_SERVICE_NAME": "", "OTEL_EXPORTER_OTLP_HEADERS": ""}, Variables{}},
		{"base endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"},
			Variables{Endpoint: "http://collector:4318/v1/traces", GRPCEndpoint: "http://collector:4318"}},
		{"base endpoint with a path", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://gateway/otlp/"},
			Variables{Endpoint: "https://gateway/otlp/v1/traces", GRPCEndpoint: "https://gateway/otlp/"}},
		{"the signal's own endpoint, as it is", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
			"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:9411/spans"}, Variables{Endpoint: "http://traces:9411/spans", GRPCEndpoint: "http://traces:9411/spans"}},
		{"the protocol, the signal's winning", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "GRPC"},
			Variables{Protocol: "grpc", ProtocolVariable: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"}},
		{"the general protocol", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"},
			Variables{Protocol: "http/protobuf", ProtocolVariable: "OTEL_EXPORTER_OTLP_PROTOCOL"}},
		{"a ratio sampler with its argument", map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"},
			Variables{Sampler: "parent-based-trace-id-ratio", SamplerArg: 0.25}},
		{"a ratio sampler without one samples every trace", map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio"},
			Variables{Sampler: "trace-id-ratio", SamplerArg: 1}},
		{"the argument of a sampler that takes none is ignored", map[string]string{"OTEL_TRACES_SAMPLER": "always_off", "OTEL_TRACES_SAMPLER_ARG": "lots"},
			Variables{Sampler: "always-off"}},
		{"an argument without a sampler is ignored", map[string]string{"OTEL_TRACES_SAMPLER_ARG": "0.5"}, Variables{}},
		{"everything", map[string]string{
			"OTEL_EXPORTER_OTLP_HEADERS":     " authorization = Basic%20dXNlcjpwdw%3D%3D , x-tenant=a%2Cb ,",
			"OTEL_EXPORTER_OTLP_COMPRESSION": "GZIP",
			"OTEL_EXPORTER_OTLP_TIMEOUT":     "2500",
			"OTEL_SERVICE_NAME":              "checkout",
			"OTEL_RESOURCE_ATTRIBUTES":       "deployment.environment=prod,service.namespace=shop,note=a%3Db%20c+d",
		}, Variables{
			Headers:     map[string]string{"authorization": "Basic dXNlcjpwdw==", "x-tenant": "a,b"},
			Compression: "gzip", Timeout: 2500 * time.Millisecond, ServiceName: "checkout",
			ResourceAttributes: map[string]string{"deployment.environment": "prod", "service.namespace": "shop", "note": "a=b c+d"},
		}},
		{"the signal's own win", map[string]string{
			"OTEL_EXPORTER_OTLP_HEADERS": "a=1,b=2", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "c=3",
			"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "none",
			"OTEL_EXPORTER_OTLP_TIMEOUT": "1000", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "3000",
		}, Variables{Headers: map[string]string{"c": "3"}, Compression: "none", Timeout: 3 * time.Second}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := bindVariables(t, tt.env)
			if len(errs) > 0 {
				t.Fatalf("failures: %q", errs)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// A bad value stops start-up, naming the variable, its value (a header's
// masked) and why.
func TestBindVariablesRefusals(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"},
			`setting OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318" from environment variable OTEL_EXPORTER_OTLP_ENDPOINT is invalid: want an http:// or https:// URL with a host, such as http://localhost:4318/v1/traces`},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "grpc://user:hunter2@collector:4317"},
			`setting OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="grpc://user:******@collector:4317" from environment variable OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is invalid: want an http:// or https:// URL with a host`},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318?tenant=a"},
			`is invalid: want a URL without a query or a fragment: OTLP/HTTP posts to the URL's host and path only`},
		{map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "brotli"},
			`setting OTEL_EXPORTER_OTLP_COMPRESSION="brotli" from environment variable OTEL_EXPORTER_OTLP_COMPRESSION is invalid: want one of none, gzip (in any case)`},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "10s"},
			`setting OTEL_EXPORTER_OTLP_TRACES_TIMEOUT="10s" from environment variable OTEL_EXPORTER_OTLP_TRACES_TIMEOUT is invalid: want a number of milliseconds from 100 to 3600000`},
		{map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "x-tenant=a,Bearer hunter2"},
			`setting OTEL_EXPORTER_OTLP_HEADERS="******" from environment variable OTEL_EXPORTER_OTLP_HEADERS is invalid: header 2 of the list is not key=value`},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "x tenant=hunter2"},
			`is invalid: "x tenant" is not an HTTP header name`},
		{map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=hunter2%0d%0aX-Evil: 1"},
			`is invalid: the value of header authorization holds a control character`},
		{map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=hunter2%zz"},
			`is invalid: the value of header authorization is not percent-encoded properly`},
		{map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
			`setting OTEL_EXPORTER_OTLP_PROTOCOL="http/json" from environment variable OTEL_EXPORTER_OTLP_PROTOCOL is invalid: http/json is not sent here: want http/protobuf`},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "udp"},
			`setting OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="udp" from environment variable OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is invalid: want http/protobuf or grpc`},
		{map[string]string{"OTEL_TRACES_SAMPLER": "jaeger_remote"},
			`setting OTEL_TRACES_SAMPLER="jaeger_remote" from environment variable OTEL_TRACES_SAMPLER is invalid: jaeger_remote is a sampler that OpenTelemetry's SDKs may offer, but not this one: want always-on, always-off, trace-id-ratio`},
		{map[string]string{"OTEL_TRACES_SAMPLER": "sometimes"},
			`is invalid: want one of always-on, always-off, trace-id-ratio, parent-based-always-on, parent-based-always-off, parent-based-trace-id-ratio (in any case)`},
		{map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1.5"},
			`setting OTEL_TRACES_SAMPLER_ARG="1.5" from environment variable OTEL_TRACES_SAMPLER_ARG is invalid: want a number from 0 to 1`},
		{map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "/no/such/ca.pem"},
			`setting OTEL_EXPORTER_OTLP_CERTIFICATE="/no/such/ca.pem" from environment variable OTEL_EXPORTER_OTLP_CERTIFICATE is invalid: the file cannot be read: no such file or directory`},
		{map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "deployment.environment"},
			`setting OTEL_RESOURCE_ATTRIBUTES="deployment.environment" from environment variable OTEL_RESOURCE_ATTRIBUTES is invalid: attribute 1 of the list is not key=value`},
	} {
		_, errs := bindVariables(t, tt.env)
		if len(errs) != 1 || !strings.Contains(errs[0], tt.want) {
			t.Errorf("%v:\ngot  %q\nwant one failure with %s", tt.env, errs, tt.want)
		}
		for _, e := range errs {
			if strings.Contains(e, "hunter2") {
				t.Errorf("%v: the failure shows a secret: %s", tt.env, e)
			}
		}
	}
}

// Every variable that is set is checked, even one that a more specific
// one overrides, and every failure is reported at once.
func TestBindVariablesReportsEveryFailure(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces",
		"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "gzip"}
	v, errs := bindVariables(t, env)
	if len(errs) != 2 || !strings.Contains(errs[0], "OTEL_EXPORTER_OTLP_ENDPOINT") || !strings.Contains(errs[1], "OTEL_EXPORTER_OTLP_COMPRESSION") {
		t.Errorf("failures %q, want the base endpoint's and the base compression's", errs)
	}
	if v.Endpoint != env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] || v.Compression != "gzip" {
		t.Errorf("%+v, want the good values read", v)
	}
}

// management.opentelemetry.tracing.export.otlp.headers.<name> takes names and values that
// HTTP allows, and its reasons never show the value.
func TestHeaderValue(t *testing.T) {
	if v, err := HeaderValue("X-Api-Key")("s3cret"); v != "s3cret" || err != nil {
		t.Errorf("a good header: %q %v", v, err)
	}
	for name, value := range map[string]string{"x tenant": "hunter2", "": "hunter2", "x-tenant": "hunter2\r\nX-Evil: 1"} {
		_, err := HeaderValue(name)(value)
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("header %q: %v, want a refusal that does not show the value", name, err)
		}
	}
}

func TestParseEndpoint(t *testing.T) {
	for in, ok := range map[string]bool{
		"": true, "http://localhost:4318/v1/traces": true, "HTTPS://collector": true, "http://u:p@collector:4318/v1/traces": true,
		"localhost:4318": false, "ftp://collector": false, "http://": false, "http:collector": false,
		"http://collector/v1/traces#x": false, "http://collector/v1/traces?": false, "http://[::1": false,
	} {
		got, err := ParseEndpoint(in)
		if (err == nil) != ok || (ok && got != in) {
			t.Errorf("ParseEndpoint(%q) = %q, %v; want ok=%v", in, got, err, ok)
		}
	}
}
