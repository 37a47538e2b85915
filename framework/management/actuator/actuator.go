// Package actuator serves a service's management endpoints, the HTTP
// endpoints through which operators and their tools watch and manage a
// running instance: whether it is up and ready for traffic, its settings,
// its metrics, its loggers' levels. They live under /actuator (or
// management.endpoints.web.base-path), in Spring Boot Actuator's shapes,
// so that the tools operators point at a Spring service (probes,
// scrapers, scripts, consoles) work as they are: the index of links,
// health and its groups, info, env, configprops, beans, mappings,
// prometheus, metrics, the diagnostics (threaddump, heapdump,
// cpuprofile), httpexchanges, loggers and shutdown, one file each. Only exposed endpoints get routes,
// so one that is not exposed is a plain 404, as in Spring.
package actuator

import (
	"cmp"
	"net/http"
	"runtime/debug"
	"slices"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
)

// DefaultBasePath is where the endpoints live unless
// management.endpoints.web.base-path says otherwise.
const DefaultBasePath = "/actuator"

// Endpoint IDs, as exposure settings name them.
const (
	Health        = "health"
	Info          = "info"
	Env           = "env"
	ConfigProps   = "configprops"
	Beans         = "beans"
	Mappings      = "mappings"
	Prometheus    = "prometheus"
	Metrics       = "metrics"
	ThreadDump    = "threaddump"
	HeapDump      = "heapdump"
	CPUProfile    = "cpuprofile" // Go's own: Spring has no CPU profile endpoint
	HTTPExchanges = "httpexchanges"
	Shutdown      = "shutdown"
	Loggers       = "loggers"
)

// Exposure decides which endpoints are reachable over HTTP, from
// management.endpoints.web.exposure.include and .exclude: "*" includes
// everything, and an exclusion beats an inclusion.
type Exposure struct {
	Include []string
	Exclude []string
}

// IDs are the endpoints there are, in the order the index lists them.
var IDs = []string{Health, Info, Env, ConfigProps, Beans, Mappings, Metrics, Prometheus, Loggers, ThreadDump, HeapDump, CPUProfile, HTTPExchanges, Shutdown}

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
	// BasePath is the path under which the endpoints live, without a
	// trailing slash: DefaultBasePath when empty; "/" puts them at the
	// root, where, as in Spring, there is no index, so that it cannot
	// hide a route of the service.
	BasePath string
	// Context names the one application context of /actuator/beans,
	// configprops and mappings: the service's name, as Spring names its
	// context after spring.application.name; "application" when empty,
	// Spring's default.
	Context string
	// Env is the configuration that /actuator/env shows.
	Env *config.Environment
	// Bound are the keys the application binds: /actuator/env lists the
	// environment variables that set them (see
	// config.Environment.PropertySources).
	Bound []string
	// ShowValues is management.endpoint.env.show-values: "always" shows
	// values, anything else masks them.
	ShowValues string
	// ConfigProps is what /actuator/configprops needs besides Env and
	// Bound.
	ConfigProps ConfigPropsOptions
	// Components lists the components that /actuator/beans shows.
	Components func() []component.Info
	// Mappings lists the routes that /actuator/mappings shows.
	Mappings *dispatch.Catalog
	// Prometheus serves /actuator/prometheus, in the representations
	// that PrometheusTypes lists.
	Prometheus      http.Handler
	PrometheusTypes []string
	// Metrics serves /actuator/metrics.
	Metrics MeterRegistry
	// Probes holds the readiness and the indicators that health reports.
	Probes *Probes
	// HealthDisplay says how much /actuator/health shows.
	HealthDisplay HealthDisplay
	// DiskSpace is what the diskSpace health component watches.
	DiskSpace DiskSpace
	// HealthGroups are the user's health groups, by name, each with the
	// components it includes (management.endpoint.health.group.<name>.include);
	// see CheckHealthGroups.
	HealthGroups map[string][]string
	// Loggers are the loggers that /actuator/loggers lists and sets.
	Loggers *logging.Registry
	// InfoEnv is management.info.env.enabled: /actuator/info shows the
	// info.* settings of Env too.
	InfoEnv bool
	// Build is the binary's build information that /actuator/info shows;
	// nil shows none.
	Build *debug.BuildInfo
	// MaxCPUProfile bounds /actuator/cpuprofile?seconds=; zero is
	// maxCPUProfile. A profile must be sent before server.write-timeout.
	MaxCPUProfile time.Duration
	// Exchanges are the recent requests /actuator/httpexchanges shows;
	// nil when they are not recorded, and then there is no endpoint.
	Exchanges *Exchanges
	// Access is each endpoint's access, by id, as Spring Boot 3.5's
	// management.endpoint.<id>.access resolves it: "none" leaves the
	// endpoint out (404, and not in the index); "read-only" keeps its GET
	// operations only (POST /actuator/loggers/{name} is then 405,
	// POST /actuator/shutdown 404); "unrestricted" keeps all. An id
	// missing is DefaultAccess's.
	Access map[string]string
	// Shutdown begins the graceful shutdown that SIGTERM begins; nil
	// leaves the endpoint out.
	Shutdown func()
	// SSL is what the ssl health component and /actuator/info's ssl
	// section report (ssl.go).
	SSL SSL
}

// jsonTypes are what the JSON endpoints produce, Spring's actuator types
// first, so that a client with no preference gets the current version.
var jsonTypes = []string{actuatorV3, actuatorV2, "application/json"}

