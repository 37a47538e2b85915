package boot_test

// server.servlet.context-path: every route of server.port under it.

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// noRedirects is a client that reports a redirect instead of following
// it.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// TestContextPath: with server.servlet.context-path=/ctx the service's
// routes and the management endpoints answer under /ctx and are 404s
// without it; the OpenAPI document's server, the actuator's links, Swagger
// UI's redirect and the session cookie's path name /ctx; the metrics' uri
// label does not, as Spring's does not.
func TestContextPath(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.servlet.context-path=/ctx", "--app.openapi.ui.enabled=true",
		"--management.endpoints.web.exposure.include=health,prometheus,httpexchanges",
		"--management.httpexchanges.recording.enabled=true"}, nil)

	if r := send(t, nil, "GET", s.URL+"/ctx/hello", ""); r.status != http.StatusOK || !strings.Contains(r.body, `"text":`) {
		t.Errorf("GET /ctx/hello: %d %s, want 200 and the greeting", r.status, r.body)
	}
	for _, path := range []string{"/hello", "/actuator/health", "/v3/api-docs", "/ctxhello"} {
		r := send(t, nil, "GET", s.URL+path, "")
		if r.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 outside the context path", path, r.status)
			continue
		}
		if p := problemOf(t, r); p.Instance != path || p.Detail != "No endpoint GET "+path+"." {
			t.Errorf("GET %s: the problem names %q (%q), want the path as sent", path, p.Instance, p.Detail)
		}
	}
	if p := problemOf(t, send(t, nil, "GET", s.URL+"/ctx/nothing", "")); p.Instance != "/ctx/nothing" {
		t.Errorf("GET /ctx/nothing: the problem's instance is %q, want /ctx/nothing", p.Instance)
	}
	if r := send(t, nil, "GET", s.URL+"/ctx/actuator/health", ""); r.status != http.StatusOK || !strings.Contains(r.body, `"UP"`) {
		t.Errorf("GET /ctx/actuator/health: %d %s, want 200 UP", r.status, r.body)
	}

	// The actuator's links, absolute, with the context path.
	type links struct {
		Links map[string]struct{ Href string } `json:"_links"`
	}
	index := decode[links](t, send(t, nil, "GET", s.URL+"/ctx/actuator", ""))
	if got, want := index.Links["self"].Href, s.URL+"/ctx/actuator"; got != want {
		t.Errorf("the actuator's self link is %q, want %q", got, want)
	}
	if got, want := index.Links["health"].Href, s.URL+"/ctx/actuator/health"; got != want {
		t.Errorf("the actuator's health link is %q, want %q", got, want)
	}

	// The OpenAPI document: its server is the context path, its paths
	// are the routes' (as springdoc writes them).
	type document struct {
		Servers []struct{ URL string }
		Paths   map[string]any
	}
	doc := decode[document](t, send(t, nil, "GET", s.URL+"/ctx/v3/api-docs", ""))
	if len(doc.Servers) == 0 || doc.Servers[0].URL != "/ctx" {
		t.Errorf("the OpenAPI servers are %+v, want the first /ctx", doc.Servers)
	}
	if _, ok := doc.Paths["/hello"]; !ok {
		t.Errorf("the OpenAPI paths lack /hello: %v", doc.Paths)
	}

	// Swagger UI's entry redirects under the context path, where the page is.
	r := send(t, noRedirects, "GET", s.URL+"/ctx/swagger-ui.html", "")
	if loc := r.header.Get("Location"); r.status != http.StatusFound || loc != "/ctx/swagger-ui/index.html" {
		t.Errorf("GET /ctx/swagger-ui.html: %d Location %q, want 302 /ctx/swagger-ui/index.html", r.status, loc)
	} else if page := send(t, nil, "GET", s.URL+loc, ""); page.status != http.StatusOK {
		t.Errorf("GET %s: %d, want the page", loc, page.status)
	}
	// The context path itself is sent to its root, as Tomcat does.
	if r := send(t, noRedirects, "GET", s.URL+"/ctx", ""); r.status != http.StatusFound || r.header.Get("Location") != "/ctx/" {
		t.Errorf("GET /ctx: %d Location %q, want 302 /ctx/", r.status, r.header.Get("Location"))
	}

	// The session cookie goes back to this application only.
	if r := send(t, nil, "POST", s.URL+"/ctx/count", ""); !strings.Contains(r.header.Get("Set-Cookie"), "Path=/ctx/;") {
		t.Errorf("POST /ctx/count: Set-Cookie %q, want Path=/ctx/", r.header.Get("Set-Cookie"))
	}

	// The uri label is the route's, without the context path.
	metrics := send(t, nil, "GET", s.URL+"/ctx/actuator/prometheus", "").body
	hello := regexp.MustCompile(`(?m)^http_server_requests_seconds_count\{[^}]*uri="/hello"[^}]*\} 1$`)
	if !hello.MatchString(metrics) {
		t.Errorf("/actuator/prometheus has no count of 1 for uri=\"/hello\":\n%s", grepLines(metrics, "http_server_requests_seconds_count"))
	}
	if strings.Contains(metrics, `uri="/ctx`) {
		t.Errorf("a uri label holds the context path:\n%s", grepLines(metrics, `uri="/ctx`))
	}

	// The recent exchanges keep the URI as the client sent it, as Spring's do.
	exchanges := send(t, nil, "GET", s.URL+"/ctx/actuator/httpexchanges", "").body
	if want := `"uri":"` + s.URL + `/ctx/hello"`; !strings.Contains(exchanges, want) {
		t.Errorf("/actuator/httpexchanges lacks %s:\n%.500s", want, exchanges)
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// TestContextPathNotOnTheManagementPort: with a management port of its
// own, the endpoints there are under management.server.base-path, not
// the context path, as in Spring; server.port has no endpoints.
func TestContextPathNotOnTheManagementPort(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.servlet.context-path=/ctx", "--management.server.port=0",
		"--management.server.base-path=/manage"}, nil)
	if s.ManagementURL == s.URL {
		t.Fatal("the management endpoints have no port of their own")
	}
	if code, body := get(t, s.ManagementURL+"/manage/actuator/health"); code != http.StatusOK {
		t.Errorf("GET /manage/actuator/health on the management port: %d %s, want 200", code, body)
	}
	for _, url := range []string{s.ManagementURL + "/ctx/actuator/health", s.ManagementURL + "/ctx/manage/actuator/health", s.URL + "/ctx/actuator/health"} {
		if code, _ := get(t, url); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", url, code)
		}
	}
	if code, _ := get(t, s.URL+"/ctx/hello"); code != http.StatusOK {
		t.Errorf("GET /ctx/hello: %d, want 200", code)
	}
}

