package boot_test

// What the framework's end-to-end tests share: a request helper, the
// decoding of JSON answers and problem documents, and the log lines they
// wait for.

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
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
	if client == nil {
		client = http.DefaultClient
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return response{request: method + " " + url, status: resp.StatusCode, header: resp.Header, body: string(b)}
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
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
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
