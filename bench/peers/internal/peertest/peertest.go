// Package peertest checks that a framework peer answers the measured
// requests as the bare net/http reference does, so that bench/run compares
// like with like.
package peertest

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

// Do sends a request to the server under test and returns its answer.
type Do func(*http.Request) (*http.Response, error)

// HTTP is the newPeer of Check for a peer that is a net/http handler.
func HTTP(handler func(*peer.Messages, int32) http.Handler) func(*peer.Messages, int32) Do {
	return func(m *peer.Messages, valA int32) Do { return serve(handler(m, valA)) }
}

// serve is the Do of an http.Handler.
func serve(h http.Handler) Do {
	return func(r *http.Request) (*http.Response, error) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Result(), nil
	}
}

// Check sends the measured requests, and a bad one for each endpoint that
// takes input, to the peer and to the reference, and fails t where their
// answers differ: in status, media type (parameters such as charset aside,
// since each framework spells its own) or body (JSON compared as values).
// newPeer makes the peer over a message list that its POST /api/messages
// appends to and the number that its GET /api/number/val-a answers.
func Check(t *testing.T, newPeer func(*peer.Messages, int32) Do) {
	t.Helper()
	const number = 7
	messages := new(peer.Messages)
	do := newPeer(messages, number)
	ref := serve(reference.Handler())
	const posted = "hello world 20 bytes"
	tests := []struct {
		method, target, body string
	}{
		{"GET", "/api/hello", ""},
		{"GET", "/api/hi", ""},
		{"GET", "/api/hello/42", ""},
		{"GET", "/api/hello/-2147483648", ""},
		{"GET", "/api/hello/x", ""},
		{"GET", "/api/hello/2147483648", ""},
		{"POST", "/api/messages", `{"text":"` + posted + `"}`},
		{"POST", "/api/messages", `{}`},
		{"POST", "/api/messages", `{"text":`},
	}
	for _, tt := range tests {
		name := tt.method + " " + tt.target + " " + tt.body
		want := send(t, ref, tt.method, tt.target, tt.body)
		got := send(t, do, tt.method, tt.target, tt.body)
		if got.status != want.status {
			t.Errorf("%s: status %d, want %d", name, got.status, want.status)
			continue
		}
		if want.status >= 300 {
			continue // error bodies are each framework's own
		}
		if got.mediaType != want.mediaType {
			t.Errorf("%s: media type %q, want %q", name, got.mediaType, want.mediaType)
		}
		if !sameBody(got, want) {
			t.Errorf("%s:\ngot  %q\nwant %q", name, got.body, want.body)
		}
	}
	if got := messages.Texts(); !slices.Equal(got, []string{posted}) {
		t.Errorf("messages after the POSTs: %q, want [%q]", got, posted)
	}

	// The number is the peer's own fixed one, as JSON like the reference's.
	want := send(t, ref, "GET", "/api/number/val-a", "")
	for range 2 {
		got := send(t, do, "GET", "/api/number/val-a", "")
		if got.status != want.status || got.mediaType != want.mediaType {
			t.Errorf("GET /api/number/val-a: %d %s, want %d %s", got.status, got.mediaType, want.status, want.mediaType)
		}
		if s := strings.TrimSpace(got.body); s != strconv.Itoa(number) {
			t.Errorf("GET /api/number/val-a: %q, want %d", got.body, number)
		}
	}
}

type answer struct {
	status          int
	mediaType, body string
}

func send(t *testing.T, do Do, method, target, body string) answer {
	t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	resp, err := do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, target, err)
	}
	a := answer{status: resp.StatusCode, body: string(b)}
	if ct := resp.Header.Get("Content-Type"); ct != "" && len(b) > 0 {
		if a.mediaType, _, err = mime.ParseMediaType(ct); err != nil {
			t.Errorf("%s %s: Content-Type %q: %v", method, target, ct, err)
		}
	}
	return a
}

// sameBody compares JSON bodies as values (a trailing newline or the order
// of keys aside) and others byte for byte.
func sameBody(got, want answer) bool {
	if want.mediaType != "application/json" {
		return got.body == want.body
	}
	var g, w any
	if json.Unmarshal([]byte(got.body), &g) != nil || json.Unmarshal([]byte(want.body), &w) != nil {
		return false
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return bytes.Equal(gb, wb)
}
