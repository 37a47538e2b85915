package boot

import (
	"cmp"
	"context"
	"reflect"
	"slices"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/session"
)

// A Starter is an optional subsystem that a service names in
// Service.Starters, as a Spring user adds a starter
// (spring-boot-starter-data-redis) to the build: its package, and what
// that brings in (a Redis client, say), is linked only into the services
// that name it. Its settings are the framework's: bound with them,
// listed by --help and the configuration reference with them.
type Starter struct {
	// Name is the starter's import path, which start-up names to a user
	// who sets its settings in a service that does not include it.
	Name string
	// SpanExporter, when set, sends the spans that tracing records to the
	// collector that management.opentelemetry.tracing.export.otlp.endpoint (or
	// OTEL_EXPORTER_OTLP_ENDPOINT) names: the OTLP tracing starter's.
	// Without it no span is recorded.
	SpanExporter tracing.ExporterFunc
	// SpanTransport is SpanExporter's transport: "grpc", or "" for http.
	SpanTransport string
	// SessionStore is the app.session.store-type it provides ("redis"),
	// "" for none: it then calls App.UseSessionStore when that type is
	// chosen.
	SessionStore string
	// Bind reads the starter's settings and returns what start-up runs
	// with them: after the metrics are made and before the session store
	// is opened and Service.Start runs. An error stops start-up, as one
	// of Start's does. Bind may return nil when there is nothing to run.
	Bind func(b *config.Binder) func(ctx context.Context, a *App) error
}

// optionalSettings are the settings of the framework's starters, by the
// prefix of their keys (a family, ending in a dot) or by key: set in a service that does not include the
// starter, they are read by nothing, and start-up says which starter to
// add rather than only that nothing reads them. Only names: naming a
// starter here links nothing of it.
//
// Those that ask for protection (a user, a token issuer) stop start-up
// instead: served without the starter, the service would answer every
// request unauthenticated.
var optionalSettings = []struct {
	prefix, starter string
	protection      bool
}{
	{"app.data.redis.", RedisSessionStarter, false},
	{"app.session.data.redis.", RedisSessionStarter, false},
	{"app.session.redis.", RedisSessionStarter, false}, // Spring Boot 3.5's name of app.session.data.redis.
	{"app.security.user.", SecurityBasicStarter, true},
	{"app.security.oauth2.resourceserver.jwt.", SecurityJWTStarter, true},
	// The datasource starter's keys one by one, but Hikari's: a Spring
	// user's other spring.datasource.* keys (Druid's, a second pool's)
	// are read by no starter.
	{"app.datasource.url", DataSourceStarter, false},
	{"app.datasource.username", DataSourceStarter, false},
	{"app.datasource.password", DataSourceStarter, false},
	{"app.datasource.name", DataSourceStarter, false},
	{"app.datasource.hikari.", DataSourceStarter, false},
	{"app.jdbc.template.query-timeout", DataSourceStarter, false},
	{"app.r2dbc.url", DataSourceStarter, false},
	{"app.r2dbc.username", DataSourceStarter, false},
	{"app.r2dbc.password", DataSourceStarter, false},
	{"management.otlp.metrics.export.", "github.com/springport/greeter/framework/starter/otlpmetrics", false},
}

// DataSourceStarter is the import path of the starter that opens a
// PostgreSQL connection pool (app.datasource.*).
const DataSourceStarter = "github.com/springport/greeter/framework/starter/datasource"

// databaseURLs are the settings that name a database. Set in a service
// that neither includes the datasource starter nor reads them itself,
// they stop start-up: nothing would connect to the database, and the
// service would keep in memory, or nowhere, what was meant to be kept
// there.
var databaseURLs = []string{"app.datasource.url", "app.r2dbc.url"}

// refuseDatabaseWithoutStarter refuses each of databaseURLs that is set
// (in a file, an argument or a variable: SPRING_DATASOURCE_URL) when svc
// does not include the datasource starter, and did not bind it.
func (svc Service[S]) refuseDatabaseWithoutStarter(b *config.Binder) {
	if slices.Contains(svc.starterNames(), DataSourceStarter) {
		return
	}
	for _, key := range databaseURLs {
		if _, bound := b.Default(key); bound || !b.IsSet(key) {
			continue
		}
		b.Refuse(key, "names a database, whose connection pool comes with the starter "+DataSourceStarter+
			": add it to the service's Starters (without it nothing would connect to the database)")
	}
}

// OTLPTracingStarter is the import path of the starter that exports
// spans over OTLP/HTTP.
const OTLPTracingStarter = "github.com/springport/greeter/framework/starter/otlptracing"

// OTLPTracingGRPCStarter exports spans over OTLP/gRPC.
const OTLPTracingGRPCStarter = "github.com/springport/greeter/framework/starter/otlptracinggrpc"

// spanExporter is the span exporter of svc's starters for transport, nil
// when none gives one.
func (svc Service[S]) spanExporter(transport string) tracing.ExporterFunc {
	for _, st := range svc.Starters {
		if st.SpanExporter != nil && cmp.Or(st.SpanTransport, tracing.HTTP) == transport {
			return st.SpanExporter
		}
	}
	return nil
}

