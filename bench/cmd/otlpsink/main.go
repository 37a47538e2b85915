// Command otlpsink is the collector that bench/run's tracing step sends
// the service's spans to: an OTLP/HTTP endpoint that reads every export
// and answers it as accepted, so that the service's cost of exporting is
// measured without a collector's. It listens on 127.0.0.1 on
// --server.port (0: a free one) and says where in a "started" line, as
// the service does.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/springport/greeter/bench/reference"
)

func main() {
	args, err := reference.Args(os.Args[1:], map[string]string{"server.port": "0"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	sink := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf") // an empty ExportTraceServiceResponse
	})}
	if err := reference.Serve(sink, args["server.port"]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
