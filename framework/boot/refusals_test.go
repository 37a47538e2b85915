package boot_test

// Requests the dispatcher refuses, and how it says why.

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestRefusedBodies sends bodies the framework cannot read as they are
// sent, and checks that the answer says why: each of these was once a 400
// that blamed the bytes ("not valid UTF-8") or leaked Go's words.
func TestRefusedBodies(t *testing.T) {
	t.Parallel()
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
		{"XML in UTF-16", `<?xml version="1.0" encoding="UTF-16"?><note><text>a</text></note>`, []string{"Content-Type: application/xml"},
			`XML encoding "UTF-16" is not supported; send UTF-8.`, ""},
		{"XML in ISO-8859-1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><note><text>caf\xe9</text></note>", []string{"Content-Type: application/xml"},
			`XML encoding "ISO-8859-1" is not supported; send UTF-8.`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := send(t, nil, "POST", s.URL+"/notes", tt.body, tt.headers...)
			p, err := boottest.CheckProblem(got.status, got.header, got.body)
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
		`<?xml version="1.0" encoding="utf-8"?><note><text>a</text></note>`,
		`<?xml version="1.0" encoding="US-ASCII"?><note><text>a</text></note>`,
	} {
		if got := send(t, nil, "POST", s.URL+"/notes", body, "Content-Type: application/xml", "Content-Encoding: identity"); got.status != http.StatusCreated {
			t.Errorf("%s: got %d %s, want 201", body, got.status, got.body)
		}
	}
}

// TestConnectRefused sends CONNECT to an authority, as to a proxy: the
// ServeMux's 404 "No endpoint CONNECT ." with no instance said nothing
// true. The service serves no CONNECT, which is a 405.
func TestConnectRefused(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	r, err := boottest.RawExchange(s.Addr(), []byte("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"), nil, boottest.Timeout)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	p, err := boottest.CheckProblem(r.Status, r.Header, r.Body)
	if r.Status != http.StatusMethodNotAllowed || err != nil || p.Detail != "CONNECT is not supported." || p.Instance != "example.com:443" {
		t.Errorf("got  %d %s (%v)\nwant 405 CONNECT is not supported. for instance example.com:443", r.Status, r.Body, err)
	}
	if allow, ok := r.Header["Allow"]; !ok || strings.Join(allow, "") != "" {
		t.Errorf("Allow %q, want one empty value: no method reaches that target", allow)
	}
}
