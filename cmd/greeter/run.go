package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/springport/greeter/actuator"
	"github.com/springport/greeter/api"
	"github.com/springport/greeter/component"
	"github.com/springport/greeter/config"
	"github.com/springport/greeter/dispatch"
	"github.com/springport/greeter/message"
	"github.com/springport/greeter/openapi"
)

// maxHeaderBytes bounds a request's header block; past it the server
// answers 431.
const maxHeaderBytes = 64 << 10

// run starts the service and serves until ctx is cancelled or the process
// gets SIGINT or SIGTERM, then shuts down gracefully: the listener closes at
// once and requests in flight get up to server.shutdown-timeout to finish.
//
// A failure to start is returned and reported on stderr, in the manner of
// Spring Boot's "APPLICATION FAILED TO START".
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if err != nil {
			fmt.Fprintln(stderr, err)
		}
	}()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	env, err := config.Load(config.Options{Embedded: embeddedSettings(), Args: args, Getenv: getenv})
	if err != nil {
		return startupError{err}
	}
	s, err := bindSettings(env)
	if err != nil {
		return startupError{err}
	}
	env.Seal()
	logger := newLogger(s.logFormat, stdout)
	logger.Info(env.ProfilesLine())

	registry := &component.Registry{}
	declareComponents(registry, s.app.numberScope, time.Now)
	components, err := registry.Start(env.ActiveProfiles(), component.Options{
		Sessions: component.SessionOptions{IdleTimeout: s.server.sessionTimeout},
	})
	if err != nil {
		return startupError{err}
	}
	defer func() {
		if cerr := components.Close(); cerr != nil {
			logger.Error("closing components", "err", cerr)
		}
	}()
	messages, err := component.Lookup[*message.Collection](components, ctx, "messages")
	if err != nil {
		return startupError{err}
	}
	valA, err := component.Lookup[api.NumberSource](components, ctx, "numberControllerA")
	if err != nil {
		return startupError{err}
	}
	valB, err := component.Lookup[api.NumberSource](components, ctx, "numberControllerB")
	if err != nil {
		return startupError{err}
	}
	routes := api.Routes(s.app.greeting, messages, valA, valB)
	routes = append(routes, actuator.Routes(actuator.Options{
		Exposure:   actuator.Exposure{Include: s.management.include, Exclude: s.management.exclude},
		Env:        env,
		ShowValues: s.management.showValues,
		Components: components.Components,
	})...)
	var dispatcher *dispatch.Dispatcher
	routes = append(routes, openapi.Routes(openapi.Info{Title: "greeter", Version: version()},
		func() []dispatch.RouteInfo { return apiOnly(dispatcher.Routes()) })...)
	dispatcher, err = dispatch.New(dispatch.Options{Logger: logger, Classify: api.Classify, MaxBodyBytes: s.server.maxRequestSize}, routes...)
	if err != nil {
		return startupError{err}
	}
	handler := components.Middleware(dispatcher)

	ln, err := net.Listen("tcp", ":"+strconv.Itoa(s.server.port))
	if err != nil {
		return startupError{fmt.Errorf("cannot listen on server.port=%d: %w", s.server.port, err)}
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: s.server.readHeaderTimeout,
		ReadTimeout:       s.server.readTimeout,
		WriteTimeout:      s.server.writeTimeout,
		IdleTimeout:       s.server.idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("started", "addr", ln.Addr().String())

	select {
	case err = <-served:
		return err
	case <-ctx.Done():
	}
	stop() // a second SIGINT or SIGTERM now ends the process at once
	logger.Info("shutting down", "timeout", s.server.shutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.server.shutdownTimeout)
	defer cancel()
	if err = srv.Shutdown(shutdownCtx); err != nil {
		// Requests still in flight are cut off; the exit status says the
		// shutdown was not graceful.
		srv.Close()
		<-served
		return fmt.Errorf("graceful shutdown did not finish within server.shutdown-timeout=%s: %w", s.server.shutdownTimeout, err)
	}
	if err = <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

// startupError is a failure before the service could serve; its message is
// the full report.
type startupError struct{ err error }

func (e startupError) Error() string { return config.Report(e.err) }
func (e startupError) Unwrap() error { return e.err }

func newLogger(format string, w io.Writer) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// apiOnly keeps the service's own routes, as springdoc documents them:
// not the management endpoints, not the document itself.
func apiOnly(routes []dispatch.RouteInfo) []dispatch.RouteInfo {
	var kept []dispatch.RouteInfo
	for _, r := range routes {
		if strings.HasPrefix(r.Pattern, "/api/") {
			kept = append(kept, r)
		}
	}
	return kept
}

// version is the module's version from the build information, "(devel)"
// for a build from a work tree.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
