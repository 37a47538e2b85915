package boot

import (
	"errors"
	"log/slog"
	"reflect"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/security"
)

// App is an application being built: Service.Start receives it, and adds
// the service's stores, health indicators, gauges, components and routes
// to it, as an fx.Lifecycle is given to constructors. Its methods may be
// called only during Start, on Start's goroutine (those that add panic
// after it). What is built of it is a Running: New returns one, Run
// serves one.
type App struct {
	name     string
	env      *config.Environment
	binder   *config.Binder // what bound the settings, for reports on them
	settings settings
	loggers  *logging.Registry
	logger   *slog.Logger // the server's: start-up, ports, shutdown
	sessions component.SessionStore
	metrics  *metrics.HTTP
	// authenticators guard both ports, each under its scheme
	// (Authenticate); none: security is off.
	authenticators []security.Authenticator
	schemes        []string
	// openRoutes are served on both ports, open to anyone where
	// openPatterns match (OpenRoutes).
	openRoutes   []dispatch.Route
	openPatterns []string
	// provided are what the starters made for the service, by type
	// (Provide); translators turn the routes' errors into the
	// framework's (TranslateErrors).
	provided    map[reflect.Type]any
	translators []func(error) error

	// What Start adds.
	started    bool // Start has returned: nothing more may be added
	indicators []actuator.Indicator
	registry   *component.Registry // given to StartComponents
	components *component.Container
	routes     []dispatch.Route
	closers    []func() error // the stores, closed in reverse order after the components

	// What the build makes of it, closed with it.
	tracing   *tracing.Tracing
	closeOnce sync.Once
	closeErr  error
}

// Name is the service's name (Service.Name).
func (a *App) Name() string { return a.name }

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
	c, err := r.Start(a.env.ActiveProfiles(), component.Options{Sessions: a.sessions, SessionCookie: a.settings.server.SessionCookie, Logger: a.Logger(componentsLogger)})
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
// migration history that disagrees with the binary's. Start returns it,
// and the failure report shows the setting with its value (its password
// masked) and where it was set. value is the setting's value as bound, for when it is unset
// and its default was used.
func (a *App) EngineError(engine, key, value string, err error) error {
	return &EngineError{Engine: engine, Setting: config.SettingError{Value: a.binder.Value(key, value), Reason: err.Error()}}
}

// close sends the spans still queued, then closes the components, then
// what OnClose added and the session store, in reverse order. It may be
// called more than once.
func (a *App) close() error {
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
