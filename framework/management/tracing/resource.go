package tracing

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// A span's resource says what made it: which service (service.name, the
// name a tracing backend lists it under), which instance of it, on which
// host, in which process. Every span of the process shares it, and OTLP
// sends it once per batch.

// newResource builds the resource of the service's spans, from lowest
// precedence to highest:
//
//   - what the SDK finds out: host.name, process.pid,
//     process.executable.name, process.runtime.name, .version and
//     .description (the Go toolchain), telemetry.sdk.*; not the process's
//     command line, whose arguments may hold passwords
//     (--app.datasource.password=...), nor its owner;
//   - service.version (the module's version) and service.instance.id, a
//     random UUID made once per start, which tells apart the instances of
//     one service;
//   - OTEL_RESOURCE_ATTRIBUTES;
//   - management.opentelemetry.resource-attributes.*.
//
// service.name is decided apart (see serviceName).
func newResource(opts Options) (*resource.Resource, error) {
	detected, err := resource.New(context.Background(),
		resource.WithHost(),
		resource.WithProcessPID(), resource.WithProcessExecutableName(),
		resource.WithProcessRuntimeName(), resource.WithProcessRuntimeVersion(), resource.WithProcessRuntimeDescription(),
		resource.WithTelemetrySDK(),
	)
	// An error is a detector that failed (no host name): the resource
	// holds what the others found, which is worth sending.
	attrs := ResourceAttributes(opts)
	kvs := make([]attribute.KeyValue, 0, len(attrs))
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		kvs = append(kvs, attribute.String(k, attrs[k]))
	}
	merged, mergeErr := resource.Merge(detected, resource.NewSchemaless(kvs...))
	if mergeErr != nil {
		return detected, mergeErr // cannot be: the second resource has no schema URL
	}
	return merged, err
}

// ResourceAttributes are the attributes of the service's resource that
// the settings and the variables give (all but the SDK's detections in
// newResource's list): service.name, service.version,
// service.instance.id, OTEL_RESOURCE_ATTRIBUTES and
// management.opentelemetry.resource-attributes.*. The OTLP metrics
// starter's exports carry them too, as Spring Boot gives its traces and
// its OTLP meter registry the same OpenTelemetryResourceAttributes.
func ResourceAttributes(opts Options) map[string]string {
	attrs := map[string]string{string(semconv.ServiceInstanceIDKey): cmp.Or(opts.InstanceID, uuid.NewString())}
	if opts.Version != "" {
		attrs[string(semconv.ServiceVersionKey)] = opts.Version
	}
	maps.Copy(attrs, opts.Variables.ResourceAttributes)
	maps.Copy(attrs, opts.ResourceAttributes)
	attrs[string(semconv.ServiceNameKey)] = serviceName(opts)
	return attrs
}

// serviceName is the service.name of the spans, the first that is set of:
//
//  1. management.opentelemetry.resource-attributes.service.name, as in
//     Spring Boot, where that map overrides everything;
//  2. OTEL_SERVICE_NAME: OpenTelemetry's specification has it override
//     OTEL_RESOURCE_ATTRIBUTES, and an operator who sets it for a
//     deployment means it, so it overrides app.application.name too;
//  3. app.application.name, when it is set;
//  4. service.name in OTEL_RESOURCE_ATTRIBUTES;
//  5. the service's own name (boot.Service.Name).
//
// Spring Boot 3.5 puts 4 before 3 (spring.application.name is its
// fallback); here a setting the service was given explicitly wins over
// an OTEL_* variable, as everywhere else in tracing.
func serviceName(opts Options) string {
	key := string(semconv.ServiceNameKey)
	return cmp.Or(opts.ResourceAttributes[key], opts.Variables.ServiceName, opts.Service,
		opts.Variables.ResourceAttributes[key], opts.DefaultService)
}
