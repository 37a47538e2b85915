package main

import (
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

var everything = []string{"--management.endpoints.web.exposure.include=*"}

// healthUp is /actuator/health by default: the status, and the groups
// there are, as Spring answers with its probes on.
const healthUp = `{"status":"UP","groups":["liveness","readiness"]}`

func TestHealthProbes(t *testing.T) {
	s := start(t, nil, nil)
	for path, want := range map[string]string{
		"/actuator/health":           healthUp,
		"/actuator/health/liveness":  `{"status":"UP"}`,
		"/actuator/health/readiness": `{"status":"UP"}`,
	} {
		if r := s.do(t, "GET", path, ""); r.status != 200 || r.body != want {
			t.Errorf("%s: %d %s, want %s", path, r.status, r.body, want)
		}
	}
}

// TestReadinessDuringShutdown stops the program with a shutdown delay:
// once shutdown has begun, and before the listener closes, readiness must
// answer 503 OUT_OF_SERVICE while liveness still answers 200.
func TestReadinessDuringShutdown(t *testing.T) {
	// The delay is the window in which the listener is still open; it only
	// needs to be long enough for two requests on a busy machine.
	s := start(t, []string{"--server.shutdown-delay=1s"}, nil)
	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop() }()
	s.WaitForLog(t, shuttingDown)
	if r := s.do(t, "GET", "/actuator/health/readiness", ""); r.status != 503 || r.body != `{"status":"OUT_OF_SERVICE"}` {
		t.Errorf("readiness during shutdown: %d %s, want 503 OUT_OF_SERVICE", r.status, r.body)
	}
	if r := s.do(t, "GET", "/actuator/health/liveness", ""); r.status != 200 {
		t.Errorf("liveness during shutdown: %d, want 200", r.status)
	}
	if err := <-stopped; err != nil {
		t.Errorf("run: %v", err)
	}
}

var shuttingDown = regexp.MustCompile(`msg="shutting down: readiness is OUT_OF_SERVICE"`)

func TestInfoAndMappings(t *testing.T) {
	s := start(t, everything, nil)
	if r := s.do(t, "GET", "/actuator/info", ""); r.status != 200 || !strings.Contains(r.body, `"name":"github.com/springport/greeter"`) || !strings.Contains(r.body, `"go":"go1.`) {
		t.Errorf("/actuator/info: %d %s", r.status, r.body)
	}
	r := s.do(t, "GET", "/actuator/mappings", "")
	for _, want := range []string{
		`"predicate":"{GET [/api/hello/{id}], produces [`,
		`"predicate":"{POST [/api/messages], consumes [application/json || application/*+json || application/xml || text/xml || application/*+xml]}","details":{"requestMappingConditions":{"consumes":[{"mediaType":"application/json","negated":false}`,
		`"patterns":["/api/messages/{index}"],"produces":[]},"status":204}`,
		`"patterns":["/actuator/mappings"]`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/actuator/mappings lacks %s", want)
		}
	}
	if n := strings.Count(r.body, `"handler":"`); n < 14 {
		t.Errorf("/actuator/mappings lists %d routes, want every one", n)
	}
}

var seriesLine = regexp.MustCompile(`(?m)^http_server_requests_seconds_count\{[^}]*\} \d+$`)

