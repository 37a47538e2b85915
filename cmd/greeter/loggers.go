package main

import (
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/logging"
)

// The service's loggers, one per package that logs, named in a dotted
// hierarchy under "greeter" as a Spring operator would expect Java
// packages to be: logging.level.greeter=DEBUG sets them all, and
// /actuator/loggers lists and changes them while the service runs.
const (
	serverLogger     = "greeter.server"     // start-up, the ports, shutdown, net/http's own errors
	dispatchLogger   = "greeter.dispatch"   // failed requests; refused ones at DEBUG
	accessLogLogger  = "greeter.accesslog"  // one line per request (server.access-log.enabled)
	componentsLogger = "greeter.components" // session-scoped state that could not be saved
	sessionsLogger   = "greeter.sessions"   // the in-memory session store
	postgresLogger   = "greeter.postgres"   // the PostgreSQL message store and its migrations
	redisLogger      = "greeter.redis"      // the Redis session store and its driver
	tracingLogger    = "greeter.tracing"    // spans that could not be exported
)

// loggerNames are the loggers there are, whichever stores are used, so
// that the endpoint lists the same ones on every instance.
var loggerNames = []string{serverLogger, dispatchLogger, accessLogLogger, componentsLogger, sessionsLogger, postgresLogger, redisLogger, tracingLogger}

// loggerGroups are Spring's two predefined groups, made of this service's
// loggers: logging.level.web=DEBUG sets what serves HTTP, .sql the
// database's.
var loggerGroups = map[string][]string{
	"web": {serverLogger, dispatchLogger, accessLogLogger},
	"sql": {postgresLogger},
}

// logLevels are logging.level.root and logging.level.<name>.
type logLevels struct {
	root   logging.Level
	byName map[string]logging.Level // a logger's or a group's
}

// bindLogLevels reads the levels. The environment sets a level only for
// a name the service knows (LOGGING_LEVEL_GREETER_DISPATCH), since a
// variable's name does not say where the dots were; files and arguments
// may name any logger, as in Spring.
func bindLogLevels(b *config.Binder) logLevels {
	levels := logLevels{root: config.Bind(b, "logging.level.root", logging.Info, logging.ParseLevel)}
	known := append([]string{"greeter"}, loggerNames...)
	for group := range loggerGroups {
		known = append(known, group)
	}
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

// newLoggers returns the registry of the service's loggers, writing to
// base, at the levels the settings give.
func newLoggers(base slog.Handler, levels logLevels) *logging.Registry {
	r := logging.NewRegistry(base, levels.root)
	for _, name := range loggerNames {
		r.Handler(name)
	}
	for group, members := range loggerGroups {
		r.Group(group, members...)
	}
	// Groups first, so that a logger's own level beats its group's.
	names := slices.Sorted(maps.Keys(levels.byName))
	for _, groups := range []bool{true, false} {
		for _, name := range names {
			if _, isGroup := loggerGroups[name]; isGroup == groups {
				r.Configure(name, levels.byName[name])
			}
		}
	}
	return r
}
