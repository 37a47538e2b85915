package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/springport/greeter/framework/config"
)

// settingMeanings says what each setting does, for --help. The keys and
// defaults come from the binding itself (bindWith), and a test fails when
// a bound setting has no meaning here, so the list cannot drift. The map
// is built for --help only, not at every start-up.
var settingMeanings = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"server.port":                                "listening port; 0 picks a free one",
		"server.max-request-size":                    "larger request bodies are refused with 413 (B, KB, MB, GB, TB, or bytes)",
		"server.read-header-timeout":                 "a client must send its headers within this",
		"server.read-timeout":                        "... and its whole request within this",
		"server.write-timeout":                       "bound on writing a response",
		"server.idle-timeout":                        "an idle keep-alive connection is closed after this",
		"server.shutdown-timeout":                    "grace period for requests in flight at shutdown",
		"server.servlet.session.timeout":             "an HTTP session idle this long ends (Redis's expiry with the Redis store)",
		"server.servlet.session.max-sessions":        "sessions held at most; past it the least recently used one ends (in memory; with Redis, those this process follows)",
		"server.shutdown-delay":                      "readiness reports OUT_OF_SERVICE this long before the listeners close",
		"server.access-log.enabled":                  "one log line per request",
		"app.greeting":                               "the greeting of /api/hello and /api/hello/{id}",
		"app.example.prop-a":                         "the spec's example of a string setting",
		"app.example.prop-b":                         "the spec's example of an integer setting (200 with the dev profile)",
		"app.number.scope":                           "lifecycle of the number component: prototype, request, session, singleton",
		"app.openapi.ui.enabled":                     "serve Swagger UI at /swagger-ui.html, reading /v3/api-docs",
		"app.messages.max-count":                     "messages held at most; a POST past it is refused with 507",
		"app.messages.max-total-size":                "bytes of message text held at most (B, KB, MB, GB); a POST or PUT past it is refused with 507",
		"app.data.web.pageable.default-page-size":    "the size of a page of GET /api/messages?page=N without &size=",
		"app.data.web.pageable.max-page-size":        "a larger &size= is cut to this",
		"management.endpoints.web.exposure.include":  "management endpoints reachable over HTTP (* for all)",
		"management.endpoints.web.exposure.exclude":  "... minus these",
		"management.endpoint.env.show-values":        "always shows values in /actuator/env (secrets stay masked); never, when-authorized",
		"management.server.port":                     "a separate port for /actuator (-1: the service's)",
		"management.metrics.enabled":                 "record request metrics for /actuator/prometheus and /actuator/metrics",
		"management.tracing.enabled":                 "record a span per request when management.otlp.tracing.endpoint is set",
		"management.tracing.sampling.probability":    "share of the traces that start here that are recorded (0 to 1); a caller's traceparent decides for its own",
		"management.otlp.tracing.endpoint":           "OTLP/HTTP URL spans are sent to, e.g. http://localhost:4318/v1/traces (empty: no spans recorded)",
		"management.otlp.tracing.timeout":            "bound on each span export, and on the last one at shutdown",
		"logging.format":                             "text or json log lines on stdout",
		"logging.level.root":                         "level of every logger: TRACE, DEBUG, INFO, WARN, ERROR, OFF; --logging.level.<name> sets the logger <name> and those below it (greeter, greeter.dispatch, greeter.accesslog, ...; see /actuator/loggers) or a group (web, sql)",
		"management.endpoint.health.show-details":    "always shows the health components' details; never, when-authorized",
		"management.endpoint.health.show-components": "always lists the health components (db, redis); defaults to show-details",
		"management.endpoints.web.base-path":         "where the management endpoints live (/ for the root, without an index)",
		"management.server.base-path":                "prefixes the base path when management has a port of its own",
		"management.health.diskspace.path":           "the file system the diskSpace health component watches",
		"management.health.diskspace.threshold":      "diskSpace is DOWN with less free than this (B, KB, MB, GB)",
		"management.endpoint.shutdown.access":        "unrestricted lets POST /actuator/shutdown (when exposed) stop the service; none, read-only",
		"management.httpexchanges.recording.enabled": "keep the last 100 requests for /actuator/httpexchanges",
		"app.datasource.url":                         "a postgres:// URL: keep the messages in PostgreSQL (empty: in memory)",
		"app.datasource.username":                    "overrides the URL's user",
		"app.datasource.password":                    "overrides the URL's password (never shown)",
		"app.datasource.hikari.maximum-pool-size":    "connections in the pool",
		"app.datasource.hikari.idle-timeout":         "an idle connection is closed after this",
		"app.datasource.hikari.max-lifetime":         "any connection is closed after this",
		"app.datasource.hikari.connection-timeout":   "bound on opening a connection",
		"app.jdbc.template.query-timeout":            "bound on each store operation; past it the request is a 503",
		"app.session.store-type":                     "memory or redis: where HTTP sessions live",
		"app.data.redis.url":                         "the Redis of the redis session store (rediss:// for TLS)",
		"app.session.redis.namespace":                "prefix of the session keys in Redis",
		"app.data.redis.connect-timeout":             "bound on connecting to Redis",
		"app.data.redis.timeout":                     "bound on each Redis command; past it the request is a 503",

		// Micrometer's distribution settings, named by meter.
		"management.metrics.distribution.percentiles-histogram.http.server.requests": "publish http_server_requests_seconds as a histogram with Micrometer's buckets (_bucket), not only _count, _sum and _max",
	}
})

// printHelp writes what --help answers: how to set a setting, then every
// setting with its default and meaning. The defaults are what the service
// would use here with no arguments and no environment: the settings files
// it would read (embedded, ./, ./config/) included.
func printHelp(w io.Writer) error {
	env, err := config.Load(config.Options{Embedded: embeddedSettings(), LookupEnv: noEnvironment})
	if err != nil {
		return err
	}
	b := config.NewBinder(env)
	bindWith(b)
	fmt.Fprintln(w, "Usage: greeter [--key=value ...]")
	fmt.Fprintln(w, "")
	fmt.Fprintln(w, "Each setting may also come from an environment variable (server.port: SERVER_PORT) or")
	fmt.Fprintln(w, "from application.properties in ./ or ./config/; see the README. --version prints the version.")
	fmt.Fprintln(w, "Durations: 30s, 5m, 1m30s, 250ms, 1d, PT30S, or a bare number of milliseconds. Sizes: 512KB,")
	fmt.Fprintln(w, "10MB (1KB = 1024 bytes), or bytes. Choices and units in any case: ALWAYS, 10mb.")
	fmt.Fprintln(w, "")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tDEFAULT\tMEANING")
	for _, key := range b.Keys() {
		def, _ := b.Default(key)
		if v, ok, err := env.Lookup(key); ok && err == nil {
			def = v.Resolved // set by an embedded settings file
		}
		if def == "" {
			def = "(none)"
		}
		meaning := settingMeanings()[key]
		if name, ok := strings.CutPrefix(key, "logging.level."); ok && meaning == "" {
			// A settings file here names a logger: logging.level.<name>
			// is a family, bound only for the names that are set.
			meaning = "level of the logger or group " + name
		}
		fmt.Fprintf(tw, "--%s\t%s\t%s\n", key, def, meaning)
	}
	return tw.Flush()
}
