package boot_test

// What the framework's end-to-end tests share: requests over HTTP and over
// raw TCP, the decoding of JSON answers and problem documents, the log
// lines they wait for, settings as /actuator/env shows them, and settings
// files in a working directory of the test's own.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

// exposeAll exposes every management endpoint over HTTP.
const exposeAll = "--management.endpoints.web.exposure.include=*"

// Log lines of the server that tests wait for.
var (
	shuttingDown   = regexp.MustCompile(`msg="shutting down: readiness is OUT_OF_SERVICE"`)
	stopped        = regexp.MustCompile(`msg=stopped`)
	managementAddr = regexp.MustCompile(`msg="management started" addr=\S*:(\d+)`)
)

// response is one answer, its body read.
type response struct {
	request string // "METHOD url", for messages
	status  int
	header  http.Header
	body    string
}

// send sends one request with client (http.DefaultClient when nil) and
// returns the answer. body is sent when not empty; headers are
// "Name: value" strings.
func send(t *testing.T, client *http.Client, method, url, body string, headers ...string) response {
	t.Helper()
	r := boottest.Send(t, client, method, url, body, headers...)
	return response{request: method + " " + url, status: r.Status, header: r.Header, body: r.Body}
}

// get sends GET url and returns the status and the body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	r := send(t, nil, "GET", url, "")
	return r.status, r.body
}

// decode decodes r's JSON body into a T, and fails the test when it
// cannot.
func decode[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		t.Fatalf("%s: answered %d with a body that is not the JSON expected: %v\n%.300s", r.request, r.status, err, r.body)
	}
	return v
}

// problem is the part of a problem document (RFC 9457) the tests read,
// with the framework's extensions.
type problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	RequestID string `json:"requestId"`
	TraceID   string `json:"traceId"`
}

// problemOf decodes r as a problem document, and fails the test unless it
// is one.
func problemOf(t *testing.T, r response) problem {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%s: answered %d %q, want a problem document: %.300s", r.request, r.status, ct, r.body)
	}
	return decode[problem](t, r)
}

// rawExchange writes req, a request as it goes on the wire, on a
// connection of its own to addr, and reads one answer: for requests that
// net/http's client does not send. It fails the test when no answer comes
// within boottest.Timeout.
func rawExchange(t *testing.T, addr, req string) response {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, boottest.Timeout)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(boottest.Timeout))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body of a %d: %v", resp.StatusCode, err)
	}
	return response{request: "raw " + strings.SplitN(req, " ", 3)[0], status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// checkProblem reads r as the framework's problem document for its
// status, and reports how it fails to be one.
func checkProblem(r response) (problem, error) {
	var p problem
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		return p, fmt.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	if err := json.Unmarshal([]byte(r.body), &p); err != nil {
		return p, fmt.Errorf("body is not a problem document: %v", err)
	}
	if p.Type != "about:blank" || p.Status != r.status || p.Title != http.StatusText(r.status) || p.Detail == "" {
		return p, fmt.Errorf("problem %+v does not describe a %d", p, r.status)
	}
	return p, nil
}

// failToStart runs tester with arguments and an environment that must keep
// it from starting, and returns what Run returned and wrote on stderr.
func failToStart(t *testing.T, args []string, env map[string]string) (stderr string, err error) {
	t.Helper()
	return boottest.FailToStart(t, tester(), args, env)
}

// exposeEnv exposes /actuator/env with its values shown.
var exposeEnv = []string{"--management.endpoints.web.exposure.include=health,env", "--management.endpoint.env.show-values=always"}

// property is a setting as /actuator/env/{name} shows it: its value, the
// source that sets it, and where in that source.
type property struct{ value, source, origin string }

// readProperty reads the setting name through /actuator/env/{name}.
func readProperty(t *testing.T, s *boottest.Instance, name string) property {
	t.Helper()
	r := send(t, nil, "GET", s.URL+"/actuator/env/"+name, "")
	type source struct {
		Name     string `json:"name"`
		Property *struct {
			Origin string `json:"origin"`
		} `json:"property"`
	}
	var d struct {
		Property struct {
			Source string `json:"source"`
			Value  string `json:"value"`
		} `json:"property"`
		PropertySources []source `json:"propertySources"`
	}
	if err := json.Unmarshal([]byte(r.body), &d); r.status != 200 || err != nil {
		t.Fatalf("GET /actuator/env/%s: %d %s", name, r.status, r.body)
	}
	i := slices.IndexFunc(d.PropertySources, func(s source) bool { return s.Property != nil })
	if i < 0 {
		t.Fatalf("/actuator/env/%s names no source: %s", name, r.body)
	}
	return property{value: d.Property.Value, source: d.Property.Source, origin: d.PropertySources[i].Property.Origin}
}

// workIn writes files (path → content) into a directory of the test's
// own and makes it the working directory, where ./application.properties
// and ./config/ are read from. A test that calls it cannot be parallel:
// the working directory is the process's.
func workIn(t *testing.T, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}
