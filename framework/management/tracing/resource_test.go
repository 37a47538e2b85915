package tracing

import "testing"

// service.name is the first set of: the resource-attributes setting,
// OTEL_SERVICE_NAME, app.application.name, OTEL_RESOURCE_ATTRIBUTES'
// service.name, the service's own name.
func TestServiceNamePrecedence(t *testing.T) {
	all := Options{
		ResourceAttributes: map[string]string{"service.name": "setting-attribute"},
		Variables: Variables{ServiceName: "otel-service-name",
			ResourceAttributes: map[string]string{"service.name": "otel-attribute"}},
		Service:        "app-name",
		DefaultService: "greeter",
	}
	steps := []struct {
		drop func(*Options)
		want string
	}{
		{func(*Options) {}, "setting-attribute"},
		{func(o *Options) { o.ResourceAttributes = nil }, "otel-service-name"},
		{func(o *Options) { o.Variables.ServiceName = "" }, "app-name"},
		{func(o *Options) { o.Service = "" }, "otel-attribute"},
		{func(o *Options) { o.Variables.ResourceAttributes = nil }, "greeter"},
	}
	opts := all
	for _, s := range steps {
		s.drop(&opts)
		if got := serviceName(opts); got != s.want {
			t.Errorf("service.name %q, want %q", got, s.want)
		}
	}
}

// The resource-attributes setting overrides OTEL_RESOURCE_ATTRIBUTES,
// which overrides what the SDK finds out; the rest of each is kept.
func TestResourceAttributesPrecedence(t *testing.T) {
	res, err := newResource(Options{
		DefaultService: "greeter", Version: "v1.0.0",
		ResourceAttributes: map[string]string{"deployment.environment": "prod", "host.name": "from-setting"},
		Variables: Variables{ResourceAttributes: map[string]string{"deployment.environment": "dev", "service.namespace": "shop",
			"service.version": "v9", "process.runtime.name": "from-variable"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range res.Attributes() {
		got[string(kv.Key)] = kv.Value.String()
	}
	want := map[string]string{"deployment.environment": "prod", "host.name": "from-setting", "service.namespace": "shop",
		"service.version": "v9", "process.runtime.name": "from-variable", "service.name": "greeter", "telemetry.sdk.language": "go"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s=%q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if got["process.pid"] == "" || got["service.instance.id"] == "" {
		t.Errorf("process.pid %q, service.instance.id %q: want both", got["process.pid"], got["service.instance.id"])
	}
}
