// Command reference serves the bare net/http reference endpoints for the
// benchmarks in bench/run. Like the service it takes --server.port=N (0
// picks a free port); it prints the address it listens on.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/springport/greeter/bench/reference"
)

func main() {
	port := "8080"
	for _, a := range os.Args[1:] {
		v, ok := strings.CutPrefix(a, "--server.port=")
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown argument %q; only --server.port=N is understood\n", a)
			os.Exit(2)
		}
		port = v
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("msg=started addr=%s\n", ln.Addr())
	srv := reference.Server(reference.Handler())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
