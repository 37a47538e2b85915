package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRefusedBodies sends bodies the service cannot read as they are sent,
// through run, and checks that the answer says why: each of these was once
// a 400 that blamed the bytes ("not valid UTF-8") or leaked Go's words.
func TestRefusedBodies(t *testing.T) {
	s := start(t, nil, nil)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"text":"zipped"}`))
	zw.Close()
	tests := []struct {
		name           string
		body           string
		headers        []string
		detail         string
		acceptEncoding string
	}{
		{"gzip", gz.String(), []string{"Content-Type: application/json", "Content-Encoding: gzip"},
			`Content-Encoding "gzip" is not supported; send the body unencoded.`, "identity"},
		{"XML in UTF-16", `<?xml version="1.0" encoding="UTF-16"?><message><text>a</text></message>`, []string{"Content-Type: application/xml"},
			`XML encoding "UTF-16" is not supported; send UTF-8.`, ""},
		{"XML in ISO-8859-1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><message><text>caf\xe9</text></message>", []string{"Content-Type: application/xml"},
			`XML encoding "ISO-8859-1" is not supported; send UTF-8.`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.do(t, "POST", "/api/messages", tt.body, tt.headers...)
			p, err := problemOf(got.status, got.header, []byte(got.body))
			if got.status != http.StatusUnsupportedMediaType || err != nil || p.Detail != tt.detail {
				t.Errorf("got  %d %s (%v)\nwant 415 %s", got.status, got.body, err, tt.detail)
			}
			if ae := got.header.Get("Accept-Encoding"); ae != tt.acceptEncoding {
				t.Errorf("Accept-Encoding\ngot  %q\nwant %q", ae, tt.acceptEncoding)
			}
		})
	}
	// What is readable stays so.
	for _, body := range []string{
		`<?xml version="1.0" encoding="utf-8"?><message><text>a</text></message>`,
		`<?xml version="1.0" encoding="US-ASCII"?><message><text>a</text></message>`,
	} {
		if got := s.do(t, "POST", "/api/messages", body, "Content-Type: application/xml", "Content-Encoding: identity"); got.status != http.StatusCreated {
			t.Errorf("%s: got %d %s, want 201", body, got.status, got.body)
		}
	}
}

// TestSlowBodyTimesOut sends 10 of a declared 100 body bytes and stalls:
// the server's read timeout ends the request with 408, not with a 400 that
// blames a body the client was still sending.
func TestSlowBodyTimesOut(t *testing.T) {
	s := start(t, []string{"--server.read-timeout=300ms"}, nil)
	const sent = `{"text":"a`
	req := rawRequest("POST", "/api/messages", nil, "Content-Type: application/json", "Content-Length: 100")
	began := time.Now()
	r, err := rawExchange(s.Addr(), append(req, sent...), nil, waitTimeout)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	p, err := problemOf(r.status, r.header, r.body)
	if r.status != http.StatusRequestTimeout || err != nil || !strings.Contains(p.Detail, "read timeout") {
		t.Errorf("after %v:\ngot  %d %s (%v)\nwant 408 naming the read timeout", time.Since(began), r.status, r.body, err)
	}
	// The document must allow the answer, as it does every answer s.do gets.
	doc, _ := http.NewRequest("POST", s.base+"/api/messages", strings.NewReader(sent))
	doc.Header.Set("Content-Type", "application/json")
	checkContract(t, s, doc, []byte(sent), r.status, r.header, r.body)
}

// TestConnectRefused sends CONNECT to an authority, as to a proxy: the
// ServeMux's 404 "No endpoint CONNECT ." with no instance said nothing
// true. The service serves no CONNECT, which is a 405.
func TestConnectRefused(t *testing.T) {
	s := start(t, nil, nil)
	r, err := rawExchange(s.Addr(), []byte("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"), nil, waitTimeout)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	p, err := problemOf(r.status, r.header, r.body)
	if r.status != http.StatusMethodNotAllowed || err != nil || p.Detail != "CONNECT is not supported." || p.Instance != "example.com:443" {
		t.Errorf("got  %d %s (%v)\nwant 405 CONNECT is not supported. for instance example.com:443", r.status, r.body, err)
	}
	if allow, ok := r.header["Allow"]; !ok || strings.Join(allow, "") != "" {
		t.Errorf("Allow %q, want one empty value: no method reaches that target", allow)
	}
}
