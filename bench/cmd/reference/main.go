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

	"github.com/springport/greeter/bench/reference"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/messagestore/postgres"
)

func main() {
	args, err := reference.Args(os.Args[1:], map[string]string{"server.port": "8080", "app.datasource.url": ""})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	handler := reference.Handler()
	if databaseURL := args["app.datasource.url"]; databaseURL != "" {
		db, err := postgres.Open(context.Background(), postgres.Options{DataSource: datasource.Options{URL: databaseURL}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer db.Close()
		handler = reference.StoreHandler(db.Messages())
	}
	if err := reference.Serve(reference.Server(handler), args["server.port"]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