// TestPrometheus scrapes the metrics after some traffic and a scan of
// random paths: the series count must not grow with the scan.
func TestPrometheus(t *testing.T) {
	s := start(t, everything, nil)
	s.do(t, "GET", "/api/hello/1", "")
	s.do(t, "GET", "/api/hello/2", "")
	s.do(t, "GET", "/api/hello/x", "")
	scan := func(n int) int {
		for i := range n {
			s.do(t, "GET", fmt.Sprintf("/scan/%d/%d", n, i), "")
			s.do(t, "BREW", fmt.Sprintf("/api/hello/%d", i), "")
		}
		r := s.do(t, "GET", "/actuator/prometheus", "")
		// The handler adds a parameter of its own, as promhttp did (escaping=underscores).
		mt, params, err := mime.ParseMediaType(r.header.Get("Content-Type"))
		if r.status != 200 || err != nil || mt != "text/plain" || params["version"] != "0.0.4" || params["charset"] != "utf-8" {
			t.Fatalf("/actuator/prometheus: %d %q, want the text format 0.0.4 in UTF-8", r.status, r.header.Get("Content-Type"))
		}
		return len(seriesLine.FindAllString(r.body, -1))
	}
	scan(0) // the scrape itself is a route of its own: count it in
	before := scan(50)
	after := scan(300)
	if after != before {
		t.Errorf("%d series after scanning 50 random paths, %d after 300 more: labels must not follow raw paths", before, after)
	}
	body := s.do(t, "GET", "/actuator/prometheus", "").body
	for _, want := range []string{
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/api/hello/{id}"} 2`,
		`http_server_requests_seconds_count{error="Error",exception="Error",method="GET",outcome="CLIENT_ERROR",status="400",uri="/api/hello/{id}"} 1`,
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="404",uri="NOT_FOUND"} 350`,
		`http_server_requests_seconds_count{error="none",exception="none",method="other",outcome="CLIENT_ERROR",status="405",uri="UNKNOWN"} 350`,
		`http_server_requests_seconds_max{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/api/hello/{id}"} `,
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/actuator/prometheus lacks %s", want)
		}
	}
	if strings.Contains(body, "http_server_requests_seconds_bucket") {
		t.Error("/actuator/prometheus has buckets without management.metrics.distribution.percentiles-histogram.http.server.requests")
	}
}

func TestExposure(t *testing.T) {
	s := start(t, nil, nil)
	for _, path := range []string{"/actuator/info", "/actuator/mappings", "/actuator/prometheus", "/actuator/beans", "/actuator/env"} {
		if r := s.do(t, "GET", path, ""); r.status != 404 {
			t.Errorf("%s is not exposed by default, but answered %d", path, r.status)
		}
	}
	// Metrics off stops recording requests; the runtime and process
	// metrics are still served.
	off := start(t, append(everything, "--management.metrics.enabled=false"), nil)
	off.do(t, "GET", "/api/hello", "")
	r := off.do(t, "GET", "/actuator/prometheus", "")
	if r.status != 200 || !strings.Contains(r.body, "go_goroutines") || strings.Contains(r.body, "http_server_requests_seconds_count") {
		t.Errorf("with metrics off, /actuator/prometheus answered %d:\n%.500s", r.status, r.body)
	}
}

