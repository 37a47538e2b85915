package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/config"
)

// maxHeaderBytes bounds a request's header block; past it the server
// answers 431.
const maxHeaderBytes = 64 << 10

// Port is one listening port and what it serves.
type Port struct {
	setting string // the setting that chose it, for errors
	number  int
	// value is the setting as it was set, with its origin, for the
	// failure report.
	value   config.Value
	address string // the interface it listens on; "" for all
	// addressSetting is the setting that chose address, for errors.
	addressSetting string
	handler        http.Handler
	// tls, when set, makes the port serve HTTPS only (tls.go).
	tls *TLS
	// http2 serves HTTP/2 beside HTTP/1.1 (http2.go).
	http2    bool
	announce string // the log message that says it listens
	// announcement, when set, gives that message at the time it is
	// logged (SetAnnouncement).
	announcement func() string
}

// SetAnnouncement makes message give the line that says p listens, at
// the moment it is logged: boot's says how long start-up took.
func (p *Port) SetAnnouncement(message func() string) { p.announcement = message }

// Ports are the ports to serve: server.port with handler, and
// management.server.port with management when the management endpoints
// have a port of their own (management is nil otherwise). b gives each
// port's setting as it was set, for the report when it cannot be
// listened on.
func Ports(b *config.Binder, s Settings, m Management, handler, management http.Handler) []Port {
	ports := []Port{{setting: "server.port", number: s.Port, handler: handler, announce: "started",
		address: s.Address, addressSetting: "server.address", tls: s.TLS, http2: s.HTTP2,
		value: b.Value("server.port", strconv.Itoa(s.Port))}}
	if management != nil {
		// A management port of its own follows server.http2.enabled, as
		// Spring's management server inherits it.
		ports = append(ports, Port{setting: "management.server.port", number: m.Port, handler: management, announce: "management started",
			address: m.Address, addressSetting: "management.server.address", tls: m.TLS, http2: s.HTTP2,
			value: b.Value("management.server.port", strconv.Itoa(m.Port))})
	}
	return ports
}

// Address is a port Serve listens on.
type Address struct {
	Setting string   // the setting that chose it: server.port or management.server.port
	Addr    net.Addr // where it listens: with server.port=0, the port chosen
}

// inFlight counts the requests being handled, so that the stores are not
// closed under a request that a shutdown cut off but whose handler still
// runs: http.Server.Close does not wait for handlers.
type inFlight struct{ n atomic.Int64 }

func (f *inFlight) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.n.Add(1)
		defer f.n.Add(-1)
		h.ServeHTTP(w, r)
	})
}

// wait waits until no handler runs, or timeout passes, and reports
// whether none runs.
func (f *inFlight) wait(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for f.n.Load() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// resolveTimeout bounds the look-up of a host name given as an address.
const resolveTimeout = 5 * time.Second

// ListenAddress reads server.address or management.server.address as
// Spring binds an InetAddress: an IP address, v4 or v6 (in brackets or
// not), or a host name that resolves; empty is every interface. The name
// is kept, not its addresses: net.Listen resolves it again, as Spring's
// server does.
func ListenAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	if inner, ok := strings.CutPrefix(s, "["); ok {
		if inner, ok = strings.CutSuffix(inner, "]"); ok && strings.Contains(inner, ":") {
			s = inner
		}
	}
	if s == "" || net.ParseIP(s) != nil {
		return s, nil
	}
	if _, _, err := net.SplitHostPort(s); err == nil {
		return "", fmt.Errorf("want an address without a port: the port is a setting of its own")
	}
	ctx, cancel := context.WithTimeout(context.Background(), resolveTimeout)
	defer cancel()
	if _, err := net.DefaultResolver.LookupHost(ctx, s); err != nil {
		return "", fmt.Errorf("want an IP address or a host name that resolves: %v", err)
	}
	return s, nil
}

