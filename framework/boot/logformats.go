package boot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/springport/greeter/framework/logging"
)

// processStart is when this program started, near enough: its packages'
// variables are set before main runs. The "Started" line says how long
// the process has been running, as Spring's says of the JVM.
var processStart = time.Now()

// startedMessage is the line that says the service serves, as Spring
// Boot's: "Started greeter in 0.412 seconds (process running for 0.530)".
// Tools find the port in the addr that follows it (boottest.StartedAddr).
func startedMessage(name string, startup, running time.Duration) string {
	return fmt.Sprintf("Started %s in %.3f seconds (process running for %.3f)", name, startup.Seconds(), running.Seconds())
}

// newLogger logs to w in format (text, json, ecs, logstash or
// gelf; see logging.NewHandler), with st's structured settings. It lets
// every level through: the named loggers over it decide. A line about a
// request that is in a trace carries its trace and span ids.
func newLogger(format string, w io.Writer, st logging.Structured) *slog.Logger {
	h, err := logging.NewHandler(format, w, logging.HandlerOptions{Trace: traceIDs, Structured: st})
	if err != nil {
		// The settings allow only the formats NewHandler knows.
		panic(err)
	}
	return slog.New(h)
}

// traceIDs are the ids of the trace and span of ctx, if it is in one.
func traceIDs(ctx context.Context) (traceID, spanID string, ok bool) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", "", false
	}
	return sc.TraceID().String(), sc.SpanID().String(), true
}

// structured are the structured formats' settings with Spring's defaults
// filled in: the service's name and host are app.application.name, else
// the service's own Name; its version is the module's, when it has one.
func (svc Service[S]) structured(s settings) logging.Structured {
	st := s.logging.Structured
	name := s.management.tracing.Service
	if name == "" {
		name = svc.Name
	}
	build, _ := debug.ReadBuildInfo()
	version := moduleVersion(build)
	if version == "(devel)" {
		version = "" // no version: none is written, as Spring writes none
	}
	st.ECS.Name = orDefault(st.ECS.Name, name)
	st.ECS.Version = orDefault(st.ECS.Version, version)
	st.GELF.Host = orDefault(st.GELF.Host, name)
	st.GELF.Version = orDefault(st.GELF.Version, version)
	return st
}

func orDefault(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// consoleLogger is the logger of the console (p.Stdout), in the format
// the settings give it (logging.Settings.ConsoleFormat).
func (svc Service[S]) consoleLogger(s settings, w io.Writer) *slog.Logger {
	return newLogger(s.logging.ConsoleFormat(), w, svc.structured(s))
}

// warnFormats warns when logging.format is set beside
// logging.structured.format.console, which decides.
func (a *App) warnFormats() {
	if st := a.settings.logging.Structured.Console; st != "" && a.binder.IsSet("logging.format") {
		a.logger.Warn("logging.format is not read: logging.structured.format.console sets the console's format",
			"logging.format", a.settings.logging.Format, "logging.structured.format.console", st)
	}
}