// RedisSessionStarter is the import path of the starter that keeps HTTP
// sessions in Redis (app.session.store-type=redis).
const RedisSessionStarter = "github.com/springport/greeter/framework/starter/redissession"

// The import paths of the security starters: users over HTTP Basic, and
// bearer tokens (an OAuth 2.0 resource server).
const (
	SecurityBasicStarter = "github.com/springport/greeter/framework/starter/securitybasic"
	SecurityJWTStarter   = "github.com/springport/greeter/framework/starter/securityjwt"
)

// starterOf names the starter that reads key, in any of its forms (its
// spring. twin too), "" when none does.
func starterOf(key string) string {
	app, spring := config.AppTwin(key)
	if !spring {
		app = key
	}
	for _, o := range optionalSettings {
		if config.UnderPrefix(key, o.prefix) || config.SameKey(app, o.prefix) {
			return o.starter
		}
	}
	return ""
}

// bindStarters binds the settings of svc's starters, and returns what
// each runs at start-up. A session store type that none of them provides
// is refused, naming the starter to add.
func (svc Service[S]) bindStarters(b *config.Binder, env *config.Environment, variables []string, storeType string) []func(context.Context, *App) error {
	svc.refuseProtectionWithoutStarter(b, env, variables)
	if storeType != "memory" && !slices.ContainsFunc(svc.Starters, func(st Starter) bool { return st.SessionStore == storeType }) {
		b.Refuse("app.session.store-type", "the "+storeType+" session store comes with the starter "+RedisSessionStarter+": add it to the service's Starters")
	}
	var starts []func(context.Context, *App) error
	for _, st := range svc.Starters {
		if st.Bind == nil {
			continue
		}
		if start := st.Bind(b); start != nil {
			starts = append(starts, start)
		}
	}
	return starts
}

// refuseProtectionWithoutStarter refuses each setting that asks for
// protection (optionalSettings) and whose starter svc does not include,
// whether a file or argument sets it or an environment variable does
// (SPRING_SECURITY_USER_PASSWORD): variables are the names of those set.
func (svc Service[S]) refuseProtectionWithoutStarter(b *config.Binder, env *config.Environment, variables []string) {
	included := svc.starterNames()
	for _, o := range optionalSettings {
		if !o.protection || slices.Contains(included, o.starter) {
			continue
		}
		reason := "asks for authentication, which comes with the starter " + o.starter +
			": add it to the service's Starters (without it every request would be served unauthenticated)"
		for _, k := range env.SetKeys() {
			if config.UnderPrefix(k.Key, o.prefix) { // in any form: App.Security.User.name too
				b.Refuse(k.Key, reason)
			}
		}
		for _, name := range variables {
			if _, under := config.VariableUnder(name, o.prefix); under {
				b.RefuseVariable(name, reason)
			}
		}
	}
}

// starterNames names the starters svc includes.
func (svc Service[S]) starterNames() []string {
	names := make([]string, len(svc.Starters))
	for i, st := range svc.Starters {
		names[i] = st.Name
	}
	return names
}

// Provide hands v, what a starter made for the service (the datasource
// starter's connection pool), to Service.Start and to the starters that
// run after it, which find it by its type with Provided, as Spring
// injects an auto-configured bean by its type. A second value of one
// type replaces the first.
func Provide[T any](a *App, v T) {
	a.mustBeStarting("Provide")
	if a.provided == nil {
		a.provided = map[reflect.Type]any{}
	}
	a.provided[reflect.TypeFor[T]()] = v
}

// Provided returns the value of type T that a starter provided, and
// whether one did.
func Provided[T any](a *App) (T, bool) {
	v, ok := a.provided[reflect.TypeFor[T]()].(T)
	return v, ok
}

// TranslateErrors adds a translation of the errors that the service's
// routes return, applied before Service.Classify, as Spring's exception
// translators turn a driver's SQLException into a DataAccessException: a
// starter turns those of its library's errors that mean an outage into
// an *outage.Error, so that they are 503s whichever route returns them.
// translate returns the error it was given when it has nothing to say.
func (a *App) TranslateErrors(translate func(error) error) {
	a.mustBeStarting("TranslateErrors")
	a.translators = append(a.translators, translate)
}

// Sessions returns the session settings, for a starter that opens a
// session store.
func (a *App) Sessions() session.Settings { return a.settings.sessions }

// SettingError is the error a starter's start returns when the setting
// key, bound without fault, cannot be used for reason (an issuer whose
// discovery document names another): the failure report shows the
// setting with its value and where it was set, as for a setting that
// does not parse.
func (a *App) SettingError(key, reason string) error {
	return &config.SettingError{Value: a.binder.Value(key, ""), Reason: reason}
}

// UseSessionStore makes store the application's HTTP session store in
// place of the in-memory one, reports its counts, and closes it when the
// application stops. A starter calls it when app.session.store-type names
// its store.
func (a *App) UseSessionStore(store session.Store) {
	a.mustBeStarting("UseSessionStore")
	a.OnClose(store.Close)
	a.sessions = store
	a.metrics.Sessions(store.Len, store.Max(), store.Evicted)
}
