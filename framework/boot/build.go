package boot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/management/swaggerui"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/profile"
	"github.com/springport/greeter/framework/server"
)

// build binds the settings of env, then builds the application top to
// bottom: the loggers, the metrics, the starters and the session store,
// the service (Service.Start), tracing, the management endpoints, the
// routes and the handlers of the ports. It listens on nothing. What it
// opened is closed when it fails.
func build[S any](ctx context.Context, svc Service[S], env *config.Environment, p Process) (_ *Running, err error) {
	b := config.NewBinder(env)
	bound, err := bindAll(svc, b, env, p.variableNames())
	if err != nil {
		return nil, err
	}
	a := &App{name: svc.Name, env: env, binder: b, settings: bound.settings}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	buildInfo, _ := debug.ReadBuildInfo()
	st := a.settings.logging.Structured.WithService(cmp.Or(a.settings.management.tracing.Service, svc.Name), moduleVersion(buildInfo))
	outputs, err := a.logOutputs(p, st)
	if err != nil {
		return nil, err
	}
	a.loggers = svc.newLoggers(outputs, a.settings.logging)
	a.logStartup(bound.keys)
	spans, exportsSpans := a.spanOptions(svc.spanExporter(a.settings.management.tracing.Transport))
	if err := a.openMetrics(exportsSpans); err != nil {
		return nil, err
	}
	a.reportTLS()
	spans.DefaultService, spans.Version, spans.Logger = svc.Name, moduleVersion(buildInfo), a.Logger(tracingLogger)
	// For the OTLP metrics starter: the meters, pushed under the spans' resource.
	Provide(a, a.metrics)
	Provide(a, spans)
	if err := startService(ctx, a, svc, bound); err != nil {
		return nil, err
	}
	if a.tracing, err = tracing.New(spans); err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	if p.SpanFlush != nil {
		p.SpanFlush(a.tracing.Flush)
	}
	info := openapi.Info{Title: svc.Name, Version: moduleVersion(buildInfo), Description: svc.Description,
		License: svc.License, Tags: svc.Tags, ContextPath: a.settings.server.ContextPath}
	return a.handlers(classify(svc.Classify, a.translators), info, buildInfo)
}

// bound is what binding the settings gives build.
type bound[S any] struct {
	settings settings
	own      S                                   // the service's own (Service.Bind)
	starts   []func(context.Context, *App) error // the starters', run before Start
	keys     config.KeyReport                    // the keys that nothing reads
}

// bindAll binds the framework's settings, the starters' and the
// service's, then sorts out the keys that nothing reads. Every bad
// setting is reported at once.
func bindAll[S any](svc Service[S], b *config.Binder, env *config.Environment, variables []string) (bound[S], error) {
	s := bindSettings(b, svc.loggerNames())
	starts := svc.bindStarters(b, env, variables, s.sessions.StoreType)
	tracing.RefuseGRPCWithout(b, s.management.tracing, svc.spanExporter(tracing.GRPC) != nil, OTLPTracingGRPCStarter)
	framework := len(b.Keys())
	var own S
	if svc.Bind != nil {
		own = svc.Bind(b)
	}
	svc.refuseDatabaseWithoutStarter(b)
	// Unknown keys are looked for only where they are shown: in the log of
	// a start-up that goes on, or in the refusal fail-on-unknown makes.
	// A start-up refused anyway skips the work (a hostile source may hold
	// 100,000s of keys).
	if err := b.Err(); err != nil && !s.failOnUnknown {
		return bound[S]{}, err
	}
	keys := config.CheckKeys(env, svc.keyCheck(b.Keys(), b.Keys()[framework:], variables))
	var unknown error
	if s.failOnUnknown {
		unknown = keys.Refusal()
	}
	if err := errors.Join(b.Err(), unknown); err != nil {
		return bound[S]{}, err
	}
	return bound[S]{settings: s, own: own, starts: starts, keys: keys}, nil
}

// logStartup logs what start-up found: the profiles, the settings
// loader's and the binder's warnings (each naming its setting as written
// and its origin) and the keys that nothing reads.
func (a *App) logStartup(keys config.KeyReport) {
	a.logger = a.Logger(serverLogger)
	a.logger.Info(profile.Message(a.env.ExplicitProfiles(), a.env.DefaultProfiles()))
	for _, w := range slices.Concat(a.env.Warnings(), a.binder.Warnings()) {
		a.logger.Warn(w.Message, w.LogAttrs()...)
	}
	for _, w := range server.TLSWarnings(a.settings.server, a.settings.management.server) {
		a.logger.Warn(w.Message, "key", w.Key, "origin", w.Origin)
	}
	keys.Log(a.logger)
	if a.settings.logging.FormatNotRead {
		a.logger.Warn("logging.format is not read: logging.structured.format.console sets the console's format")
	}
}

