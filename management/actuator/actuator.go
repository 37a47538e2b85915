// Package actuator serves the management endpoints under /actuator, in
// Spring Boot Actuator's shapes, so that the tools operators point at a
// Spring service (probes, scrapers, scripts) work as they are: the index of
// links, health and its probes, info, env, beans, mappings, prometheus and
// loggers, one file each. Only exposed endpoints get routes, so one that is not
// exposed is a plain 404, as in Spring.
package actuator

import (
	"net/http"
	"runtime/debug"
	"slices"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
)

// Base is the path under which the endpoints live.
const Base = "/actuator"

// Endpoint IDs.
const (
	Health     = "health"
	Info       = "info"
	Env        = "env"
	Beans      = "beans"
	Mappings   = "mappings"
	Prometheus = "prometheus"
	Loggers    = "loggers"
)

// Exposure decides which endpoints are reachable over HTTP, from
// management.endpoints.web.exposure.include and .exclude: "*" includes
// everything, and an exclusion beats an inclusion.
type Exposure struct {
	Include []string
	Exclude []string
}

// IDs are the endpoints there are, in the order the index lists them.
var IDs = []string{Health, Info, Env, Beans, Mappings, Prometheus, Loggers}

// Unknown returns the ids in Include and Exclude that name no endpoint,
// such as a misspelt "healt", which would otherwise go unnoticed while
// the endpoint it meant stays hidden (or exposed).
func (e Exposure) Unknown() []string {
	var unknown []string
	for _, id := range slices.Concat(e.Include, e.Exclude) {
		if id != "*" && !slices.Contains(IDs, id) && !slices.Contains(unknown, id) {
			unknown = append(unknown, id)
		}
	}
	return unknown
}

// Exposes reports whether the endpoint id is exposed.
func (e Exposure) Exposes(id string) bool {
	if slices.Contains(e.Exclude, id) || slices.Contains(e.Exclude, "*") {
		return false
	}
	return slices.Contains(e.Include, id) || slices.Contains(e.Include, "*")
}

// Options configure the endpoints.
type Options struct {
	Exposure Exposure
	// Env is the configuration that /actuator/env shows.
	Env *config.Environment
	// Bound are the keys the application binds: /actuator/env lists the
	// environment variables that set them (see
	// config.Environment.PropertySources).
	Bound []string
	// ShowValues is management.endpoint.env.show-values: "always" shows
	// values, anything else masks them.
	ShowValues string
	// Components lists the components that /actuator/beans shows.
	Components func() []component.Info
	// Mappings lists the routes that /actuator/mappings shows.
	Mappings *dispatch.Catalog
	// Prometheus serves /actuator/prometheus, in the representations
	// that PrometheusTypes lists.
	Prometheus      http.Handler
	PrometheusTypes []string
	// Probes holds the readiness and the indicators that health reports.
	Probes *Probes
	// HealthDisplay says how much /actuator/health shows.
	HealthDisplay HealthDisplay
	// Loggers are the loggers that /actuator/loggers lists and sets.
	Loggers *logging.Registry
	// Build is the binary's build information that /actuator/info shows;
	// nil shows none.
	Build *debug.BuildInfo
}

// jsonOnly is what actuator endpoints produce.
var jsonOnly = []string{"application/json"}

// Routes returns the routes of the exposed endpoints.
func Routes(opts Options) []dispatch.Route {
	var ids []string
	var routes []dispatch.Route
	add := func(id string, rs ...dispatch.Route) {
		if opts.Exposure.Exposes(id) {
			ids = append(ids, id)
			routes = append(routes, rs...)
		}
	}
	probes := opts.Probes
	if probes == nil {
		probes = NewProbes()
	}
	add(Health,
		dispatch.Route{Method: "GET", Pattern: Base + "/health", Produces: jsonOnly, Errors: []int{http.StatusServiceUnavailable}, Handler: dispatch.Returns(handleHealth(probes, opts.HealthDisplay))},
		dispatch.Route{Method: "GET", Pattern: Base + "/health/liveness", Produces: jsonOnly, Handler: dispatch.Returns(handleLiveness)},
		dispatch.Route{Method: "GET", Pattern: Base + "/health/readiness", Produces: jsonOnly, Errors: []int{http.StatusServiceUnavailable}, Handler: dispatch.Returns(handleReadiness(probes))},
	)
	add(Info, dispatch.Route{Method: "GET", Pattern: Base + "/info", Produces: jsonOnly, Handler: dispatch.Returns(handleInfo(opts.Build))})
	add(Env,
		dispatch.Route{Method: "GET", Pattern: Base + "/env", Produces: jsonOnly, Handler: dispatch.Returns(handleEnv(opts))},
		dispatch.Route{Method: "GET", Pattern: Base + "/env/{name}", Produces: jsonOnly, Errors: []int{http.StatusNotFound}, Inputs: []dispatch.Input{envName}, Handler: dispatch.Returns(handleEnvProperty(opts))},
	)
	if opts.Components != nil {
		add(Beans, dispatch.Route{Method: "GET", Pattern: Base + "/beans", Produces: jsonOnly, Handler: dispatch.Returns(handleBeans(opts.Components))})
	}
	if opts.Mappings != nil {
		add(Mappings, dispatch.Route{Method: "GET", Pattern: Base + "/mappings", Produces: jsonOnly, Handler: dispatch.Returns(handleMappings(opts.Mappings))})
	}
	if opts.Prometheus != nil {
		add(Prometheus, dispatch.Route{Method: "GET", Pattern: Base + "/prometheus", Produces: opts.PrometheusTypes, Handler: dispatch.Plain(opts.Prometheus)})
	}
	if opts.Loggers != nil {
		add(Loggers, loggersRoutes(opts.Loggers)...)
	}
	routes = append(routes, dispatch.Route{Method: "GET", Pattern: Base, Produces: jsonOnly, Handler: dispatch.Returns(handleIndex(ids))})
	return routes
}
