package boot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/management/swaggerui"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/security"
)

// App is one application: Service.Start builds it, adding the service's
// stores, components and routes; New returns it built, so that a test or
// a benchmark can serve its Handler; Run serves it. The methods that add
// to it may be called only during Start, on Start's goroutine.
type App struct {
	name     string
	env      *config.Environment
	settings settings
	loggers  *logging.Registry
	logger   *slog.Logger // the server's: start-up, ports, shutdown
	sessions component.SessionStore
	metrics  *metrics.HTTP
	// authenticators guard both ports, each under its scheme
	// (Authenticate); none: security is off.
	authenticators []security.Authenticator
	schemes        []string

	// What Start adds.
	started    bool // Start has returned: nothing more may be added
	indicators []actuator.Indicator
	registry   *component.Registry // given to StartComponents
	components *component.Container
	routes     []dispatch.Route
	closers    []func() error // the stores, closed in reverse order after the components

	// What the build makes of it.
	handler    http.Handler // for server.port
	management http.Handler // for management.server.port; nil when it is server.port
	probes     *actuator.Probes
	tracing    *tracing.Tracing
	// shutdownRequested is closed by POST /actuator/shutdown: Run then
	// shuts down as it does on SIGTERM.
	shutdownRequested chan struct{}
	closeOnce         sync.Once
	closeErr          error
}

// Environment returns the loaded settings, for a service that reads one
// outside Bind, or needs the active profiles.
func (a *App) Environment() *config.Environment { return a.env }

// Logger returns the logger <service>.<name>: one of Service.Loggers (or
// of the framework's own), whose level logging.level.* and
// /actuator/loggers set.
func (a *App) Logger(name string) *slog.Logger { return a.loggers.Logger(a.name + "." + name) }

// Health adds indicators to /actuator/health and to readiness: a
// dependency the service cannot serve without, such as its database.
func (a *App) Health(indicators ...actuator.Indicator) {
	a.mustBeStarting("Health")
	a.indicators = append(a.indicators, indicators...)
}

// Gauges adds gauges the service reports of itself to /actuator/prometheus
// and /actuator/metrics, read at each scrape (see metrics.HTTP.Gauges).
func (a *App) Gauges(read func() []metrics.Gauge) {
	a.mustBeStarting("Gauges")
	a.metrics.Gauges(read)
}

// ConnectionPool reports a database's connection pool on
// /actuator/prometheus and /actuator/metrics under the names Micrometer
// gives a Spring DataSource and HikariCP's pool (jdbc_connections_*,
// hikaricp_connections*), tagged name=dataSource and pool=pool, read at
// each scrape (see metrics.HTTP.ConnectionPool).
func (a *App) ConnectionPool(dataSource, pool string, stats func() metrics.PoolStats) {
	a.mustBeStarting("ConnectionPool")
	a.metrics.ConnectionPool(dataSource, pool, stats)
}

// RedisPool reports a Redis client's connection pool on
// /actuator/prometheus under the names Lettuce's pool meters have, read
// at each scrape (see metrics.HTTP.RedisPool): for a starter that
// connects to Redis.
func (a *App) RedisPool(stats func() metrics.RedisPoolStats) {
	a.mustBeStarting("RedisPool")
	a.metrics.RedisPool(stats)
}

// MetricsRegisterer registers a service's own client_golang collectors in
// the registry /actuator/prometheus serves, with the common tags
// (management.metrics.tags.*) added to their series.
func (a *App) MetricsRegisterer() prometheus.Registerer {
	a.mustBeStarting("MetricsRegisterer")
	return a.metrics.Registerer()
}

// OnClose adds close to what is closed when the application stops: after
// the components, in the reverse order of the calls, so that a store
// opened first is closed last. A store the service opens is added here as
// soon as it is open, so that a later failure of Start closes it too.
func (a *App) OnClose(close func() error) {
	a.mustBeStarting("OnClose")
	a.closers = append(a.closers, close)
}

// StartComponents starts the components declared on r (see
// component.Registry.Start): checked against the active profiles, with the
// framework's session store for the session scope, listed by
// /actuator/beans, their request and session scopes opened for every
// request, and closed when the application stops. It may be called once;
// the service resolves its components from the container it returns, to
// build its routes.
func (a *App) StartComponents(r *component.Registry) (*component.Container, error) {
	a.mustBeStarting("StartComponents")
	if a.registry != nil {
		return nil, errors.New("boot: StartComponents was called twice; declare every component on one registry")
	}
	a.registry = r
	c, err := r.Start(a.env.ActiveProfiles(), component.Options{Sessions: a.sessions, SessionCookie: a.settings.sessions.cookie, Logger: a.Logger(componentsLogger)})
	if err != nil {
		return nil, err
	}
	a.components = c
	return c, nil
}

// Routes adds the service's routes: served on server.port, described in
// the OpenAPI document, listed by /actuator/mappings.
func (a *App) Routes(routes ...dispatch.Route) {
	a.mustBeStarting("Routes")
	a.routes = append(a.routes, routes...)
}

