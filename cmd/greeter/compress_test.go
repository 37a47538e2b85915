package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestMessagesCompressed: with server.compression.enabled, the streamed
// list of GET /api/messages is gzipped for a client that takes gzip, and
// decompresses to the very list sent to one that does not; a page under
// 2KB is sent as it is.
func TestMessagesCompressed(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.compression.enabled=true"}, nil)
	for i := range 120 {
		r := s.do(t, "POST", "/api/messages", fmt.Sprintf(`{"text":"message number %d, long enough to fill the list"}`, i),
			"Content-Type: application/json")
		if r.status != http.StatusCreated {
			t.Fatalf("%s: %d %s", r.request, r.status, r.body)
		}
	}
	plain := s.do(t, "GET", "/api/messages", "", "Accept-Encoding: identity")
	if plain.status != http.StatusOK || plain.header.Get("Content-Encoding") != "" || len(plain.body) < 2<<10 {
		t.Fatalf("GET /api/messages identity: %d, Content-Encoding %q, %d bytes", plain.status, plain.header.Get("Content-Encoding"), len(plain.body))
	}
	// Sent without the contract check: the body is gzip, not JSON.
	r := boottest.Send(t, nil, "GET", s.base+"/api/messages", "", "Accept-Encoding: gzip")
	if r.Status != http.StatusOK || r.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Encoding") {
		t.Fatalf("GET /api/messages gzip: %d, Content-Encoding %q, Vary %q", r.Status, r.Header.Get("Content-Encoding"), r.Header.Values("Vary"))
	}
	zr, err := gzip.NewReader(strings.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || string(got) != plain.body {
		t.Errorf("decompressed (%v): %d bytes, want the %d of the identity answer", err, len(got), len(plain.body))
	}
	if len(r.Body) >= len(plain.body)/2 {
		t.Errorf("gzip sent %d bytes for %d", len(r.Body), len(plain.body))
	}
	page := s.do(t, "GET", "/api/messages?page=0&size=2", "", "Accept-Encoding: gzip")
	if page.status != http.StatusOK || page.header.Get("Content-Encoding") != "" {
		t.Errorf("a page of 2: %d, Content-Encoding %q, want it as it is", page.status, page.header.Get("Content-Encoding"))
	}
}
