package main

import (
	"embed"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/redisstore"
	"github.com/springport/greeter/postgres"
)

// resources are the settings files packaged in the binary: the whole
// folder, so that an application.yml put there is packaged too.
//
//go:embed resources
var resources embed.FS

func embeddedSettings() fs.FS {
	sub, err := fs.Sub(resources, "resources")
	if err != nil {
		panic(err) // the folder is embedded above
	}
	return sub
}

// settings are the service's typed settings, one struct per area.
type settings struct {
	server     serverSettings
	app        appSettings
	management managementSettings
	stores     storeSettings
	logFormat  string    // "text" or "json"
	logLevels  logLevels // logging.level.root and logging.level.<name>
	bound      []string  // every key read, for /actuator/env to list the variables that set them
}

type serverSettings struct {
	port              int
	maxRequestSize    config.ByteSize // larger request bodies are refused with 413
	readHeaderTimeout time.Duration   // a client must finish its headers within this
	readTimeout       time.Duration   // … and its whole request within this
	writeTimeout      time.Duration
	idleTimeout       time.Duration // a keep-alive connection is closed after this
	shutdownTimeout   time.Duration // requests in flight get this long at shutdown
	sessionTimeout    time.Duration // an HTTP session idle this long ends
	maxSessions       int           // past it, the least recently used session ends
	shutdownDelay     time.Duration // readiness is down this long before listeners close
	accessLog         bool          // one log line per request
}

type appSettings struct {
	greeting    string
	example     exampleSettings
	numberScope component.Scope // the number component's lifecycle
	messages    messageSettings
	openapiUI   bool // serve Swagger UI at /swagger-ui.html
}

// messageSettings bound the message collection, and the pages that list
// it, so that no client can fill the memory or the database.
type messageSettings struct {
	limits message.Limits
	paging api.Paging
}

// exampleSettings are the spec's example of profile-specific settings.
type exampleSettings struct {
	propA string
	propB int32
}

type managementSettings struct {
	include    []string
	exclude    []string
	showValues string
	health     actuator.HealthDisplay
	port       int  // a port of its own; -1 when it shares server.port
	metrics    bool // record request metrics for /actuator/prometheus
	histogram  bool // http_server_requests_seconds with Micrometer's buckets
	actuator   actuatorSettings
	tracing    tracing.Options
}

// actuatorSettings are the management endpoints' own: where they live,
// what health watches, and what the diagnostics may do.
type actuatorSettings struct {
	basePath        string // the endpoints' base path; "" is the root
	serverBasePath  string // prefixes basePath on a management port of its own
	diskSpace       actuator.DiskSpace
	healthGroups    map[string][]string // user-defined health groups: name → included components
	shutdownAccess  string              // "unrestricted" lets POST /actuator/shutdown stop the service
	recordExchanges bool                // keep the recent exchanges for /actuator/httpexchanges
}

// storeSettings say where the service keeps its state: in memory unless
// a PostgreSQL database (messages) or Redis (sessions) is named.
type storeSettings struct {
	postgres     postgres.Options   // used when its URL is set
	sessionStore string             // "memory" or "redis"
	redis        redisstore.Options // used when sessionStore is "redis"
}

// atLeast100ms bounds the timeouts below: shorter ones parse, and leave
// no time for a request, a command or a connection. The pool's bounds are
// Hikari's own minimums (250 ms to connect, 10 s idle, 30 s of life).
var atLeast100ms = config.DurationAtLeast(100 * time.Millisecond)

// bindSettings reads every setting from env, reporting every bad one at
// once.
func bindSettings(env *config.Environment) (settings, error) {
	b := config.NewBinder(env)
	s := bindWith(b)
	s.management.actuator.healthGroups = bindHealthGroups(b, env)
	return s, b.Err()
}

