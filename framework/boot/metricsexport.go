package boot

import (
	"runtime/debug"

	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/tracing"
)

// OTLPMetricsStarter is the import path of the starter that pushes the
// meters over OTLP/HTTP (management.otlp.metrics.export.*).
const OTLPMetricsStarter = "github.com/springport/greeter/framework/starter/otlpmetrics"

// MeterSnapshots returns what reads every meter that /actuator/prometheus
// shows, named as Micrometer names them (metrics.HTTP.Snapshot), at any
// time after Start: for a starter that pushes them to a backend, as
// Micrometer's push registries do.
func (a *App) MeterSnapshots() func() []metrics.Snapshot {
	a.mustBeStarting("MeterSnapshots")
	return a.metrics.Snapshot
}

// TelemetryResource returns the attributes that describe the service to
// an OpenTelemetry backend, the same as its spans' (service.name,
// service.version, service.instance.id, OTEL_RESOURCE_ATTRIBUTES,
// management.opentelemetry.resource-attributes.*; see
// tracing.ResourceAttributes): for a starter that pushes the meters over
// OTLP, so that a backend finds the meters and the spans of one instance
// under one resource.
func (a *App) TelemetryResource() map[string]string {
	a.mustBeStarting("TelemetryResource")
	opts := a.settings.management.tracing
	buildInfo, _ := debug.ReadBuildInfo()
	opts.DefaultService, opts.Version = a.name, moduleVersion(buildInfo)
	return tracing.ResourceAttributes(opts)
}
