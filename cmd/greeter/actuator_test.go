package main

// End-to-end tests of the management endpoints of issue 13, through run:
// media types, health components and groups, diagnostics, shutdown,
// httpexchanges and base paths, with Spring Boot 3.5's documented shapes.

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

const actuatorV3 = "application/vnd.spring-boot.actuator.v3+json"

// TestActuatorMediaTypes: Spring's actuator type by default, v2 and
// plain JSON on request; a client that asks for v3 is no longer refused.
func TestActuatorMediaTypes(t *testing.T) {
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
			if r := s.do(t, "GET", path, "", headers...); r.status != 200 || r.header.Get("Content-Type") != want {
				t.Errorf("%s with Accept %q: %d %q, want 200 %q", path, accept, r.status, r.header.Get("Content-Type"), want)
			}
		}
	}
}

// TestHealthComponentsAndGroups checks Spring's shapes: components with
// details, the groups listed, a component and a group on their own
// paths, and a user's group aggregated from its members.
func TestHealthComponentsAndGroups(t *testing.T) {
	s := start(t, []string{"--management.endpoint.health.show-details=always",
		"--management.endpoint.health.group.custom.include=ping,diskSpace"}, nil)
	r := s.do(t, "GET", "/actuator/health", "")
	h := decodeJSON[struct {
		Status     string
		Components map[string]struct {
			Status  string
			Details map[string]any
		}
		Groups []string
	}](t, r)
	disk := h.Components["diskSpace"]
	if r.status != 200 || h.Status != "UP" || h.Components["ping"].Status != "UP" || disk.Status != "UP" ||
		disk.Details["threshold"] != float64(10<<20) || disk.Details["exists"] != true || disk.Details["total"] == nil || disk.Details["free"] == nil || disk.Details["path"] == nil {
		t.Errorf("/actuator/health: %d %s", r.status, r.body)
	}
	if got := strings.Join(h.Groups, ","); got != "custom,liveness,readiness" {
		t.Errorf("groups %s, want custom,liveness,readiness", got)
	}
	if r := s.do(t, "GET", "/actuator/health/ping", ""); r.status != 200 || r.body != `{"status":"UP"}` {
		t.Errorf("/actuator/health/ping: %d %s", r.status, r.body)
	}
	r = s.do(t, "GET", "/actuator/health/custom", "")
	if r.status != 200 || !strings.HasPrefix(r.body, `{"status":"UP","components":{"diskSpace":{"status":"UP","details":{`) || !strings.HasSuffix(r.body, `"ping":{"status":"UP"}}}`) {
		t.Errorf("/actuator/health/custom: %d %s", r.status, r.body)
	}
	if r := s.do(t, "GET", "/actuator/health/readiness", ""); r.status != 200 || r.body != `{"status":"UP","components":{"readinessState":{"status":"UP"}}}` {
		t.Errorf("/actuator/health/readiness: %d %s", r.status, r.body)
	}
	if r := s.do(t, "GET", "/actuator/health/nothing", ""); r.status != 404 || !strings.Contains(r.body, `"detail":"No health component or group is named 'nothing'."`) {
		t.Errorf("/actuator/health/nothing: %d %s", r.status, r.body)
	}

	// Below the threshold, diskSpace is DOWN, and so is health: 503.
	full := start(t, []string{"--management.health.diskspace.threshold=1000000TB", "--management.endpoint.health.show-components=always"}, nil)
	if r := full.do(t, "GET", "/actuator/health", ""); r.status != 503 || !strings.Contains(r.body, `"diskSpace":{"status":"DOWN"}`) || !strings.HasPrefix(r.body, `{"status":"DOWN"`) {
		t.Errorf("a full disk: %d %s", r.status, r.body)
	}
	if r := full.do(t, "GET", "/actuator/health/liveness", ""); r.status != 200 {
		t.Errorf("liveness with a full disk: %d, want 200: restarting does not free the disk", r.status)
	}
}

func TestHealthGroupOfNothingFailsToStart(t *testing.T) {
	report, err := failToStart(t, []string{"--server.port=0", "--management.endpoint.health.group.custom.include=ping,dB"}, nil)
	if err == nil || !strings.Contains(report, `management.endpoint.health.group.custom.include: no health component is named "dB"`) {
		t.Errorf("a group of a misspelt component: %v\n%s", err, report)
	}
}

