package boot_test

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/starter/redissession"
)

// withoutStarters is tester without its starters, as a service that
// includes none is built.
func withoutStarters() boot.Service[testerSettings] {
	svc := tester()
	svc.Starters = nil
	return svc
}

// TestSessionStoreOfAStarterNotIncluded checks that asking for Redis
// sessions in a service that does not include the starter stops start-up
// with the setting, its value, its origin and the starter to add: the
// setting is not ignored, and sessions do not silently stay in memory.
func TestSessionStoreOfAStarterNotIncluded(t *testing.T) {
	t.Parallel()
	stderr, err := boottest.FailToStart(t, withoutStarters(), []string{"--server.port=0", "--spring.session.store-type=redis"}, nil)
	if err == nil {
		t.Fatal("started with app.session.store-type=redis and no Redis session starter")
	}
	for _, want := range []string{"spring.session.store-type", "redis", "command-line argument", redissession.Starter.Name, "Starters"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the report does not say %q:\n%s", want, stderr)
		}
	}
}

// TestSettingsOfAStarterNotIncluded checks that a starter's settings set
// in a service that does not include it are warned about, naming the
// starter, and that with the starter they are read.
func TestSettingsOfAStarterNotIncluded(t *testing.T) {
	t.Parallel()
	args := []string{"--app.data.redis.host=cache"}
	without := boottest.Start(t, withoutStarters(), args, nil)
	want := `key=app.data.redis.host origin="command-line argument --app.data.redis.host" hint="read by the starter ` + boot.RedisSessionStarter
	if out := without.Stdout.String(); !strings.Contains(out, want) {
		t.Errorf("without the starter, the log does not say %s:\n%s", want, out)
	}
	with := boottest.Start(t, tester(), args, nil)
	if out := with.Stdout.String(); strings.Contains(out, "key=app.data.redis.host") {
		t.Errorf("with the starter, app.data.redis.host is reported as not read:\n%s", out)
	}
}

// TestStarterSettingsListed checks that --help lists a starter's settings
// with their meanings when the service includes it, and not otherwise.
func TestStarterSettingsListed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		svc  boot.Service[testerSettings]
		want bool
	}{{tester(), true}, {withoutStarters(), false}} {
		list, err := boot.Settings(c.svc)
		if err != nil {
			t.Fatal(err)
		}
		var found *boot.Setting
		for i := range list {
			if list[i].Key == "app.data.redis.host" {
				found = &list[i]
			}
		}
		switch {
		case c.want && (found == nil || found.Help == "" || found.Default != "localhost"):
			t.Errorf("with the starter, app.data.redis.host is listed as %+v, want its default localhost and its meaning", found)
		case !c.want && found != nil:
			t.Errorf("without the starter, app.data.redis.host is listed: %+v", *found)
		}
	}
}

// TestProtectionWithoutItsStarter checks that a setting that asks for
// authentication, in a service that does not include the starter that
// provides it, stops start-up rather than leaving every request open:
// with the setting as written, its origin and the starter to add.
func TestProtectionWithoutItsStarter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ arg, key, starter string }{
		{"--app.security.user.password={noop}secret", "app.security.user.password", boot.SecurityBasicStarter},
		{"--spring.security.user.name=admin", "spring.security.user.name", boot.SecurityBasicStarter},
		// In any form Spring binds (relaxed binding), the secret masked.
		{"--Spring.Security.User.Name=admin", "Spring.Security.User.Name", boot.SecurityBasicStarter},
		{"--app.security.user.pass_word={noop}secret", "app.security.user.pass_word", boot.SecurityBasicStarter},
		{"--spring.security.oauth2.resourceServer.jwt.issuerUri=https://idp.example.com/realms/main",
			"spring.security.oauth2.resourceServer.jwt.issuerUri", boot.SecurityJWTStarter},
		{"--spring.security.oauth2.resourceserver.jwt.issuer-uri=https://idp.example.com/realms/main",
			"spring.security.oauth2.resourceserver.jwt.issuer-uri", boot.SecurityJWTStarter},
	} {
		stderr, err := boottest.FailToStart(t, withoutStarters(), []string{"--server.port=0", c.arg}, nil)
		if err == nil {
			t.Errorf("%s: started without the starter that authenticates", c.arg)
			continue
		}
		flag, _, _ := strings.Cut(c.arg, "=")
		for _, want := range []string{"Property: " + c.key, "Origin: command-line argument " + flag, c.starter, "unauthenticated"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: the report does not say %q:\n%s", c.arg, want, stderr)
			}
		}
		if strings.Contains(stderr, "secret") {
			t.Errorf("%s: the report shows the password:\n%s", c.arg, stderr)
		}
	}
	// Set by an environment variable, which lists no keys: a misspelt
	// one (PASSWROD) under the family asks for protection as much.
	for _, c := range []struct{ name, value, starter string }{
		{"SPRING_SECURITY_USER_PASSWORD", "secret", boot.SecurityBasicStarter},
		{"APP_SECURITY_USER_PASSWROD", "admin", boot.SecurityBasicStarter},
		{"SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI", "https://idp.example.com/jwks", boot.SecurityJWTStarter},
	} {
		stderr, err := boottest.FailToStart(t, withoutStarters(), []string{"--server.port=0"}, map[string]string{c.name: c.value})
		if err == nil {
			t.Errorf("%s: started without the starter that authenticates", c.name)
			continue
		}
		for _, want := range []string{"Origin: environment variable " + c.name, c.starter, "unauthenticated"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: the report does not say %q:\n%s", c.name, want, stderr)
			}
		}
		if strings.Contains(stderr, "secret") {
			t.Errorf("%s: the report shows the value:\n%s", c.name, stderr)
		}
	}
	// A variable of another family is not refused.
	s := boottest.Start(t, withoutStarters(), []string{"--server.port=0"}, map[string]string{"SPRING_SECURITY_FILTER_ORDER": "5"})
	s.Stop()
}

// TestSpanEndpointWithoutTheExporterStarter checks that a collector named
// in a service without the OTLP tracing starter is warned about, naming
// the starter and the endpoint without its password, and not with it.
func TestSpanEndpointWithoutTheExporterStarter(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, withoutStarters(), []string{"--management.opentelemetry.tracing.export.otlp.endpoint=http://user:hunter2@127.0.0.1:1/v1/traces"}, nil)
	out := s.Stdout.String()
	for _, want := range []string{"spans are not exported", boot.OTLPTracingStarter, "user:******@127.0.0.1:1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hunter2") {
		t.Errorf("the log shows the endpoint's password:\n%s", out)
	}
	with := boottest.Start(t, tester(), []string{"--management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:1/v1/traces"}, nil)
	if strings.Contains(with.Stdout.String(), "spans are not exported") {
		t.Errorf("with the starter, the log says spans are not exported:\n%s", with.Stdout.String())
	}
}
