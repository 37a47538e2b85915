package boot_test

// End-to-end tests of the management endpoints (/actuator/*) as boot
// wires them: media types, exposure, info and mappings, the diagnostics,
// shutdown, httpexchanges, base paths and a port of their own, with
// Spring Boot 3.5's documented shapes. Health is in health_test.go,
// metrics in metrics_test.go, loggers in loggers_test.go.

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

const actuatorV3 = "application/vnd.spring-boot.actuator.v3+json"

// TestActuatorMediaTypes: Spring's actuator type by default, v2 and
// plain JSON on request; a client that asks for v3 is no longer refused.
func TestActuatorMediaTypes(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=health,info,env"}, nil)
	for _, path := range []string{"/actuator", "/actuator/health", "/actuator/health/readiness", "/actuator/info", "/actuator/env"} {
		for accept, want := range map[string]string{
			"":         actuatorV3,
			actuatorV3: actuatorV3,
			"application/vnd.spring-boot.actuator.v2+json": "application/vnd.spring-boot.actuator.v2+json",
			"application/json": "application/json",
			"*/*":              actuatorV3,
		} {
			var headers []string
			if accept != "" {
				headers = []string{"Accept: " + accept}
			}
			if r := send(t, nil, "GET", s.URL+path, "", headers...); r.status != 200 || r.header.Get("Content-Type") != want {
				t.Errorf("%s with Accept %q: %d %q, want 200 %q", path, accept, r.status, r.header.Get("Content-Type"), want)
			}
		}
	}
}

// TestExposure: only health is exposed by default; with metrics off,
// requests are not recorded, and the runtime and process metrics are
// still served.
func TestExposure(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	for _, path := range []string{"/actuator/info", "/actuator/mappings", "/actuator/prometheus", "/actuator/beans", "/actuator/env"} {
		if r := send(t, nil, "GET", s.URL+path, ""); r.status != 404 {
			t.Errorf("%s is not exposed by default, but answered %d", path, r.status)
		}
	}
	off := start(t, []string{exposeAll, "--management.metrics.enabled=false"}, nil)
	send(t, nil, "GET", off.URL+"/hello", "")
	r := send(t, nil, "GET", off.URL+"/actuator/prometheus", "")
	if r.status != 200 || !strings.Contains(r.body, "go_goroutines") || strings.Contains(r.body, "http_server_requests_seconds_count") {
		t.Errorf("with metrics off, /actuator/prometheus answered %d:\n%.500s", r.status, r.body)
	}
}

// TestUnknownExposureIDsAreReported: a misspelt endpoint id hides the
// endpoint it meant; start-up says so, naming it.
func TestUnknownExposureIDsAreReported(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"application.yml": "management:\n  endpoints:\n    web:\n      exposure:\n        exclude: bean\n"})
	s := start(t, []string{"--management.endpoints.web.exposure.include=healt,env"}, nil)
	// Each names the setting and where it was set.
	for id, where := range map[string]string{
		"healt": `key=management.endpoints.web.exposure.include origin="command-line argument --management.endpoints.web.exposure.include"`,
		"bean":  `key=management.endpoints.web.exposure.exclude origin="file \[application.yml\] line 5 column 18"`,
	} {
		s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="the setting names an endpoint that does not exist; it is ignored" `+where+` id=`+id+` `))
	}
	if strings.Contains(s.Stdout.String(), "id=env") {
		t.Error("a known id was reported as unknown")
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != 404 {
		t.Errorf("health, misspelt in include, answered %d", r.status)
	}
}

// TestInfoAndMappings: /actuator/info tells the build; /actuator/mappings
// lists every route, the service's, its OpenAPI document's and the
// actuator's, with its conditions and success status in Spring's shape.
func TestInfoAndMappings(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll}, nil)
	if r := send(t, nil, "GET", s.URL+"/actuator/info", ""); r.status != 200 || !strings.Contains(r.body, `"name":"github.com/springport/greeter"`) || !strings.Contains(r.body, `"go":"go1.`) {
		t.Errorf("/actuator/info: %d %s", r.status, r.body)
	}
	r := send(t, nil, "GET", s.URL+"/actuator/mappings", "")
	for _, want := range []string{
		`"predicate":"{GET [/hello/{n}], produces [`,
		`"predicate":"{POST [/notes], consumes [application/json || application/*+json || application/xml || text/xml || application/*+xml], produces [`,
		`"details":{"requestMappingConditions":{"consumes":[{"mediaType":"application/json","negated":false}`,
		`"patterns":["/notes"],"produces":[{"mediaType":"application/json","negated":false}`,
		`]},"status":201}`,
		`"patterns":["/store"],"produces":[]},"status":200}`,
		`"patterns":["/actuator/mappings"]`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/actuator/mappings lacks %s", want)
		}
	}
	for _, route := range []string{"GET /hello", "POST /count", "GET /store", "GET /hello/{n}", "POST /notes", "GET /fail",
		"GET /v3/api-docs", "GET /actuator/health", "GET /actuator/mappings"} {
		if !strings.Contains(r.body, `"handler":"`+route+`"`) {
			t.Errorf("/actuator/mappings does not list %s", route)
		}
	}
}