// spanOptions are the tracing settings with the exporter of the
// service's starters, and whether spans are exported: only with an
// endpoint and an exporter. An endpoint without an exporter is warned
// about, naming the starter to add.
func (a *App) spanOptions(exporter tracing.ExporterFunc) (tracing.Options, bool) {
	spans := a.settings.management.tracing
	spans.NewExporter = exporter
	if spans.Enabled && spans.Endpoint != "" && exporter == nil {
		a.logger.Warn("spans are not exported: "+tracing.EndpointKey+" (or OTEL_EXPORTER_OTLP_ENDPOINT) names a collector, "+
			"but the exporter comes with the starter "+OTLPTracingStarter+", which this service does not include: add it to the service's Starters",
			"endpoint", config.MaskPasswords(spans.Endpoint))
	}
	return spans, spans.Enabled && spans.Endpoint != "" && exporter != nil
}

// openMetrics makes the metrics, before the session store and the
// service, so that they can report gauges, and reports the log records of
// the loggers (logback_events_total). With
// management.metrics.enabled=false requests are not recorded, and
// /actuator/prometheus still serves the runtime and process metrics.
func (a *App) openMetrics(exportsSpans bool) (err error) {
	m := a.settings.management.metrics
	a.metrics, err = metrics.New(metrics.Options{PercentilesHistogram: m.PercentilesHistogram(exportsSpans), CommonTags: m.Tags,
		Exemplars: exportsSpans, Logger: a.Logger(metricsLogger)})
	if err == nil {
		a.metrics.LogEvents(func() metrics.LogEventCounts { return metrics.LogEventCounts(a.loggers.Events()) })
	}
	return err
}

// tls is what the ports' TLS publishes (server/tlsinfo.go).
func (a *App) tls() server.Published {
	return server.Publish(a.settings.server, a.settings.management.server, a.settings.management.actuator.SSL.Threshold)
}

// reportTLS adds the meters of the ports' TLS; none without TLS, as
// Spring Boot 4 has no ssl.chains and no chain to time.
func (a *App) reportTLS() {
	if p := a.tls(); p.Serves() {
		a.metrics.TLS(server.HandshakeReasons, p.HandshakeFailures, p.Bundles)
	}
}

// startService runs the starters, opens the session store (in memory
// unless a starter gave one) and runs the service's Start. Nothing may
// be added to a after it.
func startService[S any](ctx context.Context, a *App, svc Service[S], bound bound[S]) error {
	for _, start := range bound.starts {
		if err := start(ctx, a); err != nil {
			return err
		}
	}
	a.openSessions()
	err := svc.Start(ctx, a, bound.own)
	a.started = true
	return err
}

// handlers builds the handlers of the ports: the service's routes with
// its OpenAPI document (info) on server.port, and the management
// endpoints there too unless they have a port of their own. Security,
// when on, guards both ports with the same rules.
func (a *App) handlers(classify func(error) *dispatch.Error, info openapi.Info, buildInfo *debug.BuildInfo) (*Running, error) {
	s := a.settings
	r := &Running{app: a, probes: actuator.NewProbes(a.indicators...), shutdownRequested: make(chan struct{})}
	observers, exchanges := a.observers()
	catalog := &dispatch.Catalog{} // the routes of both ports, for /actuator/mappings
	management, err := a.managementRoutes(r, catalog, exchanges, buildInfo)
	if err != nil {
		return nil, err
	}
	info.Security = a.openAPISecurity(s.management.basePath())
	// The service's routes read their Pageables as app.data.web.* says,
	// and the document describes them so.
	own := dispatch.WithPaging(s.paging, a.routes...)
	docs := openapi.Routes(info, own)
	if s.openapiUI {
		docs = append(docs, swaggerui.Routes()...)
	}
	opts := dispatch.Options{Logger: a.Logger(dispatchLogger), Classify: classify,
		MaxBodyBytes: int64(s.server.MaxRequestSize), Observers: observers, RequestIDs: s.server.AccessLog,
		Catalog: catalog, Tracer: a.tracing.Tracer()}
	if opts.Guard, err = a.securityGuard(s.security, s.management.basePath()); err != nil {
		return nil, err
	}
	routes := dispatch.WithCORS(s.cors.Service, slices.Concat(own, docs)...)
	routes = append(routes, a.openRoutes...)
	if !s.management.ownPort() {
		routes = append(routes, management...)
	} else {
		// The starters' open routes answer on both ports, as Spring's
		// security filter chain guards both: a 401 there names them
		// (the protected resource metadata) at that port's address.
		management = append(management, a.openRoutes...)
	}
	serverOpts := opts
	serverOpts.ContextPath = s.server.ContextPath // not the management port's, as in Spring
	handler, err := dispatch.New(serverOpts, routes...)
	if err != nil {
		return nil, err
	}
	r.handler = handler
	if a.components != nil {
		r.handler = a.components.Middleware(handler)
	}
	r.handler = s.server.Handler(r.handler)
	if s.management.ownPort() {
		if r.management, err = dispatch.New(opts, management...); err != nil {
			return nil, fmt.Errorf("the management endpoints: %w", err)
		}
		// As in Spring, whose management server takes the server's
		// compression settings and reads the forwarded headers too.
		r.management = s.server.Handler(r.management)
	}
	return r, nil
}

