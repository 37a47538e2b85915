// Command reference serves the bare net/http reference endpoints for the
// benchmarks in bench/run. Like the service it takes --server.port=N (0
// picks a free port); it prints the address it listens on. With
// --app.datasource.url=URL it serves the message endpoints over the
// service's PostgreSQL store instead, with the store's default pool.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

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
	if err := reference.Serve(reference.Server(handler), port); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