// TestDiagnostics: none exposed by default; exposed, each answers in its
// format, the heap dump once its access allows it too (none by default,
// as in Spring Boot 3.5).
func TestDiagnostics(t *testing.T) {
	t.Parallel()
	off := start(t, nil, nil)
	for _, path := range []string{"/actuator/threaddump", "/actuator/heapdump", "/actuator/cpuprofile"} {
		if r := send(t, nil, "GET", off.URL+path, ""); r.status != 404 {
			t.Errorf("%s is not exposed by default, but answered %d", path, r.status)
		}
	}
	exposed := start(t, []string{"--management.endpoints.web.exposure.include=*"}, nil)
	if r := send(t, nil, "GET", exposed.URL+"/actuator/heapdump", ""); r.status != 404 {
		t.Errorf("/actuator/heapdump exposed with * but its access unset: %d, want 404", r.status)
	}
	s := start(t, []string{"--management.endpoints.web.exposure.include=threaddump,heapdump,cpuprofile", "--management.endpoint.heapdump.access=unrestricted"}, nil)
	if strings.Contains(s.Stdout.String(), "names an endpoint that does not exist") {
		t.Error("a diagnostics id was reported as unknown")
	}
	r := send(t, nil, "GET", s.URL+"/actuator/threaddump", "")
	dump := decode[struct {
		Threads []struct {
			ThreadName, ThreadState string
			StackTrace              []struct {
				ClassName, MethodName string
				LineNumber            int
			}
		}
	}](t, r)
	if r.status != 200 || r.header.Get("Content-Type") != actuatorV3 || len(dump.Threads) == 0 || dump.Threads[0].ThreadState == "" || len(dump.Threads[0].StackTrace) == 0 {
		t.Errorf("threaddump: %d %.500s", r.status, r.body)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/threaddump", "", "Accept: text/plain"); r.status != 200 || !strings.HasPrefix(r.body, "goroutine ") || !strings.Contains(r.body, "net/http.(*Server).Serve") {
		t.Errorf("threaddump as text: %d %.300s", r.status, r.body)
	}
	for _, path := range []string{"/actuator/heapdump", "/actuator/cpuprofile?seconds=1"} {
		r := send(t, nil, "GET", s.URL+path, "")
		if r.status != 200 || r.header.Get("Content-Type") != "application/octet-stream" ||
			!strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="`) || !strings.HasPrefix(r.body, "\x1f\x8b") {
			t.Errorf("%s: %d %v", path, r.status, r.header)
		}
	}
}

// TestShutdownEndpoint: off unless its access is unrestricted; then a
// POST is answered, and the service stops gracefully, as on SIGTERM.
func TestShutdownEndpoint(t *testing.T) {
	t.Parallel()
	off := start(t, []string{exposeAll}, nil)
	if r := send(t, nil, "POST", off.URL+"/actuator/shutdown", ""); r.status != 404 {
		t.Errorf("shutdown without access answered %d", r.status)
	}
	s := start(t, []string{exposeAll, "--management.endpoint.shutdown.access=unrestricted"}, nil)
	if r := send(t, nil, "GET", s.URL+"/actuator", ""); !strings.Contains(r.body, `"shutdown":{"href":"`+s.URL+`/actuator/shutdown"`) {
		t.Errorf("the index lacks shutdown: %s", r.body)
	}
	if r := send(t, nil, "POST", s.URL+"/actuator/shutdown", ""); r.status != 200 || r.body != `{"message":"Shutting down, bye..."}` {
		t.Errorf("shutdown: %d %s", r.status, r.body)
	}
	s.WaitForLog(t, shuttingDown)
	s.WaitForLog(t, stopped)
	select {
	case <-s.Exited():
		if s.Err() != nil {
			t.Errorf("run after shutdown: %v", s.Err())
		}
	case <-time.After(boottest.Timeout):
		t.Fatal("run did not return after POST /actuator/shutdown")
	}
}

// exchangeSeen is one entry of /actuator/httpexchanges.
type exchangeSeen struct {
	Timestamp string
	Request   struct {
		URI, Method string
		Headers     map[string][]string
	}
	Response struct {
		Status  int
		Headers map[string][]string
	}
	TimeTaken string
}

