package reference

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

// Runner is a server that Serve runs: an *http.Server, or a peer framework's
// own server behind the same two methods.
type Runner interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
}

// Serve listens on 127.0.0.1:port (0 picks a free port), prints the
// line bench/run waits for, as boot logs it ("Started reference in … addr=HOST:PORT"), and serves srv
// until SIGINT or SIGTERM, when it shuts srv down.
func Serve(srv Runner, port string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		return err
	}
	fmt.Printf("msg=\"Started reference in 0.000 seconds (process running for 0.000)\" addr=%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
