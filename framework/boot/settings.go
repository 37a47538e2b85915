package boot

import (
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/logging/logfile"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/security"
	"github.com/springport/greeter/framework/server"
	"github.com/springport/greeter/framework/session"
)

// settings are the framework's own settings, one struct per area, with
// Spring Boot's names and, where they serve a request's latency, shorter
// defaults.
type settings struct {
	server     server.Settings
	management managementSettings
	sessions   session.Settings  // where HTTP sessions live, how long they last
	security   security.Settings // the rules, whichever starter authenticates (security.go)
	openapiUI  bool              // serve Swagger UI at /swagger-ui.html
	logging    logging.Settings  // logging.format, logging.level.*
	logFile    logfile.Settings  // logging.file.*, logging.logback.rollingpolicy.*
	// failOnUnknown refuses to start with a key that nothing reads
	// (unknown.go), rather than warning.
	failOnUnknown bool
	cors          server.CORS      // which pages of other origins may call
	paging        *dispatch.Paging // how the routes read a Pageable (app.data.web.*)
}

// managementSettings are management.*, each area's bound by its package.
type managementSettings struct {
	server   server.Management // a port of its own, where it listens, its TLS
	actuator actuator.Settings // the endpoints: exposure, paths, health, access
	metrics  metrics.Settings  // management.metrics.*
	tracing  tracing.Options   // management.tracing.*, management.opentelemetry.tracing.export.otlp.*
}

// bindSettings reads the framework's settings through b. --help
// binds with it too, to list the settings and their defaults from the same
// calls. loggers are the names logging.level.<name> may set from the
// environment.
func bindSettings(b *config.Binder, loggers []string) settings {
	s := settings{
		server:   server.Bind(b),
		sessions: session.Bind(b),
		management: managementSettings{
			actuator: actuator.Bind(b),
			metrics:  metrics.Bind(b),
			tracing:  tracing.Bind(b),
		},
		security:  security.Bind(b),
		openapiUI: config.Bind(b, "app.openapi.ui.enabled", false, config.Bool, "serve Swagger UI at /swagger-ui.html, reading /v3/api-docs"),
		logging:   logging.Bind(b, loggers),
		logFile:   logfile.Bind(b),

		failOnUnknown: config.Bind(b, failOnUnknownKey, false, config.Bool, "true: a setting under server., management., app., logging., spring. or the service's own root that nothing reads stops start-up; false: it is warned about"),
		cors:          server.BindCORS(b),
		paging:        server.BindPaging(b),
	}
	s.management.server = server.BindManagement(b, s.server)
	return s
}

// ownPort reports whether the management endpoints have a port of their
// own, apart from the service's.
func (m managementSettings) ownPort() bool { return m.server.OwnPort() }

// basePath is where the endpoints live (see actuator.Settings.BasePath).
func (m managementSettings) basePath() string { return m.actuator.BasePath(m.ownPort()) }