// bindWith reads every setting through b; --help binds with it too, to
// list the settings and their defaults from the same calls.
func bindWith(b *config.Binder) settings {
	s := settings{
		server: serverSettings{
			port:              config.Bind(b, "server.port", 8080, config.Port),
			maxRequestSize:    config.Bind(b, "server.max-request-size", config.ByteSize(1<<20), config.DataSize),
			readHeaderTimeout: config.Bind(b, "server.read-header-timeout", 5*time.Second, atLeast100ms),
			readTimeout:       config.Bind(b, "server.read-timeout", 30*time.Second, atLeast100ms),
			writeTimeout:      config.Bind(b, "server.write-timeout", 30*time.Second, atLeast100ms),
			idleTimeout:       config.Bind(b, "server.idle-timeout", 60*time.Second, atLeast100ms),
			shutdownTimeout:   config.Bind(b, "server.shutdown-timeout", 30*time.Second, atLeast100ms),
			sessionTimeout:    config.Bind(b, "server.servlet.session.timeout", 30*time.Minute, config.DurationAtLeast(time.Second)),
			maxSessions:       config.Bind(b, "server.servlet.session.max-sessions", 100_000, config.IntIn(1, 100_000_000)),
			shutdownDelay:     config.Bind(b, "server.shutdown-delay", 0, config.DurationOrZero),
			accessLog:         config.Bind(b, "server.access-log.enabled", false, config.Bool),
		},
		app: appSettings{
			greeting: config.Bind(b, "app.greeting", "Hello World!", config.String),
			example: exampleSettings{
				propA: config.Bind(b, "app.example.prop-a", "", config.String),
				propB: config.Bind(b, "app.example.prop-b", int32(0), config.Int32),
			},
			numberScope: config.Bind(b, "app.number.scope", component.Prototype, numberScope),
			messages:    bindMessageSettings(b),
			openapiUI:   config.Bind(b, "app.openapi.ui.enabled", false, config.Bool),
		},
		management: managementSettings{
			include:    config.Bind(b, "management.endpoints.web.exposure.include", []string{"health"}, config.List),
			exclude:    config.Bind(b, "management.endpoints.web.exposure.exclude", nil, config.List),
			showValues: config.Bind(b, "management.endpoint.env.show-values", "never", config.OneOf("never", "when-authorized", "always")),
			port:       config.Bind(b, "management.server.port", -1, config.Port),
			health:     bindHealthDisplay(b),
			metrics:    config.Bind(b, "management.metrics.enabled", true, config.Bool),
			histogram:  config.Bind(b, "management.metrics.distribution.percentiles-histogram.http.server.requests", false, config.Bool),
			actuator:   bindActuatorSettings(b),
			tracing:    bindTracingSettings(b),
		},
		stores:    bindStoreSettings(b),
		logFormat: config.Bind(b, "logging.format", "text", config.OneOf("text", "json")),
		logLevels: bindLogLevels(b),
	}
	if s.management.port == s.server.port && s.server.port != 0 {
		s.management.port = -1 // the same port: shared
	}
	s.bound = b.Keys()
	return s
}

// bindMessageSettings reads the bounds of the collection and its pages.
// The page sizes are Spring Data's settings, with Spring Data's defaults.
func bindMessageSettings(b *config.Binder) messageSettings {
	return messageSettings{
		limits: message.Limits{
			MaxCount: int64(config.Bind(b, "app.messages.max-count", 1_000_000, config.IntIn(1, math.MaxInt))),
			MaxBytes: int64(config.Bind(b, "app.messages.max-total-size", config.ByteSize(512<<20), config.DataSize)),
		},
		paging: api.Paging{
			DefaultSize: int32(config.Bind(b, "app.data.web.pageable.default-page-size", api.DefaultPageSize, config.IntIn(1, math.MaxInt32))),
			MaxSize:     int32(config.Bind(b, "app.data.web.pageable.max-page-size", api.DefaultMaxPageSize, config.IntIn(1, math.MaxInt32))),
		},
	}
}

// bindHealthDisplay reads what /actuator/health shows. As in Spring,
// show-components follows show-details unless it is set.
func bindHealthDisplay(b *config.Binder) actuator.HealthDisplay {
	show := config.OneOf("never", "when-authorized", "always")
	details := config.Bind(b, "management.endpoint.health.show-details", "never", show)
	return actuator.HealthDisplay{
		ShowDetails:    details,
		ShowComponents: config.Bind(b, "management.endpoint.health.show-components", details, show),
	}
}

// bindActuatorSettings reads the management endpoints' own settings,
// with Spring's names and defaults.
func bindActuatorSettings(b *config.Binder) actuatorSettings {
	return actuatorSettings{
		basePath:       config.Bind(b, "management.endpoints.web.base-path", actuator.DefaultBasePath, pathPrefix),
		serverBasePath: config.Bind(b, "management.server.base-path", "", pathPrefix),
		diskSpace: actuator.DiskSpace{
			Path:      config.Bind(b, "management.health.diskspace.path", ".", config.String),
			Threshold: int64(config.Bind(b, "management.health.diskspace.threshold", config.ByteSize(actuator.DefaultDiskSpaceThreshold), config.DataSize)),
		},
		shutdownAccess:  config.Bind(b, "management.endpoint.shutdown.access", "none", config.OneOf("none", "read-only", "unrestricted")),
		recordExchanges: config.Bind(b, "management.httpexchanges.recording.enabled", false, config.Bool),
	}
}

// pathPrefix reads a base path as Spring does: empty, or starting with
// a slash; a trailing slash is dropped, so "/" is the root ("").
func pathPrefix(s string) (string, error) {
	if s != "" && !strings.HasPrefix(s, "/") {
		return "", fmt.Errorf("want a path that starts with /")
	}
	return strings.TrimSuffix(s, "/"), nil
}

