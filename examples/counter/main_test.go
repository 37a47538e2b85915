package main

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/internal/loc"
)

func TestMain(m *testing.M) {
	boottest.RunAsMain(main)
	os.Exit(m.Run())
}

// TestSize: the example is a service in at most 100 lines of its own Go.
func TestSize(t *testing.T) {
	n, err := loc.Count(".")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("examples/counter: %d lines of Go (not blank, not comments, tests excluded)", n)
	if n > 100 {
		t.Errorf("examples/counter has %d lines of Go, more than 100", n)
	}
}

// client is a browser-like client of one session: it keeps its cookie.
type client struct {
	t    *testing.T
	http *http.Client
	base string
}

func newClient(t *testing.T, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, http: &http.Client{Jar: jar}, base: base}
}

func (c *client) do(method, path, body string) (int, string) {
	c.t.Helper()
	var headers []string
	if body != "" {
		headers = append(headers, "Content-Type: application/json")
	}
	r := boottest.Send(c.t, c.http, method, c.base+path, body, headers...)
	return r.Status, r.Body
}

func (c *client) expect(method, path, body string, status int, want string) {
	c.t.Helper()
	if got, b := c.do(method, path, body); got != status || !strings.Contains(b, want) {
		c.t.Errorf("%s %s %s: %d %s; want %d with %s", method, path, body, got, b, status, want)
	}
}

// TestCounters: each session has its own counters, by name; a step past
// the service's own setting is a 400 problem document.
func TestCounters(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, service, []string{"--counter.max-step=5"}, nil)
	alice, bob := newClient(t, s.URL), newClient(t, s.URL)
	alice.expect("POST", "/counters/apples", `{"by":2}`, 200, `{"name":"apples","value":2}`)
	alice.expect("POST", "/counters/apples", `{"by":3}`, 200, `{"name":"apples","value":5}`)
	alice.expect("GET", "/counters/apples", "", 200, `{"name":"apples","value":5}`)
	bob.expect("GET", "/counters/apples", "", 200, `{"name":"apples","value":0}`)
	alice.expect("POST", "/counters/apples", `{"by":6}`, 400, `"detail":"'by' must be from 1 to 5 (counter.max-step)."`)
	alice.expect("POST", "/counters/apples", `{"by":"x"}`, 400, `"status":400`)
	alice.expect("DELETE", "/counters/apples", "", 405, `"status":405`)
}

// TestWhatTheFrameworkGives: the actuator on a management port of its own,
// metrics, a span per request sent to an OTLP collector, --help with the
// service's setting, the failure report, and a graceful shutdown.
func TestWhatTheFrameworkGives(t *testing.T) {
	t.Parallel()
	var spans atomic.Int64
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/traces" && r.Header.Get("Content-Type") == "application/x-protobuf" {
			spans.Add(1)
		}
	}))
	defer collector.Close()
	s := boottest.Start(t, service, []string{"--management.server.port=0", "--management.endpoints.web.exposure.include=*",
		"--management.opentelemetry.tracing.export.otlp.endpoint=" + collector.URL + "/v1/traces", "--management.tracing.sampling.probability=1"}, nil)
	management := s.ManagementURL
	c := newClient(t, s.URL)
	c.expect("POST", "/counters/a", `{"by":1}`, 200, `"value":1`)
	c.expect("GET", "/actuator/health", "", 404, "") // on the management port only
	m := newClient(t, management)
	m.expect("GET", "/actuator/health", "", 200, `{"status":"UP"`)
	m.expect("GET", "/actuator/beans", "", 200, `"counters":{"aliases":[],"scope":"session"`)
	m.expect("GET", "/actuator/prometheus", "", 200, `http_server_requests_seconds_count{error="none",exception="none",method="POST",outcome="SUCCESS",status="200",uri="/counters/{name}"} 1`)
	m.expect("GET", "/actuator/mappings", "", 200, `/counters/{name}`)
	newClient(t, s.URL).expect("GET", "/v3/api-docs", "", 200, `"title":"counter"`)
	if err := s.Stop(); err != nil {
		t.Fatalf("graceful shutdown: %v", err)
	}
	if !strings.Contains(s.Stdout.String(), "msg=stopped") || spans.Load() == 0 {
		t.Errorf("after shutdown: %d span exports, log:\n%s", spans.Load(), s.Stdout)
	}

	var help boottest.Output
	if err := boot.Run(context.Background(), service, boot.Process{Args: []string{"--help"}, Stdout: &help}); err != nil ||
		!regexp.MustCompile(`--counter.max-step\s+100\s+the largest step`).MatchString(help.String()) {
		t.Errorf("--help: %v\n%s", err, help.String())
	}
	report, err := boottest.FailToStart(t, service, []string{"--server.port=0", "--counter.max-step=0"}, nil)
	if err == nil || !strings.Contains(report, "Property: counter.max-step") || !strings.Contains(report, "Origin: command-line argument") {
		t.Errorf("a bad setting: %v\n%s", err, report)
	}
}

// TestSIGTERM: built as it ships, the service stops gracefully on SIGTERM.
func TestSIGTERM(t *testing.T) {
	t.Parallel()
	p := boottest.StartProcess(t)
	p.Signal(t, syscall.SIGTERM)
	if err := p.Wait(t); err != nil || !strings.Contains(p.Stdout.String(), "msg=stopped") {
		t.Errorf("after SIGTERM: %v\n%s", err, p.Stdout)
	}
}

// TestSessionsSharedThroughRedis: with the Redis session store, two
// instances serve one session's counters.
func TestSessionsSharedThroughRedis(t *testing.T) {
	t.Parallel()
	redisURL, prefix := enginetest.Redis(t)
	args := []string{"--app.session.store-type=redis", "--app.data.redis.url=" + redisURL, "--app.session.data.redis.namespace=" + strings.TrimSuffix(prefix, ":")}
	a, b := boottest.Start(t, service, args, nil), boottest.Start(t, service, args, nil)
	c := newClient(t, a.URL)
	c.expect("POST", "/counters/shared", `{"by":4}`, 200, `"value":4`)
	c.base = b.URL
	c.expect("GET", "/counters/shared", "", 200, `"value":4`)
}
