package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLinksNoGRPC: greeter exports its spans over OTLP/HTTP (the starter
// otlptracing) and does not name the OTLP/gRPC starter, so no gRPC
// package is in its binary: gRPC, and the genproto and grpc-gateway that
// come with it, are linked only by the services that ask for them.
func TestLinksNoGRPC(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	linked := strings.Fields(string(out))
	if !slices.Contains(linked, "github.com/springport/greeter/framework/starter/otlptracing") {
		t.Fatal("greeter does not link the OTLP/HTTP starter; the test no longer checks what it says")
	}
	for _, module := range []string{"google.golang.org/grpc", "google.golang.org/genproto", "github.com/grpc-ecosystem/grpc-gateway",
		"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"} {
		if i := slices.IndexFunc(linked, func(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }); i >= 0 {
			t.Errorf("greeter links %s, which only the starter framework/starter/otlptracinggrpc brings in", linked[i])
		}
	}
}
