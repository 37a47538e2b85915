// Package otlpmetrics is the starter that pushes a service's meters to an
// OpenTelemetry collector over OTLP/HTTP, as Spring Boot's
// micrometer-registry-otlp (OtlpMetricsExportAutoConfiguration) does:
// every management.otlp.metrics.export.step (1m), to
// management.otlp.metrics.export.url (http://localhost:4318/v1/metrics),
// the meters that /actuator/prometheus shows, under the names, units and
// tags Micrometer's OTLP registry gives them, and once more when the
// service stops (framework/management/metrics/otlp).
// management.otlp.metrics.export.enabled=false starts nothing.
//
// A service that does not name it links neither the exporter nor
// protobuf for it, and one given management.otlp.metrics.export.* is told
// at start-up which starter reads them.
package otlpmetrics

import (
	"context"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/metrics/otlp"
	"github.com/springport/greeter/framework/management/tracing"
)

// logger is the framework's logger <service>.metrics.
const logger = "metrics"

// Starter pushes the meters over OTLP/HTTP.
var Starter = boot.Starter{
	Name: "github.com/springport/greeter/framework/starter/otlpmetrics",
	Bind: func(b *config.Binder) func(context.Context, *boot.App) error {
		s := bind(b)
		if !s.enabled {
			return nil
		}
		return func(_ context.Context, a *boot.App) error {
			// boot provides the registry that /actuator/prometheus serves,
			// and the tracing settings: the meters are pushed under the
			// spans' resource (service.name, service.instance.id...), as
			// Spring Boot gives its traces and its OTLP registry the same
			// resource attributes.
			registry, _ := boot.Provided[*metrics.HTTP](a)
			spans, _ := boot.Provided[tracing.Options](a)
			o := s.opts
			o.Read, o.Resource, o.Logger = registry.Snapshot, tracing.ResourceAttributes(spans), a.Logger(logger)
			e := otlp.Start(o)
			// The starters' closers run last, after the requests have
			// been answered, so the last push counts them all.
			a.OnClose(e.Shutdown)
			return nil
		}
	},
}