// EngineError reports that the engine that setting key names (a
// "PostgreSQL database" named by app.datasource.url) could not be used,
// because of err: unreachable, refusing the credentials, or holding a
// schema this binary does not know. Start returns it, and the failure
// report shows the setting with its value (its password masked) and where
// it was set. value is the setting's value as bound, for when it is unset
// and its default was used.
func (a *App) EngineError(engine, key, value string, err error) error {
	return engineError(a.env, engine, key, value, err)
}

// Handler is the handler of server.port: the service's routes, the
// OpenAPI document, and the management endpoints unless they have a port
// of their own.
func (a *App) Handler() http.Handler { return a.handler }

// ManagementHandler is the handler of management.server.port, nil when
// the management endpoints share server.port (and Handler serves them).
func (a *App) ManagementHandler() http.Handler { return a.management }

// ShutdownRequested is closed when POST /actuator/shutdown asks the
// service to stop; Run then shuts down as on SIGTERM. An App from New is
// not served by Run: whoever serves it decides what the request does.
func (a *App) ShutdownRequested() <-chan struct{} { return a.shutdownRequested }

// Close sends the spans still queued, then closes the components, then
// what OnClose added and the session store, in reverse order. It may be
// called more than once.
func (a *App) Close() error {
	a.closeOnce.Do(func() {
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
		a.closeErr = errors.Join(errs...)
	})
	return a.closeErr
}

func (a *App) mustBeStarting(method string) {
	if a.started {
		panic("boot: App." + method + " called after Service.Start returned")
	}
}

