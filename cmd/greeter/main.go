// Command greeter serves the greeting, message and number endpoints.
package main

import (
	"context"
	"os"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr); err != nil {
		os.Exit(1) // run has reported it
	}
}
