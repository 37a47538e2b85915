// Package boot runs a service built on the framework, as Spring Boot's
// SpringApplication runs an application: the service gives its name, its
// packaged settings files, the settings of its own and a Start function
// that adds its stores, components and routes; boot does the rest, the
// same for every service.
//
// What Run does, in order:
//
//  1. --help lists every setting, the service's and the framework's, with
//     its default and meaning; --version prints the build.
//  2. The settings are loaded (config.Load: the packaged files, ./ and
//     ./config/, profiles, imports, the environment, the arguments) and
//     bound: the framework's own (server, management, logging, sessions,
//     tracing, OpenAPI) and the service's (Service.Bind). Every bad
//     setting is reported at once.
//  3. The loggers are built (logging.format, logging.level.*, logging.file.*),
//     under the service's name: <name>.server, <name>.dispatch, and the service's own.
//  4. The starters the service names (Service.Starters) start: the Redis
//     session starter opens Redis when app.session.store-type=redis. The
//     session store is in memory unless a starter gave one.
//  5. Service.Start adds the service's stores, health indicators, gauges,
//     components and routes to the App.
//  6. The management endpoints (/actuator/*: health, info, env, beans,
//     mappings, metrics, prometheus, loggers, and the diagnostics), the
//     OpenAPI document and Swagger UI, metrics, the access log and tracing
//     are wired, and one dispatcher is built per port: server.port, and
//     management.server.port when it differs.
//  7. Every port is listened on, on server.address and
//     management.server.address (every interface by default), before any
//     is served, so a taken port fails start-up as a whole; "started
//     addr=…" is logged. A port serves TLS from server.ssl.* (or
//     management.server.ssl.*) and HTTP/2 with server.http2.enabled.
//  8. On SIGINT, SIGTERM, a cancelled context or POST /actuator/shutdown,
//     readiness turns OUT_OF_SERVICE for server.shutdown-delay, the
//     listeners close, requests in flight get server.shutdown-timeout, then
//     the spans still queued are sent and the components, stores and
//     session store are closed, in reverse order. With
//     server.shutdown=immediate the connections close at once instead of
//     waiting for the requests in flight.
//
// A failure at any step before serving returns an error and prints Spring
// Boot's "APPLICATION FAILED TO START" report on stderr: each bad setting
// with its value, where it came from and why it is wrong, secrets masked.
//
// A service's main is then one call,
//
//	func main() { boot.Main(service) }
//
// and its tests run the same service through Run, on port 0, with
// arguments and an environment of their own (package boottest).
package boot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/server"
)

// Service is what a service gives Run. S is the type of its own settings,
// which Bind returns and Start receives.
type Service[S any] struct {
	// Name names the service: --help's usage line, --version, the root of
	// its loggers (<Name>.dispatch), the spans' service.name and the
	// OpenAPI document's title. It has no dot.
	Name string
	// Description says what the service does, in the OpenAPI document.
	Description string
	// License is the licence its API is offered under, as an SPDX
	// identifier ("MIT"), for the OpenAPI document; empty for none.
	License string
	// Tags describe the tags its routes group themselves by, for the
	// OpenAPI document.
	Tags []openapi.Tag

	// Resources are the files packaged in the binary, as Spring Boot's
	// src/main/resources: at their root, the settings files
	// application.properties, application-<profile>.yml and the like, the
	// lowest layer of the settings. Nil packages none.
	Resources fs.FS
	// Bind reads the service's own settings, through config.Bind; every
	// failure is reported with the framework's. --help lists every key it
	// reads, with its default and its meaning from Help.
	Bind func(b *config.Binder) S
	// Help says what each of the service's own settings does, by key. A
	// test of the service checks it against Bind with Undocumented.
	Help map[string]string

	// Loggers are the service's own loggers, named under Name: "postgres"
	// is the logger <Name>.postgres, which App.Logger returns. The
	// framework's (server, dispatch, accesslog, components, sessions,
	// redis, datasource, tracing, metrics, security) are there always.
	Loggers []string
	// LoggerGroups are groups of the service's own loggers that
	// logging.level.<group> sets at once, as {"sql": {"postgres"}}. The
	// framework's group web (server, dispatch, accesslog) is there always.
	LoggerGroups map[string][]string

	// Classify gives the service's errors their HTTP statuses (see
	// dispatch.Options.Classify). An error it leaves alone that is an
	// *outage.Error is a 503; any other is a 500.
	Classify func(error) *dispatch.Error

	// Starters are the optional subsystems the service includes (see
	// Starter): Redis sessions, say. One it does not name is not linked,
	// and its settings, when set, are refused or warned about, naming it.
	Starters []Starter

	// Start builds the service on app from its settings: its stores and
	// their health indicators, its gauges, its components and its routes.
	// An error stops start-up and is reported; what Start added to close
	// is closed. ctx is for start-up: it is cancelled as soon as a
	// shutdown begins, before the requests in flight have finished, so
	// what must outlive them (a pool, a worker) stops through OnClose, not
	// through ctx.
	Start func(ctx context.Context, app *App, settings S) error
}

// Main is a service's whole main function: it runs svc in this program's
// process (OSProcess: its arguments, environment and standard streams;
// see Run), and exits with status 1 when Run fails, having reported why.
// Tests run the same service through Run (boottest does), with arguments
// and an environment of their own.
func Main[S any](svc Service[S]) {
	if err := Run(context.Background(), svc, OSProcess()); err != nil {
		os.Exit(1) // Run has reported it
	}
}