// build binds the settings of env, then builds the application top to
// bottom: the loggers, the session store, the service (Service.Start), the
// management endpoints, the routes and the handlers of the ports. It
// listens on nothing. What it opened is closed when it fails.
func build[S any](ctx context.Context, svc Service[S], env *config.Environment, p Process) (_ *App, err error) {
	b := config.NewBinder(env)
	s := bindSettings(b, env, svc.loggerNames())
	variables := p.variableNames()
	starts := svc.bindStarters(b, env, variables, s.sessions.storeType)
	framework := len(b.Keys())
	var own S
	if svc.Bind != nil {
		own = svc.Bind(b)
	}
	// Unknown keys are looked for only where they are shown: in the log of
	// a start-up that goes on, or in the refusal fail-on-unknown makes.
	// A start-up refused anyway skips the work (a hostile source may hold
	// 100,000s of keys).
	if err := b.Err(); err != nil && !s.failOnUnknown {
		return nil, err
	}
	keys := config.CheckKeys(env, svc.keyCheck(b.Keys(), b.Keys()[framework:], variables))
	var unknown error
	if s.failOnUnknown {
		unknown = keys.Refusal()
	}
	if err := errors.Join(b.Err(), unknown); err != nil {
		return nil, err
	}
	a := &App{name: svc.Name, env: env, settings: s, shutdownRequested: make(chan struct{})}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	a.loggers = svc.newLoggers(newLogger(s.logFormat, p.Stdout).Handler(), s.logLevels)
	a.logger = a.Logger(serverLogger)
	a.logger.Info(profilesMessage(env.ExplicitProfiles(), env.DefaultProfiles()))
	for _, w := range env.Warnings() {
		a.logger.Warn(w)
	}
	keys.Log(a.logger)

	// Metrics first, so that the session store and the service can
	// report gauges. With management.metrics.enabled=false requests are
	// not recorded, and /actuator/prometheus still serves the runtime and
	// process metrics.
	//
	// With spans exported, the request timer is a histogram unless set
	// otherwise: client_golang writes exemplars (a bucket's trace) on
	// histogram buckets only, and a dashboard goes from a slow bucket to
	// its trace through them.
	topts := s.management.tracing
	topts.NewExporter = svc.spanExporter()
	exportsSpans := topts.Enabled && topts.Endpoint != "" && topts.NewExporter != nil
	if topts.Enabled && topts.Endpoint != "" && topts.NewExporter == nil {
		a.logger.Warn("spans are not exported: management.otlp.tracing.endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT) names a collector, "+
			"but the exporter comes with the starter "+OTLPTracingStarter+", which this service does not include: add it to the service's Starters",
			"endpoint", config.MaskPasswords(topts.Endpoint))
	}
	histogram := s.management.histogram || (exportsSpans && !s.management.histogramSet)
	if a.metrics, err = metrics.New(metrics.Options{PercentilesHistogram: histogram, CommonTags: s.management.tags,
		Exemplars: exportsSpans, Logger: a.Logger(metricsLogger)}); err != nil {
		return nil, err
	}
	for _, start := range starts {
		if err := start(ctx, a); err != nil {
			return nil, err
		}
	}
	a.openSessions()
	err = svc.Start(ctx, a, own)
	a.started = true
	if err != nil {
		return nil, err
	}
	a.probes = actuator.NewProbes(a.indicators...)

	// Observers of every request: metrics, the access log, the recent
	// exchanges.
	var observers []func(dispatch.Observation)
	if s.management.metrics {
		observers = append(observers, a.metrics.Observe)
	}
	if s.server.accessLog {
		observers = append(observers, accessLog(a.Logger(accessLogLogger)))
	}
	var exchanges *actuator.Exchanges // kept for /actuator/httpexchanges only when asked for
	if s.management.actuator.recordExchanges {
		exchanges = actuator.NewExchanges()
		observers = append(observers, exchanges.Observe)
	}

	// Tracing: a span per request when spans are recorded; otherwise a
	// caller's traceparent is still passed to the log lines and problem
	// documents.
	buildInfo, _ := debug.ReadBuildInfo()
	topts.DefaultService, topts.Version, topts.Logger = svc.Name, moduleVersion(buildInfo), a.Logger(tracingLogger)
	if a.tracing, err = tracing.New(topts); err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	if p.SpanFlush != nil {
		p.SpanFlush(a.tracing.Flush)
	}

	// Routes: the service's own, its OpenAPI document, the management
	// endpoints. The catalog lists the routes of both ports for
	// /actuator/mappings.
	exposure := actuator.Exposure{Include: s.management.include, Exclude: s.management.exclude}
	for _, id := range exposure.Unknown() {
		a.logger.Warn("management.endpoints.web.exposure names an endpoint that does not exist; it is ignored",
			"id", id, "endpoints", strings.Join(actuator.IDs, ","))
	}
	catalog := &dispatch.Catalog{}
	docs := openapi.Routes(openapi.Info{Title: svc.Name, Version: moduleVersion(buildInfo), Description: svc.Description,
		License: svc.License, Tags: svc.Tags, ContextPath: s.server.contextPath,
		Security: a.openAPISecurity(s.management.basePath())}, a.routes)
	if s.openapiUI {
		docs = append(docs, swaggerui.Routes()...)
	}
	components := func() []component.Info { return nil }
	if a.components != nil {
		components = a.components.Components
	}
	managementOpts := actuator.Options{
		Exposure:        exposure,
		BasePath:        s.management.basePath(),
		Env:             env,
		Bound:           b.Keys(),
		ShowValues:      s.management.showValues,
		ConfigProps:     actuator.ConfigPropsOptions{Context: svc.Name, Default: b.Default, ShowValues: s.management.configPropsShowValues},
		Components:      components,
		Mappings:        catalog,
		Prometheus:      a.metrics.Handler(),
		PrometheusTypes: metrics.ContentTypes,
		Metrics:         a.metrics,
		Probes:          a.probes,
		HealthDisplay:   a.healthDisplay(),
		DiskSpace:       s.management.actuator.diskSpace,
		HealthGroups:    s.management.actuator.healthGroups,
		Build:           buildInfo,
		// A profile must be sent before server.write-timeout cuts it off.
		MaxCPUProfile: max(s.server.writeTimeout-time.Second, time.Second),
		Exchanges:     exchanges,
		Access:        s.management.actuator.access,
		Shutdown:      sync.OnceFunc(func() { close(a.shutdownRequested) }),
		Loggers:       a.loggers,
	}
	if err := actuator.CheckHealthGroups(managementOpts); err != nil {
		// Reported as a bad setting, with its value and where it was set.
		var group *actuator.HealthGroupError
		if errors.As(err, &group) {
			b.Refuse(group.Key, group.Reason)
			err = b.Err()
		}
		return nil, err
	}
	management := withCORS(actuator.Routes(managementOpts), s.cors.management)

	// Handlers: management shares server.port unless it has a port of its
	// own.
	opts := dispatch.Options{Logger: a.Logger(dispatchLogger), Classify: classify(svc.Classify),
		MaxBodyBytes: int64(s.server.maxRequestSize), Observers: observers, RequestIDs: s.server.accessLog,
		Catalog: catalog, Tracer: a.tracing.Tracer()}
	// Security, when on, guards both ports with the same rules.
	if opts.Guard, err = a.securityGuard(s.security, s.management.basePath()); err != nil {
		return nil, err
	}
	routes := withCORS(slices.Concat(a.routes, docs), s.cors.service)
	if !s.management.ownPort() {
		routes = append(routes, management...)
	}
	serverOpts := opts
	serverOpts.ContextPath = s.server.contextPath // not the management port's, as in Spring
	handler, err := dispatch.New(serverOpts, routes...)
	if err != nil {
		return nil, err
	}
	a.handler = handler
	if a.components != nil {
		a.handler = a.components.Middleware(handler)
	}
	if s.management.ownPort() {
		if a.management, err = dispatch.New(opts, management...); err != nil {
			return nil, fmt.Errorf("the management endpoints: %w", err)
		}
		// As in Spring, whose management server takes the server's
		// compression settings.
		a.management = compress(a.management, s.server.compression)
		// Spring's management server reads the forwarded headers too.
		a.management = forwarded(a.management, s.server.forwardStrategy)
	}
	a.handler = compress(a.handler, s.server.compression)
	a.handler = forwarded(a.handler, s.server.forwardStrategy)
	return a, nil
}