// Spring's actuator media types, by the version of the shapes.
const (
	actuatorV3 = "application/vnd.spring-boot.actuator.v3+json"
	actuatorV2 = "application/vnd.spring-boot.actuator.v2+json"
)

// Routes returns the routes of the exposed endpoints.
func Routes(opts Options) []dispatch.Route {
	base := cmp.Or(opts.BasePath, DefaultBasePath)
	if base == "/" {
		base = ""
	}
	// Each endpoint, in the index's order; one whose source the options
	// leave nil (no components, no exchanges recorded...) is left out.
	get := func(pattern string, handler dispatch.Handler) dispatch.Route {
		return dispatch.Route{Method: "GET", Pattern: base + pattern, Produces: jsonTypes, Handler: handler}
	}
	endpoints := []struct {
		id     string
		given  bool
		routes func() []dispatch.Route
	}{
		{Health, true, func() []dispatch.Route { return healthRoutes(base, opts) }},
		{Info, true, func() []dispatch.Route {
			var env *config.Environment
			if opts.InfoEnv {
				env = opts.Env
			}
			return []dispatch.Route{get("/info", dispatch.Returns(opts.SSL.withSSL(handleInfo(opts.Build, env))))}
		}},
		{Env, true, func() []dispatch.Route {
			property := get("/env/{toMatch}", dispatch.Returns(handleEnvProperty(opts)))
			property.Errors, property.Inputs = []int{http.StatusNotFound}, []dispatch.Input{envName}
			return []dispatch.Route{get("/env", dispatch.Returns(handleEnv(opts))), property}
		}},
		{ConfigProps, true, func() []dispatch.Route { return configPropsRoutes(base, opts) }},
		{Beans, opts.Components != nil, func() []dispatch.Route {
			return []dispatch.Route{get("/beans", dispatch.Returns(handleBeans(opts.context(), opts.Components)))}
		}},
		{Mappings, opts.Mappings != nil, func() []dispatch.Route {
			return []dispatch.Route{get("/mappings", dispatch.Returns(handleMappings(opts.context(), opts.Mappings)))}
		}},
		{Metrics, opts.Metrics != nil, func() []dispatch.Route { return metricsRoutes(base, opts.Metrics) }},
		{Prometheus, opts.Prometheus != nil, func() []dispatch.Route {
			return []dispatch.Route{{Method: "GET", Pattern: base + "/prometheus", Produces: opts.PrometheusTypes, Handler: dispatch.Plain(opts.Prometheus)}}
		}},
		{ThreadDump, true, func() []dispatch.Route { return threadDumpRoutes(base) }},
		{HeapDump, true, func() []dispatch.Route { return []dispatch.Route{heapDumpRoute(base)} }},
		{CPUProfile, true, func() []dispatch.Route { return []dispatch.Route{cpuProfileRoute(base, opts.MaxCPUProfile)} }},
		{HTTPExchanges, opts.Exchanges != nil, func() []dispatch.Route {
			return []dispatch.Route{get("/httpexchanges", dispatch.Returns(handleExchanges(opts.Exchanges)))}
		}},
		{Shutdown, opts.Shutdown != nil, func() []dispatch.Route {
			shutdown := get("/shutdown", dispatch.Returns(handleShutdown(opts.Shutdown)))
			shutdown.Method = "POST"
			return []dispatch.Route{shutdown}
		}},
		{Loggers, opts.Loggers != nil, func() []dispatch.Route { return loggersRoutes(base, opts.Loggers) }},
	}
	var ids []string
	var routes []dispatch.Route
	for _, e := range endpoints {
		if !e.given || !opts.Exposure.Exposes(e.id) {
			continue
		}
		if rs := permitted(opts.access(e.id), e.routes()); len(rs) > 0 {
			ids = append(ids, e.id)
			routes = append(routes, rs...)
		}
	}
	// The index last, once every exposed endpoint is known.
	if base != "" {
		routes = append(routes, dispatch.Route{Method: "GET", Pattern: base, Produces: jsonTypes, Handler: dispatch.Returns(handleIndex(base, ids))})
	}
	return routes
}

// Endpoint access levels, as management.endpoint.<id>.access names them.
const (
	AccessNone         = "none"
	AccessReadOnly     = "read-only"
	AccessUnrestricted = "unrestricted"
)

// DefaultAccess is an endpoint's access unless set: none for shutdown
// and heapdump, unrestricted for the others, as Spring Boot's endpoints
// declare (a heap dump holds whatever the process holds, secrets
// included: Spring Boot 3.5 made its default none, so that exposing
// everything with * does not expose it).
func DefaultAccess(id string) string {
	if id == Shutdown || id == HeapDump {
		return AccessNone
	}
	return AccessUnrestricted
}

// context is the name of the application context the reports show.
func (o Options) context() string { return cmp.Or(o.Context, "application") }

func (o Options) access(id string) string {
	if a, ok := o.Access[id]; ok {
		return a
	}
	return DefaultAccess(id)
}

// permitted keeps the routes that access allows: none with none, the
// reads (GET) with read-only, all with unrestricted.
func permitted(access string, routes []dispatch.Route) []dispatch.Route {
	switch access {
	case AccessUnrestricted:
		return routes
	case AccessReadOnly:
		var reads []dispatch.Route
		for _, r := range routes {
			if r.Method == http.MethodGet {
				reads = append(reads, r)
			}
		}
		return reads
	}
	return nil
}
