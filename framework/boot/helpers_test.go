package boot_test

// What the framework's end-to-end tests share beside boottest's (raw TCP
// exchanges, problem documents checked whole, settings as /actuator/env
// shows them, running a service that must not start): requests over HTTP
// and the decoding of their JSON answers and problem documents, the log
// lines they wait for, and settings files in a working directory of the
// test's own.

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

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

// problemOf decodes r as a problem document, and fails the test unless it
// is one.
func problemOf(t *testing.T, r response) boottest.Problem {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%s: answered %d %q, want a problem document: %.300s", r.request, r.status, ct, r.body)
	}
	return decode[boottest.Problem](t, r)
}

// exposeEnv exposes /actuator/env with its values shown.
var exposeEnv = []string{"--management.endpoints.web.exposure.include=health,env", "--management.endpoint.env.show-values=always"}

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
