package boot_test

// server.forward-headers-strategy: the X-Forwarded-* headers of a proxy,
// through Run and HTTP. The test client connects from 127.0.0.1, a
// trusted proxy address.

import (
	"strings"
	"testing"
)

// actuatorLinks is the actuator index's _links.
type actuatorLinks struct {
	Links map[string]struct{ Href string } `json:"_links"`
}

// proxied are the headers of a proxy that ended TLS for example.com.
var proxied = []string{"X-Forwarded-Proto: https", "X-Forwarded-Host: example.com", "X-Forwarded-For: 203.0.113.7"}

// TestForwardedHeadersNative: with native, the actuator's links, the
// recent exchanges' URI and the session cookie's Secure flag are the
// client's, as the proxy's headers tell them; a forwarded port shows in
// the links; a request without the headers is served as before.
func TestForwardedHeadersNative(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.forward-headers-strategy=native",
		"--management.endpoints.web.exposure.include=health,httpexchanges",
		"--management.httpexchanges.recording.enabled=true"}, nil)

	index := decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/actuator", "", proxied...))
	if got, want := index.Links["self"].Href, "https://example.com/actuator"; got != want {
		t.Errorf("behind the proxy the actuator's self link is %q, want %q", got, want)
	}
	if got, want := index.Links["health"].Href, "https://example.com/actuator/health"; got != want {
		t.Errorf("behind the proxy the actuator's health link is %q, want %q", got, want)
	}
	withPort := append(proxied[:2:2], "X-Forwarded-Port: 8443")
	index = decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/actuator", "", withPort...))
	if got, want := index.Links["self"].Href, "https://example.com:8443/actuator"; got != want {
		t.Errorf("with X-Forwarded-Port the self link is %q, want %q", got, want)
	}
	// Only a forwarded scheme: the host stays, on the scheme's default port.
	index = decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/actuator", "", "X-Forwarded-Proto: https"))
	if got, want := index.Links["self"].Href, "https://127.0.0.1/actuator"; got != want {
		t.Errorf("with X-Forwarded-Proto only the self link is %q, want %q", got, want)
	}
	// A forwarded host that would put a path or user into links is ignored.
	index = decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/actuator", "", "X-Forwarded-Host: evil.example/x", "X-Forwarded-Proto: http"))
	if got, want := index.Links["self"].Href, "http://127.0.0.1/actuator"; got != want {
		t.Errorf("with a forwarded host holding a path the self link is %q, want %q", got, want)
	}
	index = decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/actuator", ""))
	if got, want := index.Links["self"].Href, s.URL+"/actuator"; got != want {
		t.Errorf("without forwarded headers the self link is %q, want %q", got, want)
	}

	// The session cookie is Secure: the client's request was over TLS.
	c, raw := sessionCookieOf(t, send(t, nil, "POST", s.URL+"/count", "", proxied...))
	if !c.Secure {
		t.Errorf("behind a TLS proxy the session cookie is %q, want Secure", raw)
	}
	c, raw = sessionCookieOf(t, send(t, nil, "POST", s.URL+"/count", ""))
	if c.Secure {
		t.Errorf("over plain HTTP without forwarded headers the session cookie is %q, want not Secure", raw)
	}

	// The recent exchanges keep the URI the client used.
	r := send(t, nil, "GET", s.URL+"/actuator/httpexchanges", "")
	if !strings.Contains(r.body, `"https://example.com/count"`) {
		t.Errorf("the recent exchanges lack the forwarded URI https://example.com/count: %s", r.body)
	}
}

// TestForwardedHeadersIgnoredByDefault: unset (none, Spring's default
// off a cloud platform), the headers change nothing: any client may send
// them.
func TestForwardedHeadersIgnoredByDefault(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"--server.forward-headers-strategy=none"}} {
		s := start(t, args, nil)
		index := decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/actuator", "", proxied...))
		if got, want := index.Links["self"].Href, s.URL+"/actuator"; got != want {
			t.Errorf("%v: the self link is %q, want %q", args, got, want)
		}
		if c, raw := sessionCookieOf(t, send(t, nil, "POST", s.URL+"/count", "", proxied...)); c.Secure {
			t.Errorf("%v: the session cookie is %q, want not Secure", args, raw)
		}
	}
}

// TestForwardedHeadersOpenAPIServers: the OpenAPI document's server is
// relative (the context path), so a client behind the proxy resolves it
// against the URL it used; the forwarded headers leave it so.
func TestForwardedHeadersOpenAPIServers(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.forward-headers-strategy=native", "--server.servlet.context-path=/ctx"}, nil)
	type document struct{ Servers []struct{ URL string } }
	doc := decode[document](t, send(t, nil, "GET", s.URL+"/ctx/v3/api-docs", "", proxied...))
	if len(doc.Servers) == 0 || doc.Servers[0].URL != "/ctx" {
		t.Errorf("behind the proxy the OpenAPI servers are %+v, want the first /ctx", doc.Servers)
	}
}

// TestForwardStrategyRefusals: a value other than native or none stops
// start-up, naming the setting; framework says it is not built.
func TestForwardStrategyRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ value, want string }{
		{"framework", "framework (Spring's ForwardedHeaderFilter"},
		{"tomcat", "want native or none"},
	} {
		stderr, err := failToStart(t, []string{"--server.port=0", "--server.forward-headers-strategy=" + tt.value}, nil)
		if err == nil || !strings.Contains(stderr, "Property: server.forward-headers-strategy") || !strings.Contains(stderr, tt.value) || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: %v\n%s", tt.value, err, stderr)
		}
	}
}
