package main

import (
	"bufio"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/bench/peers/internal/peer"
)

// TestSameAsService sends the same requests to the stack and to the
// service as it is in this checkout (cmd/greeter, built and started with
// its defaults and /actuator/prometheus exposed) and fails where their
// answers differ in what the comparison rests on: the status, Content-Type,
// Vary, X-Request-Id and Accept headers, the body (a problem document's
// members but its detail, whose wording is each one's own), and the
// request timer's series afterwards, label for label (the error's name
// aside: each names its own error types).
func TestSameAsService(t *testing.T) {
	service := startService(t)
	stack := httptest.NewServer(handler(new(peer.Messages), 7))
	t.Cleanup(stack.Close)

	const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	tests := []struct {
		method, target, body string
		headers              []string // name, value, …
	}{
		{"GET", "/api/hello", "", nil},
		{"GET", "/api/hello", "", []string{"Accept", "application/xml"}},
		{"GET", "/api/hello", "", []string{"Accept", "text/xml"}},
		{"GET", "/api/hello", "", []string{"Accept", "text/*"}},
		{"GET", "/api/hello", "", []string{"Accept", "application/xml;q=0.5, application/json"}},
		{"GET", "/api/hello", "", []string{"Accept", "application/json;q=0.5, application/xml"}},
		{"GET", "/api/hello", "", []string{"Accept", "text/html, */*;q=0.1"}},
		{"GET", "/api/hello", "", []string{"Accept", "text/plain"}},
		{"GET", "/api/hello", "", []string{"X-Request-Id", "client-chosen-1"}},
		{"GET", "/api/hello", "", []string{"traceparent", traceparent}},
		{"GET", "/api/hi", "", nil},
		{"GET", "/api/hi", "", []string{"Accept", "application/json"}},
		{"GET", "/api/hello/42", "", nil},
		{"GET", "/api/hello/-2147483648", "", []string{"Accept", "application/xml"}},
		{"GET", "/api/hello/x", "", nil},
		{"GET", "/api/hello/2147483648", "", nil},
		{"GET", "/api/hello/x", "", []string{"traceparent", traceparent, "X-Request-Id", "client-chosen-2"}},
		{"GET", "/api/number/val-a", "", nil},
		{"GET", "/api/number/val-a", "", []string{"Accept", "application/xml"}},
		{"POST", "/api/messages", `{"text":"hello world 20 bytes"}`, []string{"Content-Type", "application/json"}},
		{"POST", "/api/messages", `<Message><text>hello</text></Message>`, []string{"Content-Type", "application/xml"}},
		{"POST", "/api/messages", `{}`, []string{"Content-Type", "application/json"}},
		{"POST", "/api/messages", `{"text":`, []string{"Content-Type", "application/json"}},
		{"POST", "/api/messages", `hello`, []string{"Content-Type", "text/plain"}},
		{"GET", "/api/nowhere", "", nil},
		{"DELETE", "/api/hello", "", nil},
	}
	for _, tt := range tests {
		name := tt.method + " " + tt.target + " " + strings.Join(tt.headers, " ")
		want := exchange(t, service, tt.method, tt.target, tt.body, tt.headers)
		got := exchange(t, stack.URL, tt.method, tt.target, tt.body, tt.headers)
		if got.status != want.status {
			t.Errorf("%s: status %d, the service's %d", name, got.status, want.status)
			continue
		}
		for _, h := range []string{"Content-Type", "Vary"} {
			if got.header.Get(h) != want.header.Get(h) {
				t.Errorf("%s: %s %q, the service's %q", name, h, got.header.Get(h), want.header.Get(h))
			}
		}
		// The service lists more media types (application/*+json…) than
		// the stack reads: that a 415 says which, is what is compared.
		if (got.header.Get("Accept") == "") != (want.header.Get("Accept") == "") {
			t.Errorf("%s: Accept %q, the service's %q", name, got.header.Get("Accept"), want.header.Get("Accept"))
		}
		// Request IDs are each one's own when made up; a client's is echoed.
		gotID, wantID := got.header.Get("X-Request-Id"), want.header.Get("X-Request-Id")
		if (gotID == "") != (wantID == "") || (slices.Contains(tt.headers, "X-Request-Id") && gotID != wantID) {
			t.Errorf("%s: X-Request-Id %q, the service's %q", name, gotID, wantID)
		}
		switch {
		case want.header.Get("Content-Type") == "application/problem+json":
			gp, wp := problemOf(t, name, got.body), problemOf(t, name, want.body)
			if gp["requestId"] != gotID {
				t.Errorf("%s: requestId %v, X-Request-Id %q", name, gp["requestId"], gotID)
			}
			for _, m := range []map[string]any{gp, wp} {
				delete(m, "detail")
				delete(m, "requestId")
			}
			if !maps.Equal(gp, wp) {
				t.Errorf("%s: problem %v, the service's %v", name, gp, wp)
			}
		case tt.target == "/api/number/val-a": // each has its own number
			if re := regexp.MustCompile(`^(-?[0-9]+|<Integer>-?[0-9]+</Integer>)$`); !re.MatchString(got.body) || !re.MatchString(want.body) {
				t.Errorf("%s: %q, the service's %q", name, got.body, want.body)
			}
		case got.body != want.body:
			t.Errorf("%s:\ngot  %q\nthe service's %q", name, got.body, want.body)
		}
	}

	gotSeries, wantSeries := requestSeries(t, stack.URL), requestSeries(t, service)
	if !maps.Equal(gotSeries, wantSeries) {
		t.Errorf("request timers (labels but error and exception: count):\nstack   %v\nservice %v", gotSeries, wantSeries)
	}
}