// observers are the observers of every request: metrics, the access log,
// the recent exchanges (kept for /actuator/httpexchanges only when asked
// for; nil otherwise).
func (a *App) observers() ([]func(dispatch.Observation), *actuator.Exchanges) {
	var observers []func(dispatch.Observation)
	if a.settings.management.metrics.Enabled {
		observers = append(observers, a.metrics.Observe)
	}
	if a.settings.server.AccessLog {
		observers = append(observers, accessLog(a.Logger(accessLogLogger)))
	}
	var exchanges *actuator.Exchanges
	if a.settings.management.actuator.RecordExchanges {
		exchanges = actuator.NewExchanges()
		observers = append(observers, exchanges.Observe)
	}
	return observers, exchanges
}

// managementRoutes are the management endpoints' routes, with their CORS
// policy. A health group that names no component is refused as a bad
// setting, with its value and where it was set.
func (a *App) managementRoutes(r *Running, catalog *dispatch.Catalog, exchanges *actuator.Exchanges, buildInfo *debug.BuildInfo) ([]dispatch.Route, error) {
	s := a.settings
	exposure := s.management.actuator.Exposure
	for _, list := range []struct {
		key string
		ids []string
	}{{"management.endpoints.web.exposure.include", exposure.Include}, {"management.endpoints.web.exposure.exclude", exposure.Exclude}} {
		for _, id := range (actuator.Exposure{Include: list.ids}).Unknown() {
			v := a.binder.Value(list.key, "")
			a.logger.Warn("the setting names an endpoint that does not exist; it is ignored", "key", v.Key,
				"origin", config.OriginWithoutValue(v.Origin), "id", id, "endpoints", strings.Join(actuator.IDs, ","))
		}
	}
	components := func() []component.Info { return nil }
	if a.components != nil {
		components = a.components.Components
	}
	opts := actuator.Options{
		Exposure:        exposure,
		BasePath:        s.management.basePath(),
		Env:             a.env,
		Bound:           a.binder.Keys(),
		ShowValues:      s.management.actuator.ShowValues,
		Context:         a.name,
		ConfigProps:     actuator.ConfigPropsOptions{Default: a.binder.Default, ShowValues: s.management.actuator.ConfigPropsShowValues},
		Components:      components,
		Mappings:        catalog,
		Prometheus:      a.metrics.Handler(),
		PrometheusTypes: metrics.ContentTypes,
		Metrics:         a.metrics,
		Probes:          r.probes,
		HealthDisplay:   a.healthDisplay(),
		DiskSpace:       s.management.actuator.DiskSpace,
		HealthGroups:    s.management.actuator.HealthGroups,
		InfoEnv:         s.management.actuator.InfoEnv,
		Build:           buildInfo,
		// A profile must be sent before server.write-timeout cuts it off.
		MaxCPUProfile: max(s.server.WriteTimeout-time.Second, time.Second),
		Exchanges:     exchanges,
		Access:        s.management.actuator.Access,
		Shutdown:      sync.OnceFunc(func() { close(r.shutdownRequested) }),
		Loggers:       a.loggers,
		SSL:           actuator.SSL{Bundles: a.tls().Bundles, Health: s.management.actuator.SSL.Health, Info: s.management.actuator.SSL.Info},
	}
	if err := actuator.CheckHealthGroups(opts); err != nil {
		if group, ok := errors.AsType[*actuator.HealthGroupError](err); ok {
			a.binder.Refuse(group.Key, group.Reason)
			err = a.binder.Err()
		}
		return nil, err
	}
	return dispatch.WithCORS(s.cors.Management, actuator.Routes(opts)...), nil
}
