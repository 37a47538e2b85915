package boot

import (
	"net/http"

	"github.com/springport/greeter/framework/management/actuator"
)

// Running is an application built and ready to serve: New returns it, so
// that a test or a benchmark can serve its Handler; Run serves it on its
// ports. Nothing more can be added to it: that was App's phase.
type Running struct {
	app        *App
	handler    http.Handler // for server.port
	management http.Handler // for management.server.port; nil when it is server.port
	probes     *actuator.Probes
	// shutdownRequested is closed by POST /actuator/shutdown: Run then
	// shuts down as it does on SIGTERM.
	shutdownRequested chan struct{}
}

// Handler is the handler of server.port: the service's routes, the
// OpenAPI document, and the management endpoints unless they have a port
// of their own.
func (r *Running) Handler() http.Handler { return r.handler }

// ManagementHandler is the handler of management.server.port, nil when
// the management endpoints share server.port (and Handler serves them).
func (r *Running) ManagementHandler() http.Handler { return r.management }

// ShutdownRequested is closed when POST /actuator/shutdown asks the
// service to stop; Run then shuts down as on SIGTERM. An application from
// New is not served by Run: whoever serves it decides what the request
// does.
func (r *Running) ShutdownRequested() <-chan struct{} { return r.shutdownRequested }

// Close sends the spans still queued, then closes the components, then
// what Start's OnClose added and the session store, in reverse order. It
// may be called more than once.
func (r *Running) Close() error { return r.app.close() }
