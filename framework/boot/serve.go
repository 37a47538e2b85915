package boot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/springport/greeter/framework/management/actuator"
)

// maxHeaderBytes bounds a request's header block; past it the server
// answers 431.
const maxHeaderBytes = 64 << 10

// port is one listening port and what it serves.
type port struct {
	setting  string // the setting that chose it, for errors
	number   int
	handler  http.Handler
	announce string // the log message that says it listens
}

// serve listens on every port, then serves until ctx is done. Shutting
// down, readiness turns OUT_OF_SERVICE first and stays so for
// server.shutdown-delay, so that load balancers stop sending requests;
// then the listeners close and requests in flight get up to
// server.shutdown-timeout to finish. stop, called once shutdown begins,
// lets a second SIGINT or SIGTERM end the process at once.
func serve(ctx context.Context, stop func(), ports []port, s serverSettings, probes *actuator.Probes, logger *slog.Logger) error {
	// Listen on every port before serving on any, so that a taken port
	// fails start-up as a whole.
	listeners := make([]net.Listener, 0, len(ports))
	for _, p := range ports {
		ln, err := net.Listen("tcp", ":"+strconv.Itoa(p.number))
		if err != nil {
			for _, l := range listeners {
				l.Close()
			}
			return startupError{fmt.Errorf("cannot listen on %s=%d: %w", p.setting, p.number, err)}
		}
		listeners = append(listeners, ln)
	}
	servers := make([]*http.Server, len(ports))
	served := make(chan error, len(ports))
	for i, p := range ports {
		servers[i] = &http.Server{
			Handler:           p.handler,
			ReadHeaderTimeout: s.readHeaderTimeout,
			ReadTimeout:       s.readTimeout,
			WriteTimeout:      s.writeTimeout,
			IdleTimeout:       s.idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		}
		go func() { served <- servers[i].Serve(listeners[i]) }()
		logger.Info(p.announce, "addr", listeners[i].Addr().String())
	}

	select {
	case err := <-served:
		closeAll(servers)
		return err
	case <-ctx.Done():
	}
	stop()
	probes.RefuseTraffic()
	logger.Info("shutting down: readiness is OUT_OF_SERVICE", "delay", s.shutdownDelay, "timeout", s.shutdownTimeout)
	time.Sleep(s.shutdownDelay)
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
