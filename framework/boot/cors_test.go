package boot_test

// Browsers: the cross-origin protection that keeps a page on another
// origin from changing state (stopping the service through
// /actuator/shutdown), and CORS from settings for the pages that may.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

const shutdownOn = "--management.endpoint.shutdown.access=unrestricted"

// A page's browser says where the request comes from in two ways: the
// Fetch metadata header Sec-Fetch-Site, and the Origin header.
var crossSiteHeaders = map[string][]string{
	"Sec-Fetch-Site": {"Sec-Fetch-Site: cross-site", "Origin: https://evil.example"},
	"Origin":         {"Origin: https://evil.example"},
}

// refusedCrossOrigin fails the test unless r is the 403 problem document
// of a cross-origin request refused.
func refusedCrossOrigin(t *testing.T, r response) {
	t.Helper()
	p, err := boottest.CheckProblem(r.status, r.header, r.body)
	if err != nil || r.status != 403 || !strings.Contains(p.Detail, "Cross-origin POST refused") {
		t.Errorf("%s: want a 403 problem document for a cross-origin request; got %d %v %.300s", r.request, r.status, err, r.body)
	}
}

// waitExit fails the test unless the instance's run returns, without an
// error, once shut down.
func waitExit(t *testing.T, s *boottest.Instance) {
	t.Helper()
	select {
	case <-s.Exited():
		if s.Err() != nil {
			t.Errorf("run after shutdown: %v", s.Err())
		}
	case <-time.After(boottest.Timeout):
		t.Fatal("run did not return after POST /actuator/shutdown")
	}
}

// TestCrossOriginShutdownRefused: a page on another origin cannot stop
// the service with a simple (text/plain) POST, whichever header says
// where it comes from; the service's own POSTs are refused alike; a
// same-origin page and a client that is no browser still succeed.
func TestCrossOriginShutdownRefused(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll, shutdownOn}, nil)
	for name, headers := range crossSiteHeaders {
		t.Run(name, func(t *testing.T) {
			refusedCrossOrigin(t, send(t, nil, "POST", s.URL+"/actuator/shutdown", "stop", append([]string{"Content-Type: text/plain"}, headers...)...))
			refusedCrossOrigin(t, send(t, nil, "POST", s.URL+"/notes", `{"text":"x"}`, append([]string{"Content-Type: application/json"}, headers...)...))
		})
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health", "", crossSiteHeaders["Sec-Fetch-Site"]...); r.status != 200 {
		t.Errorf("a cross-site GET (reading is the browser's to stop): %d %s", r.status, r.body)
	}
	if r := send(t, nil, "POST", s.URL+"/notes", `{"text":"x"}`, "Content-Type: application/json"); r.status != 201 {
		t.Errorf("a POST without Origin (curl): %d %s", r.status, r.body)
	}
	if r := send(t, nil, "POST", s.URL+"/notes", `{"text":"x"}`, "Content-Type: application/json", "Origin: "+s.URL, "Sec-Fetch-Site: same-origin"); r.status != 201 {
		t.Errorf("a same-origin POST: %d %s", r.status, r.body)
	}
	// Still running after the refusals; a same-origin page may stop it.
	if r := send(t, nil, "POST", s.URL+"/actuator/shutdown", "", "Origin: "+s.URL); r.status != 200 {
		t.Errorf("a same-origin shutdown: %d %s", r.status, r.body)
	}
	waitExit(t, s)
}

// TestCrossOriginManagementPort: the management port of its own is
// protected too; curl still stops the service through it.
func TestCrossOriginManagementPort(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll, shutdownOn, "--management.server.port=0"}, nil)
	mgmt := "http://127.0.0.1:" + s.WaitForLog(t, managementAddr)[1]
	for name, headers := range crossSiteHeaders {
		t.Run(name, func(t *testing.T) {
			refusedCrossOrigin(t, send(t, nil, "POST", mgmt+"/actuator/shutdown", "stop", append([]string{"Content-Type: text/plain"}, headers...)...))
		})
	}
	if r := send(t, nil, "GET", mgmt+"/actuator/health", ""); r.status != 200 {
		t.Fatalf("after the refusals: %d %s", r.status, r.body)
	}
	if r := send(t, nil, "POST", mgmt+"/actuator/shutdown", ""); r.status != 200 {
		t.Errorf("shutdown by curl: %d %s", r.status, r.body)
	}
	waitExit(t, s)
}

const opsOrigin = "https://ops.example"

