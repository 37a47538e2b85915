package boot

import (
	"io"
	"log/slog"
	"maps"
	"slices"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/tracing"
)

// The framework's loggers, named under the service's name in a dotted
// hierarchy, as a Spring operator would expect Java packages to be:
// logging.level.<service>=DEBUG sets them all with the service's own, and
// /actuator/loggers lists and changes them while the service runs.
const (
	serverLogger     = "server"     // start-up, the ports, shutdown, net/http's own errors
	dispatchLogger   = "dispatch"   // failed requests; refused ones at DEBUG
	accessLogLogger  = "accesslog"  // one line per request (server.access-log.enabled)
	componentsLogger = "components" // session-scoped state that could not be saved
	sessionsLogger   = "sessions"   // the in-memory session store
	redisLogger      = "redis"      // the Redis session store
	datasourceLogger = "datasource" // the datasource starter's pool and the migrations it runs
	tracingLogger    = "tracing"    // spans that could not be exported
	metricsLogger    = "metrics"    // metrics a scrape could not gather
	securityLogger   = "security"   // requests refused by security (401, 403), and its start-up warnings
)

// frameworkLoggers are the framework's loggers, there whichever stores
// are used, so that the endpoint lists the same ones on every instance.
var frameworkLoggers = []string{serverLogger, dispatchLogger, accessLogLogger, componentsLogger, sessionsLogger, redisLogger, datasourceLogger, tracingLogger, metricsLogger, securityLogger}

// webGroup is Spring's predefined group of what serves HTTP:
// logging.level.web=DEBUG sets it.
var webGroup = []string{serverLogger, dispatchLogger, accessLogLogger}

// loggers are the full names of svc's loggers, the framework's and its
// own: <service>.<name>.
func (svc Service[S]) loggers() []string {
	var names []string
	for _, n := range slices.Concat(frameworkLoggers, svc.Loggers) {
		names = append(names, svc.Name+"."+n)
	}
	return names
}

// loggerNames are the names logging.level.<name> may set from the
// environment: the service's name, every logger, and every group.
func (svc Service[S]) loggerNames() []string {
	names := append([]string{svc.Name}, svc.loggers()...)
	names = append(names, "web")
	return append(names, slices.Sorted(maps.Keys(svc.LoggerGroups))...)
}

// newLoggers returns the registry of svc's loggers, writing to base, at
// the levels the settings give.
func (svc Service[S]) newLoggers(base slog.Handler, levels logging.Settings) *logging.Registry {
	r := logging.NewRegistry(base, levels.Root)
	for _, name := range svc.loggers() {
		r.Handler(name)
	}
	groups := map[string][]string{"web": webGroup}
	maps.Copy(groups, svc.LoggerGroups)
	for group, members := range groups {
		full := make([]string, len(members))
		for i, m := range members {
			full[i] = svc.Name + "." + m
		}
		r.Group(group, full...)
	}
	// Groups first, so that a logger's own level beats its group's.
	names := slices.Sorted(maps.Keys(levels.Levels))
	for _, isGroup := range []bool{true, false} {
		for _, name := range names {
			if _, ok := groups[name]; ok == isGroup {
				r.Configure(name, levels.Levels[name])
			}
		}
	}
	return r
}

// newLogger logs to w in format (text, json, ecs, logstash or gelf: see
// logging.NewHandler) with the structured settings st. It lets every
// level through: the named loggers over it decide. A line about a request
// that is in a trace carries its trace's ids.
func newLogger(format string, w io.Writer, st logging.Structured) *slog.Logger {
	h, err := logging.NewHandler(format, w, logging.HandlerOptions{Trace: tracing.LogIDs, Structured: st})
	if err != nil {
		panic(err) // the settings allow only the formats NewHandler knows
	}
	return slog.New(h)
}

// logOutputs is where the lines go, with the structured settings st:
// stdout and, as Spring's file appender beside the console, the file
// logging.file.* names (closed last), in its own format.
func (a *App) logOutputs(p Process, st logging.Structured) (slog.Handler, error) {
	console := newLogger(a.settings.logging.ConsoleFormat(), p.Stdout, st)
	file, err := a.settings.logFile.Open(a.binder, func(err error) {
		console.Error("the log file cannot be written; lines go on to stdout (said once)", logging.ErrorKey, err)
	})
	if file == nil || err != nil {
		return console.Handler(), err
	}
	a.closers = append(a.closers, file.Close)
	return logging.Fanout(console.Handler(), newLogger(a.settings.logging.FileFormat(), file, st).Handler()), nil
}

// accessLog returns an observer that logs one line per request.
func accessLog(logger *slog.Logger) func(dispatch.Observation) {
	return func(o dispatch.Observation) {
		attrs := [...]slog.Attr{slog.String("method", o.Method), slog.String("path", o.Path()), slog.String("route", o.Route),
			slog.Int("status", o.Status), slog.Int64("bytes", o.Bytes),
			slog.Duration("duration", o.Duration), slog.String("request_id", o.RequestID), {}}
		n := len(attrs) - 1
		// The principal, when security is on and found one.
		if p, ok := principalAttr(o.Context()); ok {
			attrs[n] = p
			n++
		}
		logger.LogAttrs(o.Context(), slog.LevelInfo, "request", attrs[:n]...)
	}
}
