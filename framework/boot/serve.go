package boot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/actuator"
)

// maxHeaderBytes bounds a request's header block; past it the server
// answers 431.
const maxHeaderBytes = 64 << 10

// port is one listening port and what it serves.
type port struct {
	setting string // the setting that chose it, for errors
	number  int
	// value is the setting as it was set, with its origin, for the
	// failure report; when zero, the report shows number as the default.
	value   config.Value
	address string // the interface it listens on; "" for all
	// addressSetting is the setting that chose address, for errors.
	addressSetting string
	handler        http.Handler
	// tls, when set, makes the port serve HTTPS only (servertls.go).
	tls *tlsFiles
	// http2 serves HTTP/2 beside HTTP/1.1 (http2.go).
	http2    bool
	announce string // the log message that says it listens
}

// Address is a port Run listens on.
type Address struct {
	Setting string   // the setting that chose it: server.port or management.server.port
	Addr    net.Addr // where it listens: with server.port=0, the port chosen
}

type listeningKey struct{}

// WithListening returns a copy of ctx that makes Run call listening with
// the ports it listens on, once every one is bound and before any is
// served: how a test or a supervisor learns the ports chosen for port 0
// without reading the log, whatever its level.
func WithListening(ctx context.Context, listening func([]Address)) context.Context {
	return context.WithValue(ctx, listeningKey{}, listening)
}

type spanFlushKey struct{}

// WithSpanFlush returns a copy of ctx that makes Run give flushed, before
// it listens, a function that sends the spans queued at once (see
// tracing.Tracing.Flush): how a test sees the spans of its requests
// at the collector without waiting out the batch's delay of 5 s. The
// batches are sent as ever besides.
func WithSpanFlush(ctx context.Context, flushed func(flush func(context.Context) error)) context.Context {
	return context.WithValue(ctx, spanFlushKey{}, flushed)
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

// listenAddress reads server.address or management.server.address as
// Spring binds an InetAddress: an IP address, v4 or v6 (in brackets or
// not), or a host name that resolves; empty is every interface. The name
// is kept, not its addresses: net.Listen resolves it again, as Spring's
// server does.
func listenAddress(s string) (string, error) {
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

// serve listens on every port, then serves until ctx is done. Shutting
// down, readiness turns OUT_OF_SERVICE first and stays so for
// server.shutdown-delay, so that load balancers stop sending requests;
// then the listeners close and requests in flight get up to
// server.shutdown-timeout to finish. A request still running then is cut
// off (its connection closed, its context cancelled), and serve waits up
// to server.shutdown-timeout more for its handler to return, so that what
// it uses is not closed under it. With server.shutdown=immediate the
// listeners and connections close at once instead (closeNow). stop, called once shutdown begins, lets
// a second SIGINT or SIGTERM end the process at once.
func serve(ctx context.Context, stop func(), ports []port, s serverSettings, probes *actuator.Probes, logger *slog.Logger) error {
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
			value := p.value
			if value.Key == "" {
				value = config.Value{Key: p.setting, Raw: strconv.Itoa(p.number), Origin: "the default"}
			}
			return startupError{&config.SettingError{Value: value, Reason: fmt.Sprintf("cannot listen on %s: %v", where, err)}}
		}
		listeners = append(listeners, ln)
		addrs = append(addrs, Address{Setting: p.setting, Addr: ln.Addr()})
	}
	if listening, ok := ctx.Value(listeningKey{}).(func([]Address)); ok {
		listening(addrs)
	}
	var handling inFlight
	servers := make([]*http.Server, len(ports))
	served := make(chan error, len(ports))
	for i, p := range ports {
		servers[i] = &http.Server{
			Handler:           handling.wrap(p.handler),
			ReadHeaderTimeout: s.readHeaderTimeout,
			ReadTimeout:       s.readTimeout,
			WriteTimeout:      s.writeTimeout,
			IdleTimeout:       s.idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
			Protocols:         serverProtocols(p.http2, p.tls != nil),
		}
		if p.tls == nil {
			go func() { served <- servers[i].Serve(listeners[i]) }()
		} else {
			// ServeTLS, not Serve on a tls.NewListener: it sets the
			// server up for HTTP/2 when Protocols asks for it.
			servers[i].TLSConfig = p.tls.config(alpnProtocols(p.http2))
			go func() { served <- servers[i].ServeTLS(listeners[i], "", "") }()
		}
		logger.Info(p.announce, "addr", listeners[i].Addr().String())
	}

	select {
	case err := <-served:
		closeAll(servers)
		handling.wait(s.shutdownTimeout)
		return err
	case <-ctx.Done():
	}
	stop()
	probes.RefuseTraffic()
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
func closeNow(servers []*http.Server, handling *inFlight, s serverSettings, logger *slog.Logger) error {
	closeAll(servers)
	if !handling.wait(s.shutdownTimeout) {
		logger.Error("requests cut off at shutdown are still being handled; closing the stores under them",
			"handlers", handling.n.Load())
	}
	logger.Info("stopped", "shutdown", "immediate")
	return nil
}
