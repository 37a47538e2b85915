package securityjwt

// The bearer-token settings as bindJWT reads them, and the refusals of
// jwt.New as a service's start-up reports them: with the setting, its
// value and its origin.

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
)

func TestBindJWT(t *testing.T) {
	env, err := config.Load(config.Options{Args: []string{
		// spring. keys are read as their app. twins.
		"--spring.security.oauth2.resourceserver.jwt.issuer-uri=https://idp.example.com/realms/main",
		"--app.security.oauth2.resourceserver.jwt.audiences=greeter, api",
		"--app.security.oauth2.resourceserver.jwt.jws-algorithms=RS256,ES256",
		"--app.security.oauth2.resourceserver.jwt.authority-prefix=",
		"--app.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
		"--app.security.oauth2.resourceserver.jwt.principal-claim-name=preferred_username",
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := config.NewBinder(env)
	o, on := bindJWT(b)
	if err := b.Err(); err != nil || !on {
		t.Fatalf("got on=%v, %v; want on, no error", on, err)
	}
	if o.IssuerURI != "https://idp.example.com/realms/main" || o.JWKSetURI != "" ||
		!slices.Equal(o.Audiences, []string{"greeter", "api"}) || !slices.Equal(o.JWSAlgorithms, []string{"RS256", "ES256"}) ||
		o.AuthorityPrefix == nil || *o.AuthorityPrefix != "" || o.AuthoritiesClaimName != "roles" || o.PrincipalClaimName != "preferred_username" {
		t.Errorf("got %+v", o)
	}

	b = config.NewBinder(mustLoad(t))
	o, on = bindJWT(b)
	if on || b.Err() != nil {
		t.Errorf("no key source: got on=%v, %v; want off", on, b.Err())
	}
	if !slices.Equal(o.JWSAlgorithms, []string{"RS256"}) || *o.AuthorityPrefix != "SCOPE_" || o.PrincipalClaimName != "sub" {
		t.Errorf("Spring's defaults: got %+v", o)
	}
}

func mustLoad(t *testing.T, args ...string) *config.Environment {
	t.Helper()
	env, err := config.Load(config.Options{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func TestBindJWTRefusals(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"jwk-set-uri=ftp://idp.example.com/keys", "want an http:// or https:// URL"},
		{"issuer-uri=idp.example.com", "want an http:// or https:// URL"},
		{"public-key-location=classpath:key.pub", "a Go service has no classpath"},
		{"jws-algorithms=HS256", "HS256 and none are not accepted"},
		{"jws-algorithms=", "want at least one of RS256"},
		{"principal-claim-name=", "want a claim's name"},
	} {
		key, value, _ := strings.Cut(tc.arg, "=")
		arg := "--" + jwtPrefix + tc.arg
		b := config.NewBinder(mustLoad(t, arg))
		bindJWT(b)
		err := b.Err()
		for _, want := range []string{jwtPrefix + key, `"` + value + `"`, "command-line argument " + arg, tc.want} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v; want it to say %q", tc.arg, err, want)
			}
		}
	}
}

func TestKeySourceRefusals(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pub")
	svc := boot.Service[struct{}]{Name: "api", Starters: []boot.Starter{Starter},
		Start: func(context.Context, *boot.App, struct{}) error { return nil }}
	for _, tc := range []struct {
		args      []string
		key, want string
	}{
		{[]string{"--" + jwtPrefix + "public-key-location=file:" + missing}, "public-key-location", "cannot read the public key file"},
		{[]string{"--" + jwtPrefix + "public-key-location=settings.go"}, "public-key-location", "want a PEM file"},
		{[]string{"--" + jwtPrefix + "public-key-location=settings.go", "--" + jwtPrefix + "jws-algorithms=ES256"}, "jws-algorithms", "exactly one RSA algorithm"},
	} {
		stderr, err := boottest.FailToStart(t, svc, append([]string{"--server.port=0"}, tc.args...), nil)
		if err == nil {
			t.Fatalf("%v: started", tc.args)
		}
		for _, want := range []string{"Property: " + jwtPrefix + tc.key, "Origin: command-line argument --" + jwtPrefix + tc.key, tc.want} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: the report does not say %q:\n%s", tc.args, want, stderr)
			}
		}
	}
}