// TestDiagnostics: none exposed by default; exposed, each answers in its
// format.
func TestDiagnostics(t *testing.T) {
	off := start(t, nil, nil)
	for _, path := range []string{"/actuator/threaddump", "/actuator/heapdump", "/actuator/cpuprofile"} {
		if r := off.do(t, "GET", path, ""); r.status != 404 {
			t.Errorf("%s is not exposed by default, but answered %d", path, r.status)
		}
	}
	s := start(t, []string{"--management.endpoints.web.exposure.include=threaddump,heapdump,cpuprofile"}, nil)
	if strings.Contains(s.Stdout.String(), "names an endpoint that does not exist") {
		t.Error("a diagnostics id was reported as unknown")
	}
	r := s.do(t, "GET", "/actuator/threaddump", "")
	dump := decodeJSON[struct {
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
	if r := s.do(t, "GET", "/actuator/threaddump", "", "Accept: text/plain"); r.status != 200 || !strings.HasPrefix(r.body, "goroutine ") || !strings.Contains(r.body, "net/http.(*Server).Serve") {
		t.Errorf("threaddump as text: %d %.300s", r.status, r.body)
	}
	for _, path := range []string{"/actuator/heapdump", "/actuator/cpuprofile?seconds=1"} {
		r := s.do(t, "GET", path, "")
		if r.status != 200 || r.header.Get("Content-Type") != "application/octet-stream" ||
			!strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="`) || !strings.HasPrefix(r.body, "\x1f\x8b") {
			t.Errorf("%s: %d %v", path, r.status, r.header)
		}
	}
}

var stopped = regexp.MustCompile(`msg=stopped`)

// TestShutdownEndpoint: off unless its access is unrestricted; then a
// POST is answered, and the service stops gracefully, as on SIGTERM.
func TestShutdownEndpoint(t *testing.T) {
	exposed := []string{"--management.endpoints.web.exposure.include=*"}
	off := start(t, exposed, nil)
	if r := off.do(t, "POST", "/actuator/shutdown", ""); r.status != 404 {
		t.Errorf("shutdown without access answered %d", r.status)
	}
	s := start(t, append(exposed, "--management.endpoint.shutdown.access=unrestricted"), nil)
	if r := s.do(t, "GET", "/actuator", ""); !strings.Contains(r.body, `"shutdown":{"href":"`+s.base+`/actuator/shutdown"`) {
		t.Errorf("the index lacks shutdown: %s", r.body)
	}
	if r := s.do(t, "POST", "/actuator/shutdown", ""); r.status != 200 || r.body != `{"message":"Shutting down, bye..."}` {
		t.Errorf("shutdown: %d %s", r.status, r.body)
	}
	s.WaitForLog(t, shuttingDown)
	s.WaitForLog(t, stopped)
	select {
	case <-s.Exited():
		if s.Err() != nil {
			t.Errorf("run after shutdown: %v", s.Err())
		}
	case <-time.After(waitTimeout):
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
	off := start(t, []string{"--management.endpoints.web.exposure.include=httpexchanges"}, nil)
	if r := off.do(t, "GET", "/actuator/httpexchanges", ""); r.status != 404 {
		t.Errorf("httpexchanges without recording: %d, want 404", r.status)
	}
	s := start(t, []string{"--management.endpoints.web.exposure.include=httpexchanges", "--management.httpexchanges.recording.enabled=true"}, nil)
	s.do(t, "GET", "/api/hello?x=1", "", "Authorization: Bearer s3cr3t", "Cookie: SESSION=c00k1e", "X-Auth-Token: t0k3n", "Accept: application/json")
	r := s.do(t, "GET", "/actuator/httpexchanges", "")
	for _, secret := range []string{"s3cr3t", "c00k1e", "t0k3n", "Authorization", "Cookie"} {
		if strings.Contains(r.body, secret) {
			t.Errorf("httpexchanges shows %q: %s", secret, r.body)
		}
	}
	var got struct{ Exchanges []exchangeSeen }
	if err := json.Unmarshal([]byte(r.body), &got); err != nil || len(got.Exchanges) == 0 {
		t.Fatalf("httpexchanges: %v %s", err, r.body)
	}
	// The contract check fetches /v3/api-docs after the first request:
	// that exchange is newer.
	i := slices.IndexFunc(got.Exchanges, func(e exchangeSeen) bool { return strings.HasSuffix(e.Request.URI, "/api/hello?x=1") })
	if i < 0 {
		t.Fatalf("the exchange of /api/hello is not recorded: %s", r.body)
	}
	hello := got.Exchanges[i]
	if hello.Request.URI != s.base+"/api/hello?x=1" || hello.Request.Method != "GET" || hello.Response.Status != http.StatusOK ||
		hello.Request.Headers["Accept"][0] != "application/json" || hello.Response.Headers["Content-Type"][0] != "application/json" ||
		!regexp.MustCompile(`^PT[0-9.]+S$`).MatchString(hello.TimeTaken) {
		t.Errorf("the exchange of /api/hello: %+v", hello)
	}
	if _, err := time.Parse(time.RFC3339Nano, hello.Timestamp); err != nil {
		t.Errorf("timestamp %q: %v", hello.Timestamp, err)
	}
}

// TestBasePaths: the endpoints move with management.endpoints.web.base-path,
// and under management.server.base-path on a port of their own; the index
// links are absolute, from the request's Host.
func TestBasePaths(t *testing.T) {
	s := start(t, []string{"--management.endpoints.web.base-path=/manage", "--management.endpoints.web.exposure.include=health,env"}, nil)
	if r := s.do(t, "GET", "/manage/health", ""); r.status != 200 {
		t.Errorf("/manage/health: %d", r.status)
	}
	if r := s.do(t, "GET", "/actuator/health", ""); r.status != 404 {
		t.Errorf("/actuator/health with the base path moved: %d", r.status)
	}
	r := s.do(t, "GET", "/manage", "")
	for _, want := range []string{
		`"self":{"href":"` + s.base + `/manage","templated":false}`,
		`"health":{"href":"` + s.base + `/manage/health","templated":false}`,
		`"health-path":{"href":"` + s.base + `/manage/health/{*path}","templated":true}`,
		`"env-toMatch":{"href":"` + s.base + `/manage/env/{toMatch}","templated":true}`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the index lacks %s: %s", want, r.body)
		}
	}

	own := start(t, []string{"--management.server.port=0", "--management.server.base-path=/mgmt"}, nil)
	mgmt := "http://127.0.0.1:" + own.WaitForLog(t, managementAddr)[1]
	for path, want := range map[string]int{"/mgmt/actuator/health": 200, "/actuator/health": 404} {
		resp, err := http.Get(mgmt + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s on the management port: %d, want %d", path, resp.StatusCode, want)
		}
	}
}
