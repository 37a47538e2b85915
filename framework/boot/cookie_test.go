package boot_test

// The session cookie's settings, server.servlet.session.cookie.*, as a
// client sees them on Set-Cookie and as the server reads them back.

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

// sessionCookieOf returns the one cookie r sets, parsed, and its raw
// Set-Cookie line.
func sessionCookieOf(t *testing.T, r response) (*http.Cookie, string) {
	t.Helper()
	lines := r.header.Values("Set-Cookie")
	if len(lines) != 1 {
		t.Fatalf("%s: Set-Cookie %q; want one session cookie", r.request, lines)
	}
	c, err := http.ParseSetCookie(lines[0])
	if err != nil {
		t.Fatalf("%s: Set-Cookie %q: %v", r.request, lines[0], err)
	}
	return c, lines[0]
}

// TestSessionCookieDefaults: unset, the cookie is Spring Session's:
// SESSION, Path=/, HttpOnly, SameSite=Lax, no Domain, no Max-Age (gone
// when the browser closes), and not Secure over plain HTTP.
func TestSessionCookieDefaults(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	c, raw := sessionCookieOf(t, send(t, nil, "POST", s.URL+"/count", ""))
	if c.Name != "SESSION" || c.Value == "" || c.Path != "/" || c.Domain != "" || !c.HttpOnly || c.Secure ||
		c.SameSite != http.SameSiteLaxMode || c.MaxAge != 0 || !c.Expires.IsZero() {
		t.Errorf("default session cookie %q; want SESSION=<id>; Path=/; HttpOnly; SameSite=Lax, and no Domain, Max-Age, Expires or Secure", raw)
	}
}

// TestSessionCookieSettings: each setting shows on Set-Cookie as set
// (same-site in any case, as Spring binds it), and the session is found
// again under the configured name only: a client sending the id under the
// old name SESSION gets a new session.
func TestSessionCookieSettings(t *testing.T) {
	t.Parallel()
	s := start(t, []string{
		"--server.servlet.session.cookie.name=JSESSIONID",
		"--server.servlet.session.cookie.path=/count",
		"--server.servlet.session.cookie.domain=example.com",
		"--server.servlet.session.cookie.http-only=false",
		"--server.servlet.session.cookie.secure=true",
		"--server.servlet.session.cookie.same-site=STRICT",
		"--server.servlet.session.cookie.max-age=2h",
	}, nil)
	before := time.Now()
	first := send(t, nil, "POST", s.URL+"/count", "")
	c, raw := sessionCookieOf(t, first)
	if c.Name != "JSESSIONID" || c.Path != "/count" || c.Domain != "example.com" || c.HttpOnly || !c.Secure ||
		c.SameSite != http.SameSiteStrictMode || c.MaxAge != 7200 {
		t.Errorf("Set-Cookie %q; want JSESSIONID=<id>; Path=/count; Domain=example.com; Max-Age=7200; Secure; SameSite=Strict, without HttpOnly", raw)
	}
	// Spring Session writes Expires beside Max-Age, for older clients.
	if want := before.Add(2 * time.Hour); c.Expires.Before(want.Add(-2*time.Second)) || c.Expires.After(want.Add(2*time.Minute)) {
		t.Errorf("Set-Cookie %q: Expires %v; want about %v", raw, c.Expires, want)
	}
	if first.status != 200 || first.body != "1" {
		t.Fatalf("first POST /count: %d %s, want 1", first.status, first.body)
	}

	again := send(t, nil, "POST", s.URL+"/count", "", "Cookie: JSESSIONID="+c.Value)
	if again.status != 200 || again.body != "2" || len(again.header.Values("Set-Cookie")) != 0 {
		t.Errorf("POST /count with the cookie JSESSIONID: %d %s, Set-Cookie %q; want 2 in the same session, no new cookie",
			again.status, again.body, again.header.Values("Set-Cookie"))
	}
	old := send(t, nil, "POST", s.URL+"/count", "", "Cookie: SESSION="+c.Value)
	if old.status != 200 || old.body != "1" {
		t.Errorf("POST /count with the id under SESSION: %d %s; want 1, a new session", old.status, old.body)
	}
	if fresh, raw := sessionCookieOf(t, old); fresh.Name != "JSESSIONID" || fresh.Value == c.Value {
		t.Errorf("POST /count with the id under SESSION set %q; want a new JSESSIONID", raw)
	}
}

// TestSessionCookieSameSiteNone: same-site=none with secure=true writes
// SameSite=None; Secure, which browsers send on cross-site requests.
func TestSessionCookieSameSiteNone(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.servlet.session.cookie.same-site=none", "--server.servlet.session.cookie.secure=true"}, nil)
	c, raw := sessionCookieOf(t, send(t, nil, "POST", s.URL+"/count", ""))
	if c.SameSite != http.SameSiteNoneMode || !c.Secure || !strings.Contains(raw, "SameSite=None") {
		t.Errorf("Set-Cookie %q; want SameSite=None; Secure", raw)
	}
}

// TestSessionCookieRefusals: a cookie setting the browser would drop or
// ignore stops start-up, the report naming the setting, its value, its
// origin and why.
func TestSessionCookieRefusals(t *testing.T) {
	t.Parallel()
	const p = "server.servlet.session.cookie."
	tests := []struct {
		args   []string
		key    string
		value  string
		reason string
	}{
		{[]string{"--" + p + "same-site=sideways"}, p + "same-site", "sideways", "want one of strict, lax, none"},
		{[]string{"--" + p + "same-site=None"}, p + "same-site", "None", "not Secure"},
		{[]string{"--" + p + "same-site=none", "--" + p + "secure=false"}, p + "same-site", "none", "set " + p + "secure=true"},
		{[]string{"--" + p + "secure=maybe"}, p + "secure", "maybe", "want true or false"},
		{[]string{"--" + p + "http-only=maybe"}, p + "http-only", "maybe", "want true or false"},
		{[]string{"--" + p + "name=MY SESSION"}, p + "name", "MY SESSION", "want a cookie name"},
		{[]string{"--" + p + "name="}, p + "name", "", "want a cookie name"},
		{[]string{"--" + p + "path=count"}, p + "path", "count", "starting with /"},
		{[]string{"--" + p + "domain=exa mple.com"}, p + "domain", "exa mple.com", "want a domain"},
		{[]string{"--" + p + "max-age=0"}, p + "max-age", "0", "want a positive duration"},
		{[]string{"--" + p + "max-age=500ms"}, p + "max-age", "500ms", "at least 1s"},
	}
	for _, tt := range tests {
		report, err := boottest.FailToStart(t, tester(), append([]string{"--server.port=0"}, tt.args...), nil)
		if err == nil {
			t.Errorf("%q: the service started", tt.args)
			continue
		}
		arg := tt.args[0]
		for _, w := range []string{"Property: " + tt.key, "Value: \"" + tt.value + "\"", "Origin: command-line argument " + arg, tt.reason} {
			if !strings.Contains(report, w) {
				t.Errorf("%q: the report lacks %q:\n%s", tt.args, w, report)
			}
		}
	}
}