// corsArgs allow the ops console's pages to call the management
// endpoints, and any subdomain of example.com on any port to call the
// service's routes.
var corsArgs = []string{exposeAll, shutdownOn,
	"--management.endpoints.web.cors.allowed-origins=" + opsOrigin,
	"--management.endpoints.web.cors.allowed-methods=GET,POST",
	"--management.endpoints.web.cors.allowed-headers=X-Token,Content-Type",
	"--management.endpoints.web.cors.exposed-headers=X-Request-Id",
	"--management.endpoints.web.cors.allow-credentials=true",
	"--management.endpoints.web.cors.max-age=600",
	"--app.web.cors.allowed-origin-patterns=https://*.example.com:[*]",
	"--app.web.cors.allowed-methods=*",
	"--app.web.cors.allowed-headers=*",
}

// invalidCORS fails the test unless r is Spring's refusal of a CORS
// request, as a problem document.
func invalidCORS(t *testing.T, r response) {
	t.Helper()
	p, err := boottest.CheckProblem(r.status, r.header, r.body)
	if err != nil || r.status != 403 || p.Detail != "Invalid CORS request" {
		t.Errorf("%s: want 403 Invalid CORS request; got %d %v %.300s", r.request, r.status, err, r.body)
	}
}

// preflight sends a browser's preflight for method from origin.
func preflight(t *testing.T, url, origin, method string, headers ...string) response {
	t.Helper()
	return send(t, nil, "OPTIONS", url, "", append([]string{"Origin: " + origin, "Access-Control-Request-Method: " + method}, headers...)...)
}

// TestCORSPreflight: a preflight is answered from the routes of the path
// and the policy of their settings, as Spring's DefaultCorsProcessor does.
func TestCORSPreflight(t *testing.T) {
	t.Parallel()
	s := start(t, corsArgs, nil)
	r := preflight(t, s.URL+"/actuator/loggers/root", opsOrigin, "POST", "Access-Control-Request-Headers: content-type, x-token")
	want := map[string]string{
		"Access-Control-Allow-Origin":      opsOrigin,
		"Access-Control-Allow-Methods":     "GET,POST",
		"Access-Control-Allow-Headers":     "content-type,x-token",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Max-Age":           "600",
		"Access-Control-Expose-Headers":    "X-Request-Id",
	}
	if r.status != 200 {
		t.Errorf("allowed preflight: %d %s", r.status, r.body)
	}
	for k, v := range want {
		if got := r.header.Get(k); got != v {
			t.Errorf("allowed preflight: %s: got %q, want %q", k, got, v)
		}
	}
	if vary := r.header.Values("Vary"); !slices.Equal(vary, []string{"Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers"}) {
		t.Errorf("allowed preflight: Vary %q", vary)
	}

	for _, c := range []struct {
		name, path, origin, method string
		headers                    []string
	}{
		{"another origin", "/actuator/health", "https://evil.example", "GET", nil},
		{"a method the settings do not allow", "/actuator/loggers/root", opsOrigin, "DELETE", nil},
		{"a header the settings do not allow", "/actuator/health", opsOrigin, "GET", []string{"Access-Control-Request-Headers: X-Other"}},
		{"a method the path has no route for", "/actuator/health", opsOrigin, "POST", nil},
		{"a path without routes", "/actuator/nothing", opsOrigin, "GET", nil},
		{"a route without a policy", "/hello", opsOrigin, "GET", nil},
	} {
		invalidCORS(t, preflight(t, s.URL+c.path, c.origin, c.method, c.headers...))
	}

	// The service's routes: a pattern, any method, any header, and
	// Spring's 30 minutes when max-age is not set.
	r = preflight(t, s.URL+"/notes", "https://app.example.com:8443", "POST", "Access-Control-Request-Headers: X-Anything")
	if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "https://app.example.com:8443" ||
		r.header.Get("Access-Control-Allow-Methods") != "POST" || r.header.Get("Access-Control-Allow-Headers") != "X-Anything" ||
		r.header.Get("Access-Control-Max-Age") != "1800" || r.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("preflight by pattern: %d %v %s", r.status, r.header, r.body)
	}
	invalidCORS(t, preflight(t, s.URL+"/notes", "https://example.org", "POST"))

	// A same-origin OPTIONS is no preflight: the path's methods.
	if r := preflight(t, s.URL+"/actuator/health", s.URL, "GET"); r.status != 200 || r.header.Get("Allow") == "" || r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("same-origin OPTIONS: %d %v", r.status, r.header)
	}
}

