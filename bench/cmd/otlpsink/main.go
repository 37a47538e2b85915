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
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
)

func main() {
	port := "0"
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
	slog.New(slog.NewTextHandler(os.Stdout, nil)).Info("started", "addr", ln.Addr().String())
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf") // an empty ExportTraceServiceResponse
	}))
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
