package boot

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/server"
)

// settings are the framework's own settings, one struct per area, with
// Spring Boot's names and, where they serve a request's latency, shorter
// defaults.
type settings struct {
	server     server.Settings
	management managementSettings
	sessions   sessionSettings
	security   securitySettings // the rules, whichever starter authenticates (security.go)
	openapiUI  bool             // serve Swagger UI at /swagger-ui.html
	logFormat  string           // "text" or "json"
	logLevels  logLevels        // logging.level.root and logging.level.<name>
	// failOnUnknown refuses to start with a key that nothing reads
	// (unknown.go), rather than warning.
	failOnUnknown bool
	cors          server.CORS // which pages of other origins may call
}

// sessionSettings say where HTTP sessions live, how long they last and
// what the cookie that names them looks like.
type sessionSettings struct {
	timeout     time.Duration // a session idle this long ends
	maxSessions int           // past it, the least recently used session ends
	storeType   string        // "memory" or "redis"
}

type managementSettings struct {
	include    []string
	exclude    []string
	showValues string
	health     actuator.HealthDisplay
	server     server.Management // a port of its own, where it listens, its TLS
	metrics    bool              // record request metrics for /actuator/prometheus
	histogram  bool              // http_server_requests_seconds with Micrometer's buckets
	// histogramSet says that histogram was set, not defaulted: with spans
	// exported, the histogram is on unless set off, for its exemplars.
	histogramSet bool
	tags         map[string]string // management.metrics.tags.*: labels of every series
	actuator     actuatorSettings
	tracing      tracing.Options

	// configPropsShowValues is management.endpoint.configprops.show-values.
	configPropsShowValues string
}

// actuatorSettings are the management endpoints' own: where they live,
// what health watches, and what the diagnostics may do.
type actuatorSettings struct {
	basePath        string // the endpoints' base path; "" is the root
	serverBasePath  string // prefixes basePath on a management port of its own
	diskSpace       actuator.DiskSpace
	healthGroups    map[string][]string // user-defined health groups: name → included components
	access          map[string]string   // each endpoint's access: none, read-only, unrestricted (endpointaccess.go)
	recordExchanges bool                // keep the recent exchanges for /actuator/httpexchanges
}

// bindSettings reads the framework's settings from env through b. --help
// binds with it too, to list the settings and their defaults from the same
// calls. loggers are the names logging.level.<name> may set from the
// environment.
func bindSettings(b *config.Binder, env *config.Environment, loggers []string) settings {
	s := settings{
		server:   server.Bind(b),
		sessions: bindSessionSettings(b),
		management: managementSettings{
			include:      config.Bind(b, "management.endpoints.web.exposure.include", []string{"health"}, config.List, "management endpoints reachable over HTTP (* for all)"),
			exclude:      config.Bind(b, "management.endpoints.web.exposure.exclude", nil, config.List, "... minus these"),
			showValues:   config.Bind(b, "management.endpoint.env.show-values", "never", config.OneOf("never", "when-authorized", "always"), "always shows values in /actuator/env (secrets stay masked); never, when-authorized"),
			health:       bindHealthDisplay(b),
			metrics:      config.Bind(b, "management.metrics.enabled", true, config.Bool, "record request metrics for /actuator/prometheus and /actuator/metrics"),
			histogram:    config.Bind(b, histogramKey, false, config.Bool, "publish http_server_requests_seconds as a histogram with Micrometer's buckets (_bucket), not only _count, _sum and _max; on by default while spans are exported, for the exemplars on its buckets"),
			histogramSet: b.IsSet(histogramKey),
			tags:         bindCommonTags(b),
			actuator:     bindActuatorSettings(b, env),
			tracing:      bindTracingSettings(b, env),
		},
		security:  bindSecurity(b),
		openapiUI: config.Bind(b, "app.openapi.ui.enabled", false, config.Bool, "serve Swagger UI at /swagger-ui.html, reading /v3/api-docs"),
		logFormat: config.Bind(b, "logging.format", "text", config.OneOf("text", "json"), "text or json log lines on stdout"),
		logLevels: bindLogLevels(b, loggers),

		failOnUnknown: config.Bind(b, failOnUnknownKey, false, config.Bool, "true: a setting under server., management., app., logging., spring. or the service's own root that nothing reads stops start-up; false: it is warned about"),
		cors:          server.BindCORS(b),
	}
	s.management.server = server.BindManagement(b, s.server)
	s.management.configPropsShowValues = config.Bind(b, "management.endpoint.configprops.show-values", "never", config.OneOf("never", "when-authorized", "always"), "always shows values in /actuator/configprops (secrets stay masked); never, when-authorized")
	return s
}

