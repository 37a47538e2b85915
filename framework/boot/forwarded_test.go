package boot_test

// server.forward-headers-strategy: the X-Forwarded-* headers of a proxy,
// through Run and HTTP. The test client connects from 127.0.0.1, a
// trusted proxy address.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
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

// TestForwardedHeadersFramework: with framework, RFC 7239's Forwarded
// and the X-Forwarded-* headers give the actuator's links;
// X-Forwarded-Prefix takes the context path's place in the links, the
// redirects (to the context path, to Swagger UI) and the OpenAPI
// document's server; the headers are gone from what the recent
// exchanges keep; a prefix that is not a path is ignored.
func TestForwardedHeadersFramework(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.forward-headers-strategy=framework", "--server.servlet.context-path=/ctx",
		"--app.openapi.ui.enabled=true", "--management.endpoints.web.exposure.include=health,httpexchanges",
		"--management.httpexchanges.recording.enabled=true"}, nil)
	for _, tt := range []struct {
		name    string
		headers []string
		want    string
	}{
		{"Forwarded", []string{`Forwarded: for=203.0.113.7;proto=https;host="example.com:8443"`}, "https://example.com:8443/ctx/actuator"},
		{"X-Forwarded-*", proxied, "https://example.com/ctx/actuator"},
		{"X-Forwarded-Ssl", []string{"X-Forwarded-Ssl: on", "X-Forwarded-Host: example.com"}, "https://example.com/ctx/actuator"},
		{"X-Forwarded-Prefix", append([]string{"X-Forwarded-Prefix: /greeter/"}, proxied...), "https://example.com/greeter/actuator"},
		{"Forwarded and X-Forwarded-Prefix", []string{"Forwarded: proto=https;host=example.com", "X-Forwarded-Prefix: /edge, /greeter"}, "https://example.com/edge/greeter/actuator"},
		{"a prefix that is not a path", append([]string{"X-Forwarded-Prefix: //evil.example"}, proxied...), "https://example.com/ctx/actuator"},
		{"none", nil, s.URL + "/ctx/actuator"},
	} {
		index := decode[actuatorLinks](t, send(t, nil, "GET", s.URL+"/ctx/actuator", "", tt.headers...))
		if got := index.Links["self"].Href; got != tt.want {
			t.Errorf("%s: the actuator's self link is %q, want %q", tt.name, got, tt.want)
		}
	}

	type document struct{ Servers []struct{ URL string } }
	prefixed := append([]string{"X-Forwarded-Prefix: /greeter"}, proxied...)
	for _, path := range []string{"/ctx/v3/api-docs", "/ctx/v3/api-docs.yaml"} {
		r := send(t, nil, "GET", s.URL+path, "", prefixed...)
		if path == "/ctx/v3/api-docs" {
			if doc := decode[document](t, r); len(doc.Servers) == 0 || doc.Servers[0].URL != "/greeter" {
				t.Errorf("behind the prefix the OpenAPI servers are %+v, want the first /greeter", doc.Servers)
			}
		} else if !strings.Contains(r.body, "url: /greeter\n") {
			t.Errorf("behind the prefix the YAML document's servers are not /greeter:\n%.400s", r.body)
		}
	}
	if doc := decode[document](t, send(t, nil, "GET", s.URL+"/ctx/v3/api-docs", "", proxied...)); len(doc.Servers) == 0 || doc.Servers[0].URL != "/ctx" {
		t.Errorf("without a prefix the OpenAPI servers are %+v, want the first /ctx", doc.Servers)
	}

	// The redirects lead back through the proxy: the context path's to
	// itself with a slash, Swagger UI's to its page.
	for path, want := range map[string]string{"/ctx": "/greeter/", "/ctx/swagger-ui.html": "/greeter/swagger-ui/index.html"} {
		r, err := boottest.RawExchange(s.Addr(), []byte("GET "+path+" HTTP/1.1\r\nHost: svc\r\nX-Forwarded-Prefix: /greeter\r\nConnection: close\r\n\r\n"), nil, boottest.Timeout)
		if err != nil || r.Status != http.StatusFound || r.Header.Get("Location") != want {
			t.Errorf("GET %s behind the prefix: %d to %q (%v), want 302 to %s", path, r.Status, r.Header.Get("Location"), err, want)
		}
	}

	r := send(t, nil, "GET", s.URL+"/ctx/actuator/httpexchanges", "")
	if strings.Contains(strings.ToLower(r.body), "x-forwarded") || strings.Contains(strings.ToLower(r.body), `"forwarded"`) {
		t.Errorf("the recent exchanges keep the forwarded headers, want them removed: %.600s", r.body)
	}
}

// TestForwardStrategyRefusals: a value other than native, framework or
// none stops start-up, naming the setting.
func TestForwardStrategyRefusals(t *testing.T) {
	t.Parallel()
	stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--server.forward-headers-strategy=tomcat"}, nil)
	if err == nil || !strings.Contains(stderr, "Property: server.forward-headers-strategy") || !strings.Contains(stderr, "tomcat") || !strings.Contains(stderr, "want native, framework or none") {
		t.Errorf("tomcat: %v\n%s", err, stderr)
	}
}
