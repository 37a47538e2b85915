package main

// Greeter's own settings as the spec gives them. How settings are loaded
// and layered (profiles, files, the environment, placeholders, the failure
// report) is framework/boot's, tested there with its test service.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

var exposeEnv = []string{"--management.endpoints.web.exposure.include=health,env", "--management.endpoint.env.show-values=always"}

// TestSpecSettings: the spec's profile-based configuration: prop-a from
// application.properties under every profile, prop-b 100 and 200 with the
// dev profile; app.greeting sets the greeting, and app.number.scope takes
// a Spring user's spelling.
func TestSpecSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		profiles string
		propB    string
		from     string
	}{
		{"", "100", "Config resource 'embedded [application.properties]'"},
		{"dev", "200", "Config resource 'embedded [application-dev.properties]'"},
		{"qa,dev", "200", "Config resource 'embedded [application-dev.properties]'"},
		{"qa", "100", "Config resource 'embedded [application.properties]'"},
	} {
		args := exposeEnv
		if tt.profiles != "" {
			args = append([]string{"--app.profiles.active=" + tt.profiles}, exposeEnv...)
		}
		s := start(t, args, nil)
		if p := s.ReadProperty(t, "app.example.prop-b"); p.Value != tt.propB || p.Source != tt.from {
			t.Errorf("profiles %q: app.example.prop-b = %q from %q, want %q from %q", tt.profiles, p.Value, p.Source, tt.propB, tt.from)
		}
		if a := s.ReadProperty(t, "app.example.prop-a"); a.Value != "Hello from application.properties" {
			t.Errorf("profiles %q: app.example.prop-a = %q, want the default file's value", tt.profiles, a.Value)
		}
	}

	s := start(t, []string{"--app.greeting=Ahoy", "--app.number.scope=Singleton"}, nil)
	if r := s.do(t, "GET", "/api/hello/1", ""); r.body != `{"text":"Ahoy 1"}` {
		t.Errorf("app.greeting=Ahoy: /api/hello/1 = %s", r.body)
	}
	if a, b := s.do(t, "GET", "/api/number/val-a", "").body, s.do(t, "GET", "/api/number/val-b", "").body; a != b {
		t.Errorf("app.number.scope=Singleton: val-a %s, val-b %s; want one instance", a, b)
	}
}

// TestBadOwnSettings: greeter's own settings refuse what they cannot use,
// in the failure report: prop-b is a 32-bit integer, and the database's
// connection timeout is at least Hikari's 250ms.
func TestBadOwnSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{nil, map[string]string{"APP_EXAMPLE_PROPB": "lots"}, []string{"Property: app.example.prop-b", "Origin: environment variable APP_EXAMPLE_PROPB", "Reason: want an integer"}},
		{[]string{"--app.datasource.hikari.connection-timeout=100ms"}, nil, []string{"Property: app.datasource.hikari.connection-timeout", "want 0 (none) or at least 250ms"}},
	} {
		report, err := boottest.FailToStart(t, greeter(), append([]string{"--server.port=0"}, tt.args...), tt.env)
		if err == nil {
			t.Errorf("%v %v: run started", tt.args, tt.env)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(report, w) {
				t.Errorf("%v %v: report lacks %q:\n%s", tt.args, tt.env, w, report)
			}
		}
	}
}