// bindSessionSettings reads the session settings, with Spring Boot's and
// Spring Session's names (spring. renamed app.); see bindRedisSettings for
// Redis's. As in Spring Session, app.session.timeout (spring.session.timeout)
// wins over server.servlet.session.timeout when set.
func bindSessionSettings(b *config.Binder) sessionSettings {
	servletTimeout := config.Bind(b, "server.servlet.session.timeout", 30*time.Minute, config.DurationAtLeast(time.Second), "an HTTP session idle this long ends (Redis's expiry with the Redis store)")
	return sessionSettings{
		timeout:     config.Bind(b, "app.session.timeout", servletTimeout, config.DurationAtLeast(time.Second), "Spring Session's name for the session timeout (spring.session.timeout): wins over server.servlet.session.timeout when set"),
		maxSessions: config.Bind(b, "server.servlet.session.max-sessions", 100_000, config.IntIn(1, 100_000_000), "sessions held at most; past it one ends: the least recently used whose cookie never came back, else the least recently used (in memory; with Redis, those this process follows)"),
		storeType:   config.Bind(b, "app.session.store-type", "memory", config.OneOf("memory", "redis"), "memory or redis: where HTTP sessions live"),
	}
}

// bindHealthDisplay reads what /actuator/health shows. As in Spring,
// show-components follows show-details unless it is set.
func bindHealthDisplay(b *config.Binder) actuator.HealthDisplay {
	show := config.OneOf("never", "when-authorized", "always")
	details := config.Bind(b, "management.endpoint.health.show-details", "never", show, "always shows the health components' details; never; when-authorized: to an authenticated user (see management.endpoint.health.roles)")
	return actuator.HealthDisplay{
		ShowDetails:    details,
		ShowComponents: config.Bind(b, "management.endpoint.health.show-components", details, show, "always lists the health components (db, redis); defaults to show-details"),
	}
}

// bindActuatorSettings reads the management endpoints' own settings,
// with Spring's names and defaults.
func bindActuatorSettings(b *config.Binder, env *config.Environment) actuatorSettings {
	return actuatorSettings{
		basePath:       config.Bind(b, "management.endpoints.web.base-path", actuator.DefaultBasePath, pathPrefix, "where the management endpoints live (/ for the root, without an index)"),
		serverBasePath: config.Bind(b, "management.server.base-path", "", pathPrefix, "prefixes the base path when management has a port of its own"),
		diskSpace: actuator.DiskSpace{
			Path:      config.Bind(b, "management.health.diskspace.path", ".", config.String, "the file system the diskSpace health component watches"),
			Threshold: int64(config.Bind(b, "management.health.diskspace.threshold", config.ByteSize(actuator.DefaultDiskSpaceThreshold), config.DataSize, "diskSpace is DOWN with less free than this (B, KB, MB, GB)")),
		},
		healthGroups:    bindHealthGroups(b, env),
		access:          bindEndpointAccess(b, env),
		recordExchanges: config.Bind(b, "management.httpexchanges.recording.enabled", false, config.Bool, "keep the last 100 requests for /actuator/httpexchanges"),
	}
}

const histogramKey = "management.metrics.distribution.percentiles-histogram.http.server.requests"

// bindCommonTags reads management.metrics.tags.<key>, Micrometer's common
// tags: a label of every series, named as Micrometer names a tag key.
// Spring's dashboards select on application.
func bindCommonTags(b *config.Binder) map[string]string {
	const prefix = "management.metrics.tags."
	tags := config.BindPrefixed(b, prefix, []string{"application"}, config.String,
		"a label of every series of /actuator/prometheus (application=...), as Spring's dashboards select on; any management.metrics.tags.<key> adds a label <key>")
	for _, key := range slices.Sorted(maps.Keys(tags)) {
		if err := metrics.CheckTag(key); err != nil {
			b.Refuse(prefix+key, err.Error())
			delete(tags, key)
		}
	}
	return tags
}