// TestContextPathValues: the values Spring takes (blanks and one trailing
// slash dropped, "/" the root) are taken; the others stop start-up with
// the report naming the setting, its value, its origin and why.
func TestContextPathValues(t *testing.T) {
	t.Parallel()
	for arg, path := range map[string]string{"/ctx/": "/ctx/hello", "/": "/hello", "": "/hello", " /a/b ": "/a/b/hello"} {
		s := start(t, []string{"--server.servlet.context-path=" + arg}, nil)
		if code, body := get(t, s.URL+path); code != http.StatusOK {
			t.Errorf("context path %q: GET %s: %d %s, want 200", arg, path, code, body)
		}
	}
	refused := map[string]string{
		"ctx":     "want a path that starts with / and does not end with /",
		"/ctx//":  "want a path that starts with / and does not end with /",
		"/a//b":   "want a clean path",
		"/a/../b": "want a clean path",
		"/a?b":    "want a path without ?, #",
		"/a b":    "want a path without ?, #, spaces",
	}
	for value, reason := range refused {
		arg := "--server.servlet.context-path=" + value
		report, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", arg}, nil)
		if err == nil {
			t.Errorf("%q: the service started", value)
			continue
		}
		for _, w := range []string{"Property: server.servlet.context-path", `Value: "` + value + `"`, "Origin: command-line argument " + arg, reason} {
			if !strings.Contains(report, w) {
				t.Errorf("%q: the report lacks %q:\n%s", value, w, report)
			}
		}
	}
}
