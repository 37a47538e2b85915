package security_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/security"
	"github.com/springport/greeter/framework/security/password"
)

func TestPathPattern(t *testing.T) {
	for _, c := range []struct {
		pattern string
		yes, no []string
	}{
		{"/api/**", []string{"/api", "/api/", "/api/a", "/api/a/b"}, []string{"/apix", "/", "/x/api"}},
		{"/**", []string{"/", "/a", "/a/b"}, []string{""}},
		{"/", []string{"/"}, []string{"/a"}},
		{"/swagger-ui.html", []string{"/swagger-ui.html"}, []string{"/swagger-ui.htm", "/swagger-ui.html/"}},
		{"/users/{id}", []string{"/users/1", "/users/ab"}, []string{"/users/", "/users", "/users/1/x"}},
		{"/users/{id}/items", []string{"/users/1/items"}, []string{"/users/1/other"}},
		{"/files/*.json", []string{"/files/a.json", "/files/.json"}, []string{"/files/a.xml", "/files/a/b.json"}},
		{"/f?o", []string{"/foo", "/fxo"}, []string{"/fo", "/fooo"}},
		{"/docs/{*rest}", []string{"/docs", "/docs/a/b"}, []string{"/doc"}},
		{"/a/*/c", []string{"/a/b/c"}, []string{"/a/c", "/a/b/d/c"}},
	} {
		p, err := security.ParsePathPattern(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range c.yes {
			if !p.Matches(path) {
				t.Errorf("%s does not match %q", c.pattern, path)
			}
		}
		for _, path := range c.no {
			if p.Matches(path) {
				t.Errorf("%s matches %q", c.pattern, path)
			}
		}
	}
	for _, bad := range []string{"api/**", "/api/**/x", "/a/{id"} {
		if _, err := security.ParsePathPattern(bad); err == nil {
			t.Errorf("ParsePathPattern(%q) accepted it", bad)
		}
	}
}

// TestRulesFirstMatchWins: rules apply in order; a path no rule matches
// needs an authenticated principal.
func TestRulesFirstMatchWins(t *testing.T) {
	rules := new(security.Rules).
		Permit("/actuator/health").
		Require("/actuator/**", "ROLE_ACTUATOR").
		Permit("/api/**").
		Require("/admin/**")
	ops := &security.Principal{Name: "ops", Authorities: []string{"ROLE_ACTUATOR"}}
	user := &security.Principal{Name: "u"}
	for _, c := range []struct {
		path string
		p    *security.Principal
		want security.Decision
	}{
		{"/actuator/health", nil, security.Allowed},
		{"/actuator/env", nil, security.Unauthenticated},
		{"/actuator/env", user, security.Forbidden},
		{"/actuator/env", ops, security.Allowed},
		{"/api/x", nil, security.Allowed},
		{"/admin/x", user, security.Allowed},
		{"/admin/x", nil, security.Unauthenticated},
		{"/other", nil, security.Unauthenticated},
		{"/other", user, security.Allowed},
	} {
		if got := rules.Decide(c.path, c.p); got != c.want {
			t.Errorf("Decide(%s, %v) = %d, want %d", c.path, c.p, got, c.want)
		}
	}
}

func basicRequest(token string) *http.Request {
	r := httptest.NewRequest("GET", "/", nil)
	if token != "" {
		r.Header.Set("Authorization", token)
	}
	return r
}

func TestBasic(t *testing.T) {
	stored, _ := password.Encode("noop", "pä:ss", nil)
	h, err := password.Parse(stored)
	if err != nil {
		t.Fatal(err)
	}
	b := security.NewBasic(security.User{Name: "ünï", Password: h, Authorities: []string{"ROLE_X"}})
	enc := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	if p, err := b.Authenticate(basicRequest(enc("ünï:pä:ss"))); err != nil || p == nil || p.Name != "ünï" || !p.Has("ROLE_X") {
		t.Errorf("right credentials: %v %v", p, err)
	}
	for _, none := range []string{"", "Bearer abc", "Basicx"} {
		if p, err := b.Authenticate(basicRequest(none)); p != nil || err != nil {
			t.Errorf("%q: %v %v, want (nil, nil)", none, p, err)
		}
	}
	for _, bad := range []string{enc("ünï:wrong"), enc("other:pä:ss"), enc("nocolon"), "Basic !!", "Basic ", "Basic " + base64.StdEncoding.EncodeToString([]byte{0xff, ':', 'a'})} {
		p, err := b.Authenticate(basicRequest(bad))
		var f *security.Failure
		if p != nil || !errors.As(err, &f) || f.Challenge != security.BasicChallenge {
			t.Errorf("%q: %v %v, want a Failure with Basic's challenge", bad, p, err)
		}
	}
}

// brokenAuthenticator cannot check what it is given: its key source is
// down, say.
type brokenAuthenticator struct{}

func (brokenAuthenticator) Authenticate(*http.Request) (*security.Principal, error) {
	return nil, errors.New("the JWK set cannot be fetched: connection refused")
}
func (brokenAuthenticator) Challenge(*http.Request) string { return "Bearer" }

// TestGuardServerFault: an authenticator that fails for a reason that is
// not the client's (not a *Failure) makes a 503, not a 401 that would
// tell the client its credentials are wrong.
func TestGuardServerFault(t *testing.T) {
	g := &security.Guard{Authenticators: []security.Authenticator{brokenAuthenticator{}}, Rules: new(security.Rules)}
	w := httptest.NewRecorder()
	_, err := g.Check(w, httptest.NewRequest("GET", "/x", nil), func() string { return "id-1" })
	var de *dispatch.Error
	if !errors.As(err, &de) || de.Status != http.StatusServiceUnavailable {
		t.Fatalf("Check = %v, want a 503", err)
	}
	if c := w.Header().Get("WWW-Authenticate"); c != "" {
		t.Errorf("WWW-Authenticate %q on a server fault, want none", c)
	}
}

// headerAuthenticator finds the principal named by the X-Principal
// header, without authorities; denying says, on a 403, what a bearer
// token's authenticator says (security.DeniedChallenger).
type headerAuthenticator struct{}

func (headerAuthenticator) Authenticate(r *http.Request) (*security.Principal, error) {
	if name := r.Header.Get("X-Principal"); name != "" {
		return &security.Principal{Name: name}, nil
	}
	return nil, nil
}
func (headerAuthenticator) Challenge(r *http.Request) string { return "Test at=" + r.Host }

type denyingAuthenticator struct{ headerAuthenticator }

func (denyingAuthenticator) DeniedChallenge(*http.Request) string {
	return `Test error="insufficient_scope"`
}

// TestGuardChallenges: a 401 carries each authenticator's challenge, built
// from the request; a 403 carries one only when the authenticator that
// found the principal is a DeniedChallenger, as Spring answers a bearer
// token (insufficient_scope) and not a user over Basic.
func TestGuardChallenges(t *testing.T) {
	rules := new(security.Rules).Require("/admin", "ROLE_ADMIN")
	check := func(a security.Authenticator, principal string) (http.Header, error) {
		g := &security.Guard{Authenticators: []security.Authenticator{a}, Rules: rules}
		r := httptest.NewRequest("GET", "/admin", nil)
		if principal != "" {
			r.Header.Set("X-Principal", principal)
		}
		w := httptest.NewRecorder()
		_, err := g.Check(w, r, func() string { return "id-1" })
		return w.Header(), err
	}
	h, err := check(denyingAuthenticator{}, "")
	if de, ok := errors.AsType[*dispatch.Error](err); !ok || de.Status != http.StatusUnauthorized || h.Get("WWW-Authenticate") != "Test at=example.com" {
		t.Errorf("anonymous: %v, WWW-Authenticate %q; want a 401 with the challenge built from the request", err, h.Get("WWW-Authenticate"))
	}
	h, err = check(denyingAuthenticator{}, "bob")
	if de, ok := errors.AsType[*dispatch.Error](err); !ok || de.Status != http.StatusForbidden || h.Get("WWW-Authenticate") != `Test error="insufficient_scope"` {
		t.Errorf("a DeniedChallenger's principal: %v, WWW-Authenticate %q; want a 403 with its challenge", err, h.Get("WWW-Authenticate"))
	}
	h, err = check(headerAuthenticator{}, "bob")
	if de, ok := errors.AsType[*dispatch.Error](err); !ok || de.Status != http.StatusForbidden || h.Get("WWW-Authenticate") != "" {
		t.Errorf("another authenticator's principal: %v, WWW-Authenticate %q; want a 403 without a challenge", err, h.Get("WWW-Authenticate"))
	}
}