// bindTracingSettings reads Spring Boot's tracing settings, and
// OpenTelemetry's variables (OTEL_EXPORTER_OTLP_ENDPOINT...; see
// tracing.BindVariables), which stand in for the settings that are not
// set, as the defaults: a setting the service was given wins, as an
// OpenTelemetry SDK's configuration in code wins over its variables.
// Spans are recorded only with an OTLP endpoint to send them to;
// Spring's defaults are kept otherwise (enabled, 10% of the traces that
// start here, 10 s per export, no compression).
func bindTracingSettings(b *config.Binder, env *config.Environment) tracing.Options {
	otel := tracing.BindVariables(b)
	// The headers are a map, a key per header (as Spring binds
	// Map<String, String>), found in the settings files and the command
	// line; the environment cannot list its variables, so there it is
	// OTEL_EXPORTER_OTLP_HEADERS that sets them.
	headers := map[string]string{}
	for _, key := range env.KeysWithPrefix(tracing.HeadersPrefix) {
		name := strings.TrimPrefix(key, tracing.HeadersPrefix)
		headers[name] = config.Bind(b, key, "", tracing.HeaderValue(name))
	}
	if len(headers) == 0 {
		headers = otel.Headers
	}
	return tracing.Options{
		Enabled:            config.Bind(b, "management.tracing.enabled", true, config.Bool, "record a span per request when spans have an endpoint (management.otlp.tracing.endpoint, or OTEL_EXPORTER_OTLP_ENDPOINT)"),
		Probability:        config.Bind(b, "management.tracing.sampling.probability", 0.1, config.Probability, "share of the traces that start here that are recorded (0 to 1); a caller's traceparent decides for its own"),
		Endpoint:           config.Bind(b, "management.otlp.tracing.endpoint", otel.Endpoint, tracing.ParseEndpoint, "OTLP/HTTP URL spans are sent to, e.g. http://localhost:4318/v1/traces (unset: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; none: no spans recorded)"),
		Headers:            headers,
		Compression:        config.Bind(b, "management.otlp.tracing.compression", cmp.Or(otel.Compression, "none"), tracing.ParseCompression, "none or gzip: how span exports are compressed (unset: OTEL_EXPORTER_OTLP_COMPRESSION)"),
		Timeout:            config.Bind(b, "management.otlp.tracing.timeout", cmp.Or(otel.Timeout, 10*time.Second), config.Timeout, "bound on each span export, its retries included, and on the last one at shutdown (unset: OTEL_EXPORTER_OTLP_TIMEOUT, in ms)"),
		Service:            config.Bind(b, "app.application.name", "", config.String, "the application's name, the service.name of its spans (OTEL_SERVICE_NAME overrides it); unset, the service's own name"),
		ResourceAttributes: config.BindPrefixed(b, tracing.ResourceAttributesPrefix, nil, config.String),
		Variables:          otel,
	}
}

// healthGroupName is the <name> of a key
// management.endpoint.health.group.<name>.include, where <name> has no
// dot.
func healthGroupName(key string) (string, bool) {
	name, ok := strings.CutPrefix(key, "management.endpoint.health.group.")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, ".include")
	return name, ok && name != "" && !strings.Contains(name, ".")
}

// bindHealthGroups reads the user's health groups. Their names are part
// of their keys, so the keys are found among those the settings files and
// the command line define; an environment variable cannot name a group of
// its own, as the environment is never listed whole.
func bindHealthGroups(b *config.Binder, env *config.Environment) map[string][]string {
	var groups map[string][]string
	for _, key := range env.KeysWithPrefix("management.endpoint.health.group.") {
		name, ok := healthGroupName(key)
		if !ok {
			continue
		}
		if groups == nil {
			groups = map[string][]string{}
		}
		groups[name] = config.Bind(b, key, nil, config.List)
	}
	return groups
}

// pathPrefix reads a base path as Spring does: empty, or starting with
// a slash; a trailing slash is dropped, so "/" is the root ("").
func pathPrefix(s string) (string, error) {
	if s != "" && !strings.HasPrefix(s, "/") {
		return "", fmt.Errorf("want a path that starts with /")
	}
	return strings.TrimSuffix(s, "/"), nil
}

// ownPort reports whether the management endpoints have a port of their
// own, apart from the service's.
func (m managementSettings) ownPort() bool { return m.server.OwnPort() }

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

// logLevels are logging.level.root and logging.level.<name>.
type logLevels struct {
	root   logging.Level
	byName map[string]logging.Level // a logger's or a group's
}

// bindLogLevels reads the levels. The environment sets a level only for
// a name in known (LOGGING_LEVEL_GREETER_DISPATCH), since a variable's name
// does not say where the dots were; files and arguments may name any
// logger, as in Spring.
func bindLogLevels(b *config.Binder, known []string) logLevels {
	levels := logLevels{root: config.Bind(b, "logging.level.root", logging.Info, logging.ParseLevel, "level of every logger: TRACE, DEBUG, INFO, WARN, ERROR, OFF; --logging.level.<name> sets the logger <name> and those below it (<service>, <service>.dispatch, <service>.accesslog, ...; see /actuator/loggers) or a group (web, and the service's own)")}
	levels.byName = config.BindPrefixed(b, "logging.level.", known, logging.ParseLevel)
	for name, l := range levels.byName {
		if strings.EqualFold(name, logging.Root) {
			// ROOT, as Spring users may write it (logging.level.root
			// itself is bound above).
			levels.root = l
			delete(levels.byName, name)
		}
	}
	return levels
}
