package main

// The end-to-end tests start the whole program, through run on port 0
// (start) or as a child process (startProcess), and talk to it over
// loopback as a client would. This file holds what they share: the
// framework's harness (boottest: the program's output, waiting for
// something the program does, never for a fixed time) under short names,
// and the request helper that checks every answer against the service's
// OpenAPI document.

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// The harness is the framework's (boottest); these names keep the tests
// short.
const waitTimeout = boottest.Timeout

var (
	waitFor     = boottest.WaitFor
	waitRefused = boottest.WaitRefused
	tail        = boottest.Tail
)

// service is greeter running in the test's process, through run.
type service struct {
	*boottest.Instance
	base string // http://127.0.0.1:PORT
}

// start runs greeter on a free port with the given arguments and
// environment, waits until it listens, and stops it when the test ends.
func start(t *testing.T, args []string, env map[string]string) *service {
	t.Helper()
	i := boottest.Start(t, greeter(), args, env)
	return &service{Instance: i, base: i.URL}
}

// process is greeter running as a child process, as it runs in
// production, so that it can be sent signals.
type process struct {
	*boottest.Process
	base string // http://127.0.0.1:PORT
}

// startProcess runs greeter as a child process on a free port (see
// TestMain), waits until it listens, and kills it when the test ends if it
// still runs.
func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	p := boottest.StartProcess(t, args...)
	return &process{Process: p, base: p.URL}
}

// response is one answer of the service, with its body read.
type response struct {
	request string // "METHOD /path", for messages
	status  int
	header  http.Header
	body    string
}

// do sends one request; headers are "Name: value" strings. The answer
// must be one the service's OpenAPI document allows (see checkContract).
func (s *service) do(t *testing.T, method, path, body string, headers ...string) response {
	t.Helper()
	return s.doWith(t, http.DefaultClient, method, path, body, headers...)
}

// doWith is do with a client of the test's own, such as one with cookies.
func (s *service) doWith(t *testing.T, client *http.Client, method, path, body string, headers ...string) response {
	t.Helper()
	r := boottest.Send(t, client, method, s.base+path, body, headers...)
	// Every answer must be what the service's own OpenAPI document says.
	checkContract(t, s, r.Request, []byte(body), r.Status, r.Header, []byte(r.Body))
	return response{request: method + " " + path, status: r.Status, header: r.Header, body: r.Body}
}

// decodeJSON decodes r's body into a T, and fails the test when it cannot.
func decodeJSON[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		t.Fatalf("%s: answered %d with a body that is not the JSON expected: %v\n%.300s", r.request, r.status, err, r.body)
	}
	return v
}
