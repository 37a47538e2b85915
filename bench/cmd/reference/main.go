// Command reference serves the bare net/http reference endpoints for the
// benchmarks in bench/run. Like the service it takes --server.port=N (0
// picks a free port); it prints the address it listens on. With
// --app.datasource.url=URL it serves the message endpoints over the
// service's PostgreSQL store instead, with the store's default pool.
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
	"github.com/springport/greeter/postgres"
)

func main() {
	port, databaseURL := "8080", ""
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "--server.port="); ok {
			port = v
		} else if v, ok := strings.CutPrefix(a, "--app.datasource.url="); ok {
			databaseURL = v
		} else {
			fmt.Fprintf(os.Stderr, "unknown argument %q; only --server.port=N and --app.datasource.url=URL are understood\n", a)
			os.Exit(2)
		}
	}
	handler := reference.Handler()
	if databaseURL != "" {
		db, err := postgres.Open(context.Background(), postgres.Options{URL: databaseURL})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer db.Close()
		handler = reference.StoreHandler(db.Messages())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("msg=started addr=%s\n", ln.Addr())
	srv := reference.Server(handler)
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