// TestUnknownExposureIDsAreReported: a misspelt endpoint id hides the
// endpoint it meant; start-up says so, naming it.
func TestUnknownExposureIDsAreReported(t *testing.T) {
	s := start(t, []string{"--management.endpoints.web.exposure.include=healt,env", "--management.endpoints.web.exposure.exclude=bean"}, nil)
	for _, id := range []string{"healt", "bean"} {
		s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="management.endpoints.web.exposure names an endpoint that does not exist; it is ignored" id=`+id+` `))
	}
	if strings.Contains(s.Stdout.String(), "id=env") {
		t.Error("a known id was reported as unknown")
	}
	if r := s.do(t, "GET", "/actuator/health", ""); r.status != 404 {
		t.Errorf("health, misspelt in include, answered %d", r.status)
	}
}

var managementAddr = regexp.MustCompile(`msg="management started" addr=\S*:(\d+)`)

func TestManagementPort(t *testing.T) {
	s := start(t, append(everything, "--management.server.port=0"), nil)
	mgmt := "http://127.0.0.1:" + s.WaitForLog(t, managementAddr)[1]
	if r := s.do(t, "GET", "/actuator/health", ""); r.status != 404 {
		t.Errorf("health on the service's port: %d, want 404 when management has its own port", r.status)
	}
	resp, err := http.Get(mgmt + "/actuator/health")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health on the management port: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get(mgmt + "/api/hello")
	if err != nil {
		t.Fatalf("/api/hello on the management port: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("/api/hello on the management port: %d, want 404", resp.StatusCode)
	}
	if r := s.do(t, "GET", "/api/hello", ""); r.status != 200 {
		t.Errorf("/api/hello on the service's port: %d", r.status)
	}
}

func TestAccessLogAndRequestIDs(t *testing.T) {
	s := start(t, []string{"--server.access-log.enabled=true"}, nil)
	r := s.do(t, "GET", "/api/hello/7", "", "X-Request-Id: trace-42")
	if r.header.Get("X-Request-Id") != "trace-42" {
		t.Errorf("X-Request-Id came back as %q, want trace-42", r.header.Get("X-Request-Id"))
	}
	bad := s.do(t, "GET", "/api/hello/x", "", "X-Request-Id: not sane!")
	id := bad.header.Get("X-Request-Id")
	if id == "" || id == "not sane!" || !strings.Contains(bad.body, `"requestId":"`+id+`"`) {
		t.Errorf("an insane X-Request-Id: answered %q, problem %s", id, bad.body)
	}
	// An access log line is written once its response is, so it may come
	// after the client has read the response.
	s.WaitForLog(t, regexp.MustCompile(regexp.QuoteMeta(`msg=request method=GET path=/api/hello/7 route=/api/hello/{id} status=200 bytes=25 duration=`)+`\S+ request_id=trace-42\n`))
	s.WaitForLog(t, regexp.MustCompile(`msg=request method=GET path=/api/hello/x .* request_id=`+regexp.QuoteMeta(id)+`\n`))

	quiet := start(t, nil, nil)
	quiet.do(t, "GET", "/api/hello", "")
	if strings.Contains(quiet.Stdout.String(), "msg=request ") {
		t.Errorf("the access log is off by default, yet:\n%s", quiet.Stdout)
	}
}

// TestFailureLogCarriesRequestID finds a 5xx's log line by the request ID
// its problem document gave the client, with the access log off (the
// default), whether the service made the ID or the client sent it.
func TestFailureLogCarriesRequestID(t *testing.T) {
	s := start(t, nil, nil)
	for _, sent := range []string{"", "trace-500"} {
		var headers []string
		if sent != "" {
			headers = append(headers, "X-Request-Id: "+sent)
		}
		r := s.do(t, "GET", "/api/messages/5", "", headers...) // the collection is empty: 500
		if r.status != 500 {
			t.Fatalf("%s (X-Request-Id %q): %d %s, want 500", r.request, sent, r.status, r.body)
		}
		p := decodeJSON[struct {
			RequestID string `json:"requestId"`
		}](t, r)
		if p.RequestID == "" || r.header.Get("X-Request-Id") != p.RequestID || (sent != "" && p.RequestID != sent) {
			t.Errorf("%s (X-Request-Id %q): requestId %q, header %q", r.request, sent, p.RequestID, r.header.Get("X-Request-Id"))
		}
		s.WaitForLog(t, regexp.MustCompile(`msg="request failed" method=GET path=/api/messages/5 .* request_id=`+regexp.QuoteMeta(p.RequestID)+`\n`))
	}
}

// TestFailureFloodIsNotLoggedAtRequestRate: a client that makes the
// service fail as fast as it can fills the log with at most a few lines a
// second, and the count of those not logged is told.
func TestFailureFloodIsNotLoggedAtRequestRate(t *testing.T) {
	s := start(t, nil, nil)
	failing := regexp.MustCompile(`msg="request failed" method=GET path=/api/messages/5 `)
	const sent = 200
	for range sent {
		if status, _, err := send("GET", s.base+"/api/messages/5"); err != nil || status != 500 {
			t.Fatalf("GET /api/messages/5: %d %v", status, err)
		}
	}
	if n := len(failing.FindAllString(s.Stdout.String(), -1)); n == 0 || n >= sent/2 {
		t.Errorf("%d identical failures logged %d lines, want at least the first and far fewer than them all", sent, n)
	}
	waitFor(t, "a failure line that counts those not logged", func() bool {
		send("GET", s.base+"/api/messages/5")
		return regexp.MustCompile(`msg="request failed" method=GET path=/api/messages/5 .* not_logged_since=[1-9]`).MatchString(s.Stdout.String())
	})
}

// TestOpenAPINamesTheXMLRootAsTheAnswersDo: the request body's XML root is
// documented as Message, the root the answers use, not as the Go type.
func TestOpenAPINamesTheXMLRootAsTheAnswersDo(t *testing.T) {
	s := start(t, nil, nil)
	type document struct {
		Components struct {
			Schemas map[string]struct {
				XML struct{ Name string }
			}
		}
	}
	doc := decodeJSON[document](t, s.do(t, "GET", "/v3/api-docs", ""))
	for name, schema := range doc.Components.Schemas {
		if strings.Contains(name, "essage") && schema.XML.Name != "Message" {
			t.Errorf("schema %s names its XML root %q, want Message", name, schema.XML.Name)
		}
	}
}
