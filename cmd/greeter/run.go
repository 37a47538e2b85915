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
	"strconv"
	"syscall"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/dispatch"
	"github.com/springport/greeter/message"
	"github.com/springport/greeter/number"
)

// maxHeaderBytes bounds a request's header block; past it the server
// answers 431.
const maxHeaderBytes = 64 << 10

// run starts the service and serves until ctx is cancelled or the process
// gets SIGINT or SIGTERM, then shuts down gracefully: the listener closes at
// once and requests in flight get up to server.shutdown-timeout to finish.
//
// A failure is returned and also reported on stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if err != nil {
			fmt.Fprintln(stderr, err)
		}
	}()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	s, err := loadSettings(args, getenv)
	if err != nil {
		return fmt.Errorf("APPLICATION FAILED TO START: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stdout, nil))

	messages := &message.Collection{}
	// Prototype scope: each endpoint gets its own number component.
	valA, valB := number.New(nil), number.New(nil)
	handler, err := dispatch.New(dispatch.Options{Logger: logger, Classify: api.Classify},
		api.Routes("Hello World!", messages, valA, valB)...)
	if err != nil {
		return fmt.Errorf("APPLICATION FAILED TO START: %w", err)
	}

	ln, err := net.Listen("tcp", ":"+strconv.Itoa(s.port))
	if err != nil {
		return fmt.Errorf("APPLICATION FAILED TO START: setting server.port=%d: %w", s.port, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: s.readHeaderTimeout,
		ReadTimeout:       s.readTimeout,
		WriteTimeout:      s.writeTimeout,
		IdleTimeout:       s.idleTimeout,
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
	logger.Info("shutting down", "timeout", s.shutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.shutdownTimeout)
	defer cancel()
	if err = srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err = <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}