// Serve listens on every port, then serves until ctx is done. Shutting
// down, refuseTraffic turns readiness OUT_OF_SERVICE first, and it stays
// so for server.shutdown-delay, so that load balancers stop sending
// requests; then the listeners close and requests in flight get up to
// server.shutdown-timeout to finish. A request still running then is cut
// off (its connection closed, its context cancelled), and Serve waits up
// to server.shutdown-timeout more for its handler to return, so that what
// it uses is not closed under it. With server.shutdown=immediate the
// listeners and connections close at once instead (closeNow). stop,
// called once shutdown begins, lets a second SIGINT or SIGTERM end the
// process at once. listening, when set, is told where every port
// listens, before any is served.
//
// A port that cannot be listened on is a *config.SettingError naming its
// setting: start-up failed, and nothing was served.
func Serve(ctx context.Context, stop func(), ports []Port, s Settings, refuseTraffic func(), logger *slog.Logger, listening func([]Address)) error {
	// Listen on every port before serving on any, so that a taken port
	// fails start-up as a whole.
	listeners := make([]net.Listener, 0, len(ports))
	addrs := make([]Address, 0, len(ports))
	for _, p := range ports {
		ln, err := net.Listen("tcp", net.JoinHostPort(p.address, strconv.Itoa(p.number)))
		if err != nil {
			for _, l := range listeners {
				l.Close()
			}
			where := fmt.Sprintf("%s=%d", p.setting, p.number)
			if p.address != "" {
				where += fmt.Sprintf(" on %s=%s", p.addressSetting, p.address)
			}
			return &config.SettingError{Value: p.value, Reason: fmt.Sprintf("cannot listen on %s: %v", where, err)}
		}
		listeners = append(listeners, ln)
		addrs = append(addrs, Address{Setting: p.setting, Addr: ln.Addr()})
	}
	var handling inFlight
	servers := make([]*http.Server, len(ports))
	served := make(chan error, len(ports))
	for i, p := range ports {
		servers[i] = &http.Server{
			// Each port its own places (bound.go).
			Handler:           handling.wrap(newPlaces(s.maxThreads).wrap(p.handler)),
			ReadHeaderTimeout: s.readHeaderTimeout,
			ReadTimeout:       s.readTimeout,
			WriteTimeout:      s.WriteTimeout,
			IdleTimeout:       s.idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          errorLog(logger, p.tls), // tlsfailures.go
			Protocols:         serverProtocols(p.http2, p.tls != nil),
		}
		if p.http2 {
			servers[i].HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: s.http2Limits.streams}
			servers[i].ConnContext = withConnTurns(s.http2Limits.execution)
		}
		if p.tls == nil {
			go func() { served <- servers[i].Serve(listeners[i]) }()
		} else {
			// ServeTLS, not Serve on a tls.NewListener: it sets the
			// server up for HTTP/2 when Protocols asks for it.
			servers[i].TLSConfig = p.tls.config(alpnProtocols(p.http2), logger)
			go func() { served <- servers[i].ServeTLS(listeners[i], "", "") }()
		}
	}
	// The last line is server.port's, as Spring's "Started" line comes
	// after its servers' own.
	for i, p := range slices.Backward(ports) {
		msg := p.announce
		if p.announcement != nil {
			msg = p.announcement()
		}
		logger.Info(msg, "addr", listeners[i].Addr().String())
	}
	// Told once the lines are logged, so that what a caller reads of the
	// log after it begins with the service serving, its "Started" line
	// already there.
	if listening != nil {
		listening(addrs)
	}

	select {
	case err := <-served:
		closeAll(servers)
		handling.wait(s.shutdownTimeout)
		return err
	case <-ctx.Done():
	}
	stop()
	refuseTraffic()
	logger.Info("shutting down: readiness is OUT_OF_SERVICE", "delay", s.shutdownDelay, "timeout", s.shutdownTimeout)
	time.Sleep(s.shutdownDelay)
	if s.shutdown == "immediate" {
		return closeNow(servers, &handling, s, logger)
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.shutdownTimeout)
	defer cancel()
	shutdownErrs := make(chan error, len(servers))
	for _, srv := range servers {
		go func() { shutdownErrs <- srv.Shutdown(shutdownCtx) }()
	}
	var failed error
	for range servers {
		if err := <-shutdownErrs; err != nil {
			failed = err
		}
	}
	if failed != nil {
		// Requests still in flight are cut off; the exit status says the
		// shutdown was not graceful.
		closeAll(servers)
		if !handling.wait(s.shutdownTimeout) {
			logger.Error("requests cut off at shutdown are still being handled; closing the stores under them",
				"handlers", handling.n.Load())
		}
		return fmt.Errorf("graceful shutdown did not finish within server.shutdown-timeout=%s: %w", s.shutdownTimeout, failed)
	}
	for range servers {
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	logger.Info("stopped")
	return nil
}

func closeAll(servers []*http.Server) {
	for _, srv := range servers {
		srv.Close()
	}
}

// closeNow is server.shutdown=immediate: the listeners and every
// connection close at once, cutting off the requests in flight (their
// clients see the connection break, their contexts are cancelled), as
// Spring stops its web server without a graceful phase. Their handlers
// still get up to server.shutdown-timeout to return, so that what they
// use is not closed under them.
func closeNow(servers []*http.Server, handling *inFlight, s Settings, logger *slog.Logger) error {
	closeAll(servers)
	if !handling.wait(s.shutdownTimeout) {
		logger.Error("requests cut off at shutdown are still being handled; closing the stores under them",
			"handlers", handling.n.Load())
	}
	logger.Info("stopped", "shutdown", "immediate")
	return nil
}
