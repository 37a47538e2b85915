package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLinksOnlyTheStartersItNames checks the framework's promise that a
// service links only what it uses: what an optional subsystem brings in
// is in counter's binary only when counter names the subsystem's starter.
func TestLinksOnlyTheStartersItNames(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	linked := strings.Fields(string(out))
	var named []string
	for _, st := range service.Starters {
		named = append(named, st.Name)
	}
	const starter = "github.com/springport/greeter/framework/starter/"
	for _, m := range []struct{ module, starter string }{
		{"github.com/redis/go-redis/v9", starter + "redissession"},
		{"golang.org/x/crypto", starter + "securitybasic"},
		{"github.com/lestrrat-go/jwx/v3", starter + "securityjwt"},
		{"go.opentelemetry.io/otel/exporters/otlp/otlptrace", starter + "otlptracing"},
		{"go.opentelemetry.io/proto/otlp", starter + "otlptracing"},
		{"github.com/jackc/pgx/v5", ""}, // no starter yet: never linked
	} {
		wanted := m.starter != "" && slices.Contains(named, m.starter)
		if got := slices.Contains(linked, m.module); got != wanted {
			t.Errorf("counter links %s: %t; it names the starter %q: %t", m.module, got, m.starter, wanted)
		}
	}
}