// healthGroupName is the <name> of a key
// management.endpoint.health.group.<name>.include, where <name> has no
// dot. (Matched without a regular expression, which would be compiled at
// every start-up.)
func healthGroupName(key string) (string, bool) {
	name, ok := strings.CutPrefix(key, "management.endpoint.health.group.")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, ".include")
	return name, ok && name != "" && !strings.Contains(name, ".")
}

// bindHealthGroups reads the user's health groups. Their names are part
// of their keys, so the keys are found among those the settings files
// and the command line define; an environment variable cannot name a
// group of its own, as the environment is never listed whole.
func bindHealthGroups(b *config.Binder, env *config.Environment) map[string][]string {
	var groups map[string][]string
	for _, src := range env.PropertySources(nil) {
		for _, e := range src.Entries {
			name, ok := healthGroupName(e.Key)
			if !ok {
				continue
			}
			if groups == nil {
				groups = map[string][]string{}
			}
			groups[name] = config.Bind(b, e.Key, nil, config.List)
		}
	}
	return groups
}

// bindStoreSettings reads the stores' settings. Spring's names are kept,
// with spring. renamed app., so that a Spring user's settings for the
// Hikari pool, Spring Data Redis and Spring Session carry over; the
// timeouts are shorter than Spring's defaults (30 s for a pooled
// connection, 60 s for a Redis command) because a request waits for them:
// an outage should be a prompt 503, not a hung client.
func bindStoreSettings(b *config.Binder) storeSettings {
	return storeSettings{
		postgres: postgres.Options{
			URL:             config.Bind(b, "app.datasource.url", "", urlWithScheme("postgres", "postgresql")),
			Username:        config.Bind(b, "app.datasource.username", "", config.String),
			Password:        config.Bind(b, "app.datasource.password", "", config.String),
			MaxConns:        int32(config.Bind(b, "app.datasource.hikari.maximum-pool-size", 10, config.IntIn(1, 10_000))),
			MaxConnIdleTime: config.Bind(b, "app.datasource.hikari.idle-timeout", 10*time.Minute, config.DurationAtLeast(10*time.Second)),
			MaxConnLifetime: config.Bind(b, "app.datasource.hikari.max-lifetime", 30*time.Minute, config.DurationAtLeast(30*time.Second)),
			ConnectTimeout:  config.Bind(b, "app.datasource.hikari.connection-timeout", 5*time.Second, config.DurationAtLeast(250*time.Millisecond)),
			Timeout:         config.Bind(b, "app.jdbc.template.query-timeout", 5*time.Second, atLeast100ms),
		},
		sessionStore: config.Bind(b, "app.session.store-type", "memory", config.OneOf("memory", "redis")),
		redis: redisstore.Options{
			URL:            config.Bind(b, "app.data.redis.url", "redis://127.0.0.1:6379/0", urlWithScheme("redis", "rediss")),
			Namespace:      config.Bind(b, "app.session.redis.namespace", "app:session", config.String),
			ConnectTimeout: config.Bind(b, "app.data.redis.connect-timeout", 3*time.Second, atLeast100ms),
			Timeout:        config.Bind(b, "app.data.redis.timeout", 3*time.Second, atLeast100ms),
		},
	}
}

// urlWithScheme returns a parser for URLs of the given schemes. The value
// is not quoted in the reason: it may hold a password.
func urlWithScheme(schemes ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		if s == "" {
			return "", nil // unset: the in-memory default
		}
		scheme, _, ok := strings.Cut(s, "://")
		if ok && slices.Contains(schemes, strings.ToLower(scheme)) {
			return s, nil
		}
		return "", fmt.Errorf("want a URL that starts with %s://", strings.Join(schemes, ":// or "))
	}
}

// ownPort reports whether the management endpoints have a port of their
// own, apart from the service's.
func (m managementSettings) ownPort() bool { return m.port >= 0 }

// basePath is where the endpoints live: management.endpoints.web.base-path,
// under management.server.base-path on a port of their own, as in
// Spring; "/" for the root.
func (m managementSettings) basePath() string {
	base := m.actuator.basePath
	if m.ownPort() {
		base = m.actuator.serverBasePath + base
	}
	if base == "" {
		return "/"
	}
	return base
}

// numberScopes are the lifecycles the number endpoints are defined for,
// in the order the settings report names them.
var numberScopes = []component.Scope{component.Prototype, component.Request, component.Session, component.Singleton}

// numberScope reads app.number.scope: the Spring name of one of
// numberScopes, in any case (Singleton, REQUEST).
func numberScope(s string) (component.Scope, error) {
	names := make([]string, len(numberScopes))
	for i, scope := range numberScopes {
		names[i] = scope.String()
	}
	name, err := config.OneOf(names...)(s)
	if err != nil {
		return 0, err
	}
	return numberScopes[slices.Index(names, name)], nil
}
