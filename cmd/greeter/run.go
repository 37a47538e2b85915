package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/springport/greeter/framework/config"
)

// run starts the service and serves until ctx is cancelled or the process
// gets SIGINT or SIGTERM, then shuts down gracefully (see serve).
//
// A failure to start is returned and reported on stderr, in the manner of
// Spring Boot's "APPLICATION FAILED TO START".
func run(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stdout, stderr io.Writer) (err error) {
	var env *config.Environment
	defer func() {
		if err != nil {
			fmt.Fprintln(stderr, err)
			var se startupError
			if errors.As(err, &se) && logFormat(env, args, lookupEnv) == "json" {
				// A log pipeline that reads JSON lines gets the report as
				// one record too; the banner stays on stderr for people.
				newLogger("json", stdout).Error("application failed to start", "report", err.Error())
			}
		}
	}()
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		return printHelp(stdout)
	}
	if slices.Contains(args, "--version") {
		build, _ := debug.ReadBuildInfo()
		printVersion(stdout, build)
		return nil
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	env, err = config.Load(config.Options{Embedded: embeddedSettings(), Args: args, LookupEnv: lookupEnv})
	if err != nil {
		return startupError{err}
	}
	s, err := bindSettings(env)
	if err != nil {
		return startupError{err}
	}
	loggers := newLoggers(newLogger(s.logFormat, stdout).Handler(), s.logLevels)
	logger := loggers.Logger(serverLogger)
	logger.Info(profilesMessage(env.ExplicitProfiles(), env.DefaultProfiles()))

	a, err := newApp(ctx, env, s, loggers)
	if err != nil {
		return startupError{err}
	}
	defer func() {
		if cerr := a.close(); cerr != nil {
			logger.Error("closing components", "err", cerr)
		}
	}()
	// POST /actuator/shutdown shuts down as SIGTERM does.
	ctx, requestShutdown := context.WithCancel(ctx)
	defer requestShutdown()
	go func() {
		select {
		case <-a.shutdownRequested:
			requestShutdown()
		case <-ctx.Done():
		}
	}()
	ports := []port{{setting: "server.port", number: s.server.port, handler: a.handler, announce: "started"}}
	if a.management != nil {
		ports = append(ports, port{setting: "management.server.port", number: s.management.port, handler: a.management, announce: "management started"})
	}
	return serve(ctx, stop, ports, s.server, a.probes, logger)
}

// startupError is a failure before the service could serve; its message is
// the full report.
type startupError struct{ err error }

func (e startupError) Error() string { return failureReport(e.err) }
func (e startupError) Unwrap() error { return e.err }

// logFormat is logging.format as far as it can be known when start-up
// fails: from the settings when they loaded, else from the arguments and
// the environment as given.
func logFormat(env *config.Environment, args []string, lookupEnv func(string) (string, bool)) string {
	if env != nil {
		if v, ok, err := env.Lookup("logging.format"); ok && err == nil {
			return v.Resolved
		}
		return ""
	}
	for _, a := range slices.Backward(args) {
		if v, ok := strings.CutPrefix(a, "--logging.format="); ok {
			return v
		}
	}
	v, _ := lookupEnv("LOGGING_FORMAT")
	return v
}

// noEnvironment is an environment in which no variable is set: what
// --help and the tests read settings from when only the packaged files
// should count.
func noEnvironment(string) (string, bool) { return "", false }
