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
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	linked := strings.Fields(string(out))
	var named []string
	for _, st := range service.Starters {
		named = append(named, st.Name)
	}
	const starter = "github.com/springport/greeter/framework/starter/"
	// Each of these is a module that only the starter brings in, with
	// the packages under it. golang.org/x/crypto comes with two (bcrypt
	// and argon2 with the user's, PBKDF2 with PKCS#12's); counter names
	// neither.
	for _, m := range []struct{ module, starter string }{
		{"github.com/redis/go-redis/v9", starter + "redissession"},
		{"golang.org/x/crypto", starter + "securitybasic"},
		{"software.sslmate.com/src/go-pkcs12", starter + "pkcs12"},
		{"github.com/lestrrat-go/jwx/v3", starter + "securityjwt"},
		{"go.opentelemetry.io/otel/exporters/otlp/otlptrace", starter + "otlptracing"},
		{"go.opentelemetry.io/proto/otlp", starter + "otlptracing"},
		{"github.com/jackc/pgx/v5", starter + "datasource"},
		// Counter links proto/otlp through the tracing starter: the
		// metrics exporter is a package of the framework's own.
		{"github.com/springport/greeter/framework/management/metrics/otlp", starter + "otlpmetrics"},
		{"google.golang.org/grpc", starter + "otlptracinggrpc"},
	} {
		wanted := m.starter != "" && slices.Contains(named, m.starter)
		got := slices.ContainsFunc(linked, func(p string) bool { return p == m.module || strings.HasPrefix(p, m.module+"/") })
		if got != wanted {
			t.Errorf("counter links %s: %t; it names the starter %q: %t", m.module, got, m.starter, wanted)
		}
	}
}
