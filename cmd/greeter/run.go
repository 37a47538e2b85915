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
	"syscall"
	"time"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/inmem"
	"github.com/springport/greeter/management/actuator"
	"github.com/springport/greeter/management/metrics"
	"github.com/springport/greeter/management/openapi"
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
	logger := newLogger(s.logFormat, stdout)
	logger.Info(profilesMessage(env.ExplicitProfiles(), env.DefaultProfiles()))

	a, err := newApp(env, s, logger)
	if err != nil {
		return startupError{err}
	}
	defer func() {
		if cerr := a.components.Close(); cerr != nil {
			logger.Error("closing components", "err", cerr)
		}
		a.sessions.Close()
	}()
	servers := []*server{{name: "server.port", port: s.server.port, handler: a.handler, log: "started"}}
	if a.management != nil {
		servers = append(servers, &server{name: "management.server.port", port: s.management.port, handler: a.management, log: "management started"})
	}

	// Listen on every port before serving on any, so that a taken port
	// fails start-up as a whole.
	for _, sv := range servers {
		if sv.ln, err = net.Listen("tcp", ":"+strconv.Itoa(sv.port)); err != nil {
			closeListeners(servers)
			return startupError{fmt.Errorf("cannot listen on %s=%d: %w", sv.name, sv.port, err)}
		}
	}
	served := make(chan error, len(servers))
	for _, sv := range servers {
		sv.srv = &http.Server{
			Handler:           sv.handler,
			ReadHeaderTimeout: s.server.readHeaderTimeout,
			ReadTimeout:       s.server.readTimeout,
			WriteTimeout:      s.server.writeTimeout,
			IdleTimeout:       s.server.idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		}
		go func() { served <- sv.srv.Serve(sv.ln) }()
		logger.Info(sv.log, "addr", sv.ln.Addr().String())
	}

	select {
	case err = <-served:
		closeServers(servers)
		return err
	case <-ctx.Done():
	}
	stop() // a second SIGINT or SIGTERM now ends the process at once
	a.probes.RefuseTraffic()
	logger.Info("shutting down: readiness is OUT_OF_SERVICE", "delay", s.server.shutdownDelay, "timeout", s.server.shutdownTimeout)
	// The delay lets load balancers see readiness fail and stop sending
	// requests before the listeners close.
	time.Sleep(s.server.shutdownDelay)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.server.shutdownTimeout)
	defer cancel()
	shutdownErrs := make(chan error, len(servers))
	for _, sv := range servers {
		go func() { shutdownErrs <- sv.srv.Shutdown(shutdownCtx) }()
	}
	var failed error
	for range servers {
		if e := <-shutdownErrs; e != nil {
			failed = e
		}
	}
	if failed != nil {
		// Requests still in flight are cut off; the exit status says the
		// shutdown was not graceful.
		closeServers(servers)
		return fmt.Errorf("graceful shutdown did not finish within server.shutdown-timeout=%s: %w", s.server.shutdownTimeout, failed)
	}
	for range servers {
		if e := <-served; !errors.Is(e, http.ErrServerClosed) {
			return e
		}
	}
	logger.Info("stopped")
	return nil
}

// app is the wired service: the handlers for its ports and what must be
// closed when it stops.
type app struct {
	handler    http.Handler // for server.port
	management http.Handler // for management.server.port; nil when it is server.port
	probes     *actuator.Probes
	components *component.Container
	sessions   *inmem.Sessions // closed after components
}

// newApp builds the service from its settings: components, routes,
// metrics and management endpoints. It listens on nothing, so tests and
// benchmarks can serve its handlers as they like.
func newApp(env *config.Environment, s settings, logger *slog.Logger) (_ *app, err error) {
	sessions := inmem.NewSessions(inmem.SessionOptions{IdleTimeout: s.server.sessionTimeout})
	registry := &component.Registry{}
	declared := declareComponents(registry, s.app.numberScope, time.Now)
	components, err := registry.Start(env.ActiveProfiles(), component.Options{Sessions: sessions})
	if err != nil {
		sessions.Close()
		return nil, err
	}
	a := &app{components: components, sessions: sessions}
	defer func() {
		if err != nil {
			components.Close()
			sessions.Close()
		}
	}()
	messages, err := declared.messages.Get(context.Background(), components)
	if err != nil {
		return nil, err
	}
	valA, err := declared.valA.Get(context.Background(), components)
	if err != nil {
		return nil, err
	}
	valB, err := declared.valB.Get(context.Background(), components)
	if err != nil {
		return nil, err
	}
	a.probes = actuator.NewProbes()
	var observers []func(dispatch.Observation)
	var prometheus http.Handler
	if s.management.metrics {
		m := metrics.New()
		observers, prometheus = append(observers, m.Observe), m.Handler()
	}
	if s.server.accessLog {
		observers = append(observers, accessLog(logger))
	}

	// The management endpoints share the service's port unless
	// management.server.port gives them their own.
	separate := s.management.port == 0 || (s.management.port > 0 && s.management.port != s.server.port)
	catalog := &dispatch.Catalog{}
	actuatorRoutes := actuator.Routes(actuator.Options{
		Exposure:        actuator.Exposure{Include: s.management.include, Exclude: s.management.exclude},
		Env:             env,
		Bound:           s.bound,
		ShowValues:      s.management.showValues,
		Components:      components.Components,
		Mappings:        catalog,
		Prometheus:      prometheus,
		PrometheusTypes: metrics.ContentTypes,
		Probes:          a.probes,
	})
	apiRoutes := api.Routes(s.app.greeting, messages, valA, valB)
	routes := append(apiRoutes, openapi.Routes(openapi.Info{Title: "greeter", Version: version()}, apiRoutes)...)
	if !separate {
		routes = append(routes, actuatorRoutes...)
	}
	opts := dispatch.Options{Logger: logger, Classify: api.Classify, MaxBodyBytes: s.server.maxRequestSize,
		Observers: observers, RequestIDs: s.server.accessLog, Catalog: catalog}
	service, err := dispatch.New(opts, routes...)
	if err != nil {
		return nil, err
	}
	a.handler = components.Middleware(service)
	if separate {
		if a.management, err = dispatch.New(opts, actuatorRoutes...); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// server is one listening port and what it serves.
type server struct {
	name    string // the setting that chose the port
	port    int
	handler http.Handler
	log     string // the message that announces it
	ln      net.Listener
	srv     *http.Server
}

func closeListeners(servers []*server) {
	for _, sv := range servers {
		if sv.ln != nil {
			sv.ln.Close()
		}
	}
}

func closeServers(servers []*server) {
	for _, sv := range servers {
		sv.srv.Close()
	}
}

// accessLog returns an observer that logs one line per request.
func accessLog(logger *slog.Logger) func(dispatch.Observation) {
	return func(o dispatch.Observation) {
		logger.LogAttrs(context.Background(), slog.LevelInfo, "request",
			slog.String("method", o.Method), slog.String("path", o.Path), slog.String("route", o.Route),
			slog.Int("status", o.Status), slog.Int64("bytes", o.Bytes),
			slog.Duration("duration", o.Duration), slog.String("request_id", o.RequestID))
	}
}

// startupError is a failure before the service could serve; its message is
// the full report.
type startupError struct{ err error }

func (e startupError) Error() string { return failureReport(e.err) }
func (e startupError) Unwrap() error { return e.err }

func newLogger(format string, w io.Writer) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// version is the module's version from the build information, "(devel)"
// for a build from a work tree.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