// Run runs svc in process p until ctx is cancelled, the process gets
// SIGINT or SIGTERM, or POST /actuator/shutdown asks it to stop, then
// shuts it down gracefully. Log lines go to p.Stdout; a failure to start
// is reported on p.Stderr and returned. A shutdown that does not finish
// within server.shutdown-timeout returns an error too.
func Run[S any](ctx context.Context, svc Service[S], p Process) (err error) {
	began := time.Now()
	p = p.orDefaults()
	args, lookupEnv, stdout := p.Args, p.LookupEnv, p.Stdout
	var env *config.Environment
	defer func() {
		if err != nil {
			fmt.Fprintln(p.Stderr, err)
			var se startupError
			setting := func(key string) string { return logFormat(key, env, args, lookupEnv) }
			if format := logging.FailureFormat(setting); errors.As(err, &se) && format != "" {
				// A log pipeline that reads JSON lines gets the report as
				// one record too; the banner stays on stderr for people.
				st := logging.Structured{}.WithService(svc.Name, "")
				newLogger(format, stdout, st).Error("application failed to start", "report", err.Error())
			}
		}
	}()
	if err := svc.check(); err != nil {
		return startupError{err}
	}
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		return printHelp(stdout, svc)
	}
	if slices.Contains(args, "--version") {
		build, _ := debug.ReadBuildInfo()
		printVersion(stdout, svc.Name, build)
		return nil
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	env, err = svc.loadContext(ctx, args, lookupEnv)
	if ctx.Err() != nil {
		return stoppedWhileStarting(ctx)
	}
	if err != nil {
		return startupError{err}
	}
	r, err := build(ctx, svc, env, p)
	if ctx.Err() != nil {
		if err == nil {
			r.Close()
		}
		return stoppedWhileStarting(ctx)
	}
	if err != nil {
		return startupError{err}
	}
	a := r.app
	defer func() {
		if cerr := r.Close(); cerr != nil {
			a.logger.Error("closing components", "error", cerr)
		}
	}()
	// POST /actuator/shutdown shuts down as SIGTERM does.
	ctx, requestShutdown := context.WithCancel(ctx)
	defer requestShutdown()
	go func() {
		select {
		case <-r.shutdownRequested:
			requestShutdown()
		case <-ctx.Done():
		}
	}()
	s := a.settings
	ports := server.Ports(a.binder, s.server, s.management.server, r.handler, r.management)
	ports[0].SetAnnouncement(server.Started(svc.Name, began))
	err = server.Serve(ctx, stop, ports, s.server, r.probes.RefuseTraffic, a.logger, p.Listening)
	if _, listen := errors.AsType[*config.SettingError](err); listen {
		return startupError{err} // a port could not be listened on
	}
	return err
}

// New builds svc in process p as Run does, without listening: for tests
// and benchmarks that serve Running.Handler themselves. Log lines go to
// p.Stdout. The caller closes the Running.
func New[S any](ctx context.Context, svc Service[S], p Process) (*Running, error) {
	p = p.orDefaults()
	if err := svc.check(); err != nil {
		return nil, err
	}
	env, err := svc.loadContext(ctx, p.Args, p.LookupEnv)
	if err != nil {
		return nil, err
	}
	return build(ctx, svc, env, p)
}

// load loads svc's settings: its packaged resources, the files beside it,
// the environment and the arguments.
func (svc Service[S]) load(args []string, lookupEnv func(string) (string, bool)) (*config.Environment, error) {
	return svc.loadContext(context.Background(), args, lookupEnv)
}

// loadContext is load that cancelling ctx ends.
func (svc Service[S]) loadContext(ctx context.Context, args []string, lookupEnv func(string) (string, bool)) (*config.Environment, error) {
	return config.Load(config.Options{Embedded: svc.Resources, Args: args, LookupEnv: lookupEnv, Context: ctx})
}

// stoppedWhileStarting is what Run returns when SIGINT, SIGTERM or its
// context stops it before it serves: nothing was listened on, and what
// was opened is closed. It is not a bad setting, so no failure report.
func stoppedWhileStarting(ctx context.Context) error {
	return fmt.Errorf("stopped while starting, before listening: %w", context.Cause(ctx))
}

// check refuses a service that is not described well enough to run.
func (svc Service[S]) check() error {
	switch {
	case svc.Name == "" || strings.ContainsAny(svc.Name, ". \t\n"):
		return fmt.Errorf("boot: the service's Name %q must be a word without dots or spaces: it names the service's loggers", svc.Name)
	case svc.Start == nil:
		return fmt.Errorf("boot: service %s has no Start function, so it would serve no routes of its own", svc.Name)
	}
	return nil
}

// logFormat is the setting key (logging.format, say) as far as it can
// be known when start-up fails: from the settings when they loaded, else
// from the arguments and the environment as given.
func logFormat(key string, env *config.Environment, args []string, lookupEnv func(string) (string, bool)) string {
	if env != nil {
		if v, ok, err := env.Lookup(key); ok && err == nil {
			return v.Resolved
		}
		return ""
	}
	for _, a := range slices.Backward(args) {
		if v, ok := strings.CutPrefix(a, "--"+key+"="); ok {
			return v
		}
	}
	v, _ := lookupEnv(strings.ToUpper(strings.NewReplacer(".", "_", "-", "").Replace(key)))
	return v
}