// TestHTTPExchanges: recorded only when asked for, in Spring's shape,
// newest first, without the secrets a request carries.
func TestHTTPExchanges(t *testing.T) {
	t.Parallel()
	off := start(t, []string{"--management.endpoints.web.exposure.include=httpexchanges"}, nil)
	if r := send(t, nil, "GET", off.URL+"/actuator/httpexchanges", ""); r.status != 404 {
		t.Errorf("httpexchanges without recording: %d, want 404", r.status)
	}
	s := start(t, []string{"--management.endpoints.web.exposure.include=httpexchanges", "--management.httpexchanges.recording.enabled=true"}, nil)
	send(t, nil, "GET", s.URL+"/hello?x=1", "", "Authorization: Bearer s3cr3t", "Cookie: SESSION=c00k1e", "X-Auth-Token: t0k3n", "Accept: application/json")
	send(t, nil, "GET", s.URL+"/nowhere", "")
	r := send(t, nil, "GET", s.URL+"/actuator/httpexchanges", "")
	for _, secret := range []string{"s3cr3t", "c00k1e", "t0k3n", "Authorization", "Cookie"} {
		if strings.Contains(r.body, secret) {
			t.Errorf("httpexchanges shows %q: %s", secret, r.body)
		}
	}
	got := decode[struct{ Exchanges []exchangeSeen }](t, r)
	hello := slices.IndexFunc(got.Exchanges, func(e exchangeSeen) bool { return strings.HasSuffix(e.Request.URI, "/hello?x=1") })
	nowhere := slices.IndexFunc(got.Exchanges, func(e exchangeSeen) bool { return strings.HasSuffix(e.Request.URI, "/nowhere") })
	if hello < 0 || nowhere < 0 || nowhere > hello {
		t.Fatalf("the exchanges of /hello and then /nowhere are not recorded newest first: %s", r.body)
	}
	e := got.Exchanges[hello]
	if e.Request.URI != s.URL+"/hello?x=1" || e.Request.Method != "GET" || e.Response.Status != http.StatusOK ||
		e.Request.Headers["Accept"][0] != "application/json" || e.Response.Headers["Content-Type"][0] != "application/json" ||
		!regexp.MustCompile(`^PT[0-9.]+S$`).MatchString(e.TimeTaken) {
		t.Errorf("the exchange of /hello: %+v", e)
	}
	if _, err := time.Parse(time.RFC3339Nano, e.Timestamp); err != nil {
		t.Errorf("timestamp %q: %v", e.Timestamp, err)
	}
}

// TestBasePaths: the endpoints move with management.endpoints.web.base-path,
// and under management.server.base-path on a port of their own; the index
// links are absolute, from the request's Host.
func TestBasePaths(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.base-path=/manage", "--management.endpoints.web.exposure.include=health,env"}, nil)
	if r := send(t, nil, "GET", s.URL+"/manage/health", ""); r.status != 200 {
		t.Errorf("/manage/health: %d", r.status)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != 404 {
		t.Errorf("/actuator/health with the base path moved: %d", r.status)
	}
	r := send(t, nil, "GET", s.URL+"/manage", "")
	for _, want := range []string{
		`"self":{"href":"` + s.URL + `/manage","templated":false}`,
		`"health":{"href":"` + s.URL + `/manage/health","templated":false}`,
		`"health-path":{"href":"` + s.URL + `/manage/health/{*path}","templated":true}`,
		`"env-toMatch":{"href":"` + s.URL + `/manage/env/{toMatch}","templated":true}`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the index lacks %s: %s", want, r.body)
		}
	}

	own := start(t, []string{"--management.server.port=0", "--management.server.base-path=/mgmt"}, nil)
	mgmt := own.ManagementURL
	for path, want := range map[string]int{"/mgmt/actuator/health": 200, "/actuator/health": 404} {
		if r := send(t, nil, "GET", mgmt+path, ""); r.status != want {
			t.Errorf("%s on the management port: %d, want %d", path, r.status, want)
		}
	}
}

// TestManagementPort: with a port of their own, the management endpoints
// are served there and only there, and the service's routes only on
// server.port.
func TestManagementPort(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll, "--management.server.port=0"}, nil)
	mgmt := s.ManagementURL
	if logged := "http://127.0.0.1:" + s.WaitForLog(t, managementAddr)[1]; logged != mgmt || mgmt == s.URL {
		t.Errorf("the log says the management port is %s, Run said %s (server.port %s)", logged, mgmt, s.URL)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != 404 {
		t.Errorf("health on the service's port: %d, want 404 when management has its own port", r.status)
	}
	if r := send(t, nil, "GET", mgmt+"/actuator/health", ""); r.status != 200 {
		t.Errorf("health on the management port: %d %s", r.status, r.body)
	}
	if r := send(t, nil, "GET", mgmt+"/hello", ""); r.status != 404 {
		t.Errorf("/hello on the management port: %d, want 404", r.status)
	}
	if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != 200 {
		t.Errorf("/hello on the service's port: %d", r.status)
	}
}