// TestCORSActualRequests: an allowed origin's requests carry the CORS
// headers, and its POSTs pass the cross-origin protection; another
// origin's are refused.
func TestCORSActualRequests(t *testing.T) {
	t.Parallel()
	s := start(t, corsArgs, nil)
	r := send(t, nil, "GET", s.URL+"/actuator/health", "", "Origin: "+opsOrigin, "Sec-Fetch-Site: cross-site")
	if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != opsOrigin || r.header.Get("Access-Control-Allow-Credentials") != "true" ||
		r.header.Get("Access-Control-Expose-Headers") != "X-Request-Id" || r.header.Get("Access-Control-Max-Age") != "" ||
		!slices.Contains(r.header.Values("Vary"), "Origin") {
		t.Errorf("allowed GET: %d %v", r.status, r.header)
	}
	invalidCORS(t, send(t, nil, "GET", s.URL+"/actuator/health", "", "Origin: https://evil.example"))
	// The service's routes have no credentials, and a pattern.
	r = send(t, nil, "POST", s.URL+"/notes", `{"text":"x"}`, "Content-Type: application/json", "Origin: https://app.example.com", "Sec-Fetch-Site: same-site")
	if r.status != 201 || r.header.Get("Access-Control-Allow-Origin") != "https://app.example.com" || r.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("allowed POST by pattern: %d %v %s", r.status, r.header, r.body)
	}
	invalidCORS(t, send(t, nil, "POST", s.URL+"/notes", `{"text":"x"}`, "Content-Type: application/json", "Origin: https://evil.example", "Sec-Fetch-Site: cross-site"))
	// A method the management policy does not allow (HEAD, not in
	// GET,POST), on a route that serves it.
	if r := send(t, nil, "HEAD", s.URL+"/actuator/health", "", "Origin: "+opsOrigin); r.status != 403 || r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("HEAD from the allowed origin: %d %v", r.status, r.header)
	}
	// Without Origin, no CORS headers: a client that is no browser.
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("GET without Origin: %d %v", r.status, r.header)
	}
	// The allowed origin may stop the service from its page.
	if r := send(t, nil, "POST", s.URL+"/actuator/shutdown", "", "Origin: "+opsOrigin, "Sec-Fetch-Site: cross-site"); r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != opsOrigin {
		t.Errorf("shutdown from the allowed origin: %d %v %s", r.status, r.header, r.body)
	}
	waitExit(t, s)
}

// TestCORSCredentialsWithAnyOriginRefused: as Spring, credentials cannot
// go to every origin; start-up stops, naming the setting.
func TestCORSCredentialsWithAnyOriginRefused(t *testing.T) {
	t.Parallel()
	for _, prefix := range []string{"management.endpoints.web.cors.", "app.web.cors."} {
		stderr, err := boottest.FailToStart(t, tester(), []string{"--" + prefix + "allowed-origins=*", "--" + prefix + "allow-credentials=true"}, nil)
		if err == nil || !strings.Contains(stderr, prefix+"allow-credentials") || !strings.Contains(stderr, "command-line") ||
			!strings.Contains(stderr, "credentials cannot be allowed to every origin") {
			t.Errorf("%s: want a refusal naming allow-credentials; got %v\n%s", prefix, err, stderr)
		}
	}
}

// TestCORSOwnPortAndContextPath: the management port of its own takes
// the management policy, and the service's routes under a context path
// take theirs; neither takes the other's.
func TestCORSOwnPortAndContextPath(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll, "--management.server.port=0", "--server.servlet.context-path=/app",
		"--management.endpoints.web.cors.allowed-origins=" + opsOrigin,
		"--app.web.cors.allowed-origins=https://app.example"}, nil)
	mgmt := "http://127.0.0.1:" + s.WaitForLog(t, managementAddr)[1]
	if r := preflight(t, mgmt+"/actuator/health", opsOrigin, "GET"); r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != opsOrigin {
		t.Errorf("preflight on the management port: %d %v", r.status, r.header)
	}
	invalidCORS(t, preflight(t, mgmt+"/actuator/health", "https://app.example", "GET"))
	if r := preflight(t, s.URL+"/app/hello", "https://app.example", "GET"); r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("preflight under the context path: %d %v", r.status, r.header)
	}
	invalidCORS(t, preflight(t, s.URL+"/app/hello", opsOrigin, "GET"))
}
