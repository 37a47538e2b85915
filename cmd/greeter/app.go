package main

import (
	"context"
	"errors"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/management/swaggerui"
	"github.com/springport/greeter/framework/management/tracing"
)

// app is the wired service: the handlers of its ports and what must be
// closed when it stops.
type app struct {
	handler    http.Handler // for server.port
	management http.Handler // for management.server.port; nil when it is server.port
	probes     *actuator.Probes
	// shutdownRequested is closed by POST /actuator/shutdown: run then
	// shuts down as it does on SIGTERM.
	shutdownRequested chan struct{}
	components        *component.Container
	tracing           *tracing.Tracing
	closers           []func() error // the stores, closed in reverse order after the components
}

// newApp wires the service from its settings, top to bottom: the stores,
// the components, the management endpoints, the routes and the handlers of
// the ports. It listens on nothing, so that tests and benchmarks can serve
// its handlers as they like.
func newApp(ctx context.Context, env *config.Environment, s settings, loggers *logging.Registry) (_ *app, err error) {
	a := &app{shutdownRequested: make(chan struct{})}
	defer func() {
		if err != nil {
			a.close()
		}
	}()

	// Stores: in memory, the embedded default, unless PostgreSQL keeps
	// the messages or Redis the sessions. Each store that has a
	// dependency reports it in health.
	st, err := openStores(ctx, env, s, loggers)
	a.closers = st.closers
	if err != nil {
		return nil, err
	}
	a.probes = actuator.NewProbes(st.indicators...)

	// Components: declared, checked against the active profiles, started.
	registry := &component.Registry{}
	numbers := declareComponents(registry, st.messages, s.app.numberScope, time.Now)
	if a.components, err = registry.Start(env.ActiveProfiles(), component.Options{Sessions: st.sessions, Logger: loggers.Logger(componentsLogger)}); err != nil {
		return nil, err
	}
	valA, err := numbers.valA.Get(context.Background(), a.components)
	if err != nil {
		return nil, err
	}
	valB, err := numbers.valB.Get(context.Background(), a.components)
	if err != nil {
		return nil, err
	}

	// Observers of every request: metrics and the access log.
	// With management.metrics.enabled=false requests are not recorded,
	// and /actuator/prometheus still serves the runtime and process
	// metrics.
	var observers []func(dispatch.Observation)
	m := metrics.New(metrics.Options{PercentilesHistogram: s.management.histogram})
	if st.inMemory != nil {
		m.Sessions(st.inMemory.Len, st.inMemory.Max(), st.inMemory.Evicted)
	}
	m.Gauges(messageGauges(st.messages.Usage, s.app.messages.limits))
	prometheus := m.Handler()
	if s.management.metrics {
		observers = append(observers, m.Observe)
	}
	if s.server.accessLog {
		observers = append(observers, accessLog(loggers.Logger(accessLogLogger)))
	}
	var exchanges *actuator.Exchanges // kept for /actuator/httpexchanges only when asked for
	if s.management.actuator.recordExchanges {
		exchanges = actuator.NewExchanges()
		observers = append(observers, exchanges.Observe)
	}

	// Tracing: a span per request when spans are recorded; otherwise a
	// caller's traceparent is still passed to the log lines and problem
	// documents.
	build, _ := debug.ReadBuildInfo()
	topts := s.management.tracing
	topts.Service, topts.Version, topts.Logger = "greeter", moduleVersion(build), loggers.Logger(tracingLogger)
	a.tracing = tracing.New(topts)

	// Routes: the service's own, its OpenAPI document, the management
	// endpoints. The catalog lists the routes of both ports for
	// /actuator/mappings.
	exposure := actuator.Exposure{Include: s.management.include, Exclude: s.management.exclude}
	for _, id := range exposure.Unknown() {
		loggers.Logger(serverLogger).Warn("management.endpoints.web.exposure names an endpoint that does not exist; it is ignored",
			"id", id, "endpoints", strings.Join(actuator.IDs, ","))
	}
	catalog := &dispatch.Catalog{}
	service := api.Routes(s.app.greeting, st.messages, s.app.messages.paging, valA, valB)
	docs := openapi.Routes(documentInfo(build), service)
	if s.app.openapiUI {
		docs = append(docs, swaggerui.Routes()...)
	}
	managementOpts := actuator.Options{
		Exposure:        exposure,
		BasePath:        s.management.basePath(),
		Env:             env,
		Bound:           s.bound,
		ShowValues:      s.management.showValues,
		Components:      a.components.Components,
		Mappings:        catalog,
		Prometheus:      prometheus,
		PrometheusTypes: metrics.ContentTypes,
		Metrics:         m,
		Probes:          a.probes,
		HealthDisplay:   s.management.health,
		DiskSpace:       s.management.actuator.diskSpace,
		HealthGroups:    s.management.actuator.healthGroups,
		Build:           build,
		// A profile must be sent before server.write-timeout cuts it off.
		MaxCPUProfile:  max(s.server.writeTimeout-time.Second, time.Second),
		Exchanges:      exchanges,
		ShutdownAccess: s.management.actuator.shutdownAccess,
		Shutdown:       sync.OnceFunc(func() { close(a.shutdownRequested) }),
		Loggers:        loggers,
	}
	if err := actuator.CheckHealthGroups(managementOpts); err != nil {
		return nil, err
	}
	management := actuator.Routes(managementOpts)

	// Handlers: management shares server.port unless it has a port of its
	// own.
	opts := dispatch.Options{Logger: loggers.Logger(dispatchLogger), Classify: api.Classify, MaxBodyBytes: int64(s.server.maxRequestSize),
		Observers: observers, RequestIDs: s.server.accessLog, Catalog: catalog, Tracer: a.tracing.Tracer()}
	routes := slices.Concat(service, docs)
	if !s.management.ownPort() {
		routes = append(routes, management...)
	}
	handler, err := dispatch.New(opts, routes...)
	if err != nil {
		return nil, err
	}
	a.handler = a.components.Middleware(handler)
	if s.management.ownPort() {
		if a.management, err = dispatch.New(opts, management...); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// documentInfo is what the OpenAPI document says of the service.
func documentInfo(build *debug.BuildInfo) openapi.Info {
	info := openapi.Info{
		Title:       "greeter",
		Version:     moduleVersion(build),
		Description: "Greetings, an ordered collection of messages, and random numbers from components with a configurable lifecycle.",
		License:     "MIT", // the repository's LICENSE
	}
	for _, t := range api.Tags {
		info.Tags = append(info.Tags, openapi.Tag(t))
	}
	return info
}

// close sends the spans still queued, then ends the components, then the
// stores they may live in.
func (a *app) close() error {
	var errs []error
	if a.tracing != nil {
		errs = append(errs, a.tracing.Shutdown())
	}
	if a.components != nil {
		errs = append(errs, a.components.Close())
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	return errors.Join(errs...)
}

// moduleVersion is the module's version from the build information,
// "(devel)" for a build from a work tree.
func moduleVersion(build *debug.BuildInfo) string {
	if build != nil && build.Main.Version != "" {
		return build.Main.Version
	}
	return "(devel)"
}