type response struct {
	status int
	header http.Header
	body   string
}

func exchange(t *testing.T, base, method, target, body string, headers []string) response {
	t.Helper()
	req, err := http.NewRequest(method, base+target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, base+target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, base+target, err)
	}
	return response{resp.StatusCode, resp.Header, string(b)}
}

func problemOf(t *testing.T, name, body string) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Errorf("%s: the problem document %q: %v", name, body, err)
	}
	return p
}

// requestSeries reads the request timer's counts from a server's
// /actuator/prometheus, by their labels less error and exception, for the
// requests the test sent (not the scrape's own).
func requestSeries(t *testing.T, base string) map[string]int {
	t.Helper()
	r := exchange(t, base, "GET", "/actuator/prometheus", "", nil)
	if r.status != http.StatusOK {
		t.Fatalf("%s/actuator/prometheus: %d", base, r.status)
	}
	line := regexp.MustCompile(`(?m)^http_server_requests_seconds_count\{(.*)\} (\S+)$`)
	label := regexp.MustCompile(`(\w+)="([^"]*)"`)
	series := map[string]int{}
	for _, m := range line.FindAllStringSubmatch(r.body, -1) {
		var kept []string
		for _, l := range label.FindAllStringSubmatch(m[1], -1) {
			if l[1] != "error" && l[1] != "exception" {
				kept = append(kept, l[0])
			}
		}
		key := strings.Join(kept, ",")
		if strings.Contains(key, `uri="/actuator/`) {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatalf("%s/actuator/prometheus: a count of %q", base, m[2])
		}
		series[key] += n // series that differ only in the error's name are one here
	}
	return series
}

// startService builds cmd/greeter from this checkout and starts it on a
// free port in an empty directory and environment, as bench/run does, with
// /actuator/prometheus exposed; it is stopped when the test ends. It
// returns the service's base URL.
func startService(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(b), "module github.com/springport/greeter\n") {
		t.Fatalf("%s is not the service's module: %v", root, err)
	}
	bin := filepath.Join(t.TempDir(), "greeter")
	build := exec.Command("go", "build", "-o", bin, "./cmd/greeter")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/greeter: %v\n%s", err, out)
	}

	cmd := exec.Command(bin, "--server.port=0", "--management.endpoints.web.exposure.include=health,prometheus")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		started := regexp.MustCompile(`msg="Started \S+ in [0-9.]+ seconds \(process running for [0-9.]+\)".*? addr=\S*:([0-9]+)`)
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if m := started.FindStringSubmatch(s.Text()); m != nil {
				addr <- "http://127.0.0.1:" + m[1]
				io.Copy(io.Discard, stdout) // the service must not block on a full pipe
				return
			}
		}
		addr <- "" // it exited, or closed its output, without starting
	}()
	select {
	case a := <-addr:
		if a == "" {
			t.Fatal("the service stopped before it said it had started")
		}
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("the service did not say it had started within 30s")
		return ""
	}
}
