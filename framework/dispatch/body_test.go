package dispatch

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// TestUnreadableBodies checks the 415s for a body the codecs cannot read
// as it is sent: one in a content coding, or XML declaring another charset.
// Before they had their own answer, both were 400 "not valid UTF-8" or
// Go's own CharsetReader error.
func TestUnreadableBodies(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	xmlCT := "Content-Type: application/xml"
	tests := []struct {
		headers        []string
		body           string
		status         int
		detail         string
		acceptEncoding string
	}{
		{[]string{"Content-Type: application/json", "Content-Encoding: gzip"}, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 415,
			`Content-Encoding "gzip" is not supported; send the body unencoded.`, "identity"},
		{[]string{"Content-Type: application/json", "Content-Encoding: identity, br"}, `{"text":"a"}`, 415,
			`Content-Encoding "br" is not supported; send the body unencoded.`, "identity"},
		{[]string{"Content-Type: application/json", "Content-Encoding: identity", "Content-Encoding: deflate"}, `{"text":"a"}`, 415,
			`Content-Encoding "deflate" is not supported; send the body unencoded.`, "identity"},
		{[]string{xmlCT}, `<?xml version="1.0" encoding="UTF-16"?><Message><text>a</text></Message>`, 415,
			`XML encoding "UTF-16" is not supported; send UTF-8.`, ""},
		{[]string{xmlCT}, `<?xml version="1.0" encoding="ISO-8859-1"?><Message><text>a</text></Message>`, 415,
			`XML encoding "ISO-8859-1" is not supported; send UTF-8.`, ""},
		// Not UTF-8 at all, as a Latin-1 body is: the declaration still
		// explains it better than "not valid UTF-8".
		{[]string{xmlCT}, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><Message><text>caf\xe9</text></Message>", 415,
			`XML encoding "ISO-8859-1" is not supported; send UTF-8.`, ""},
		{[]string{xmlCT}, "<Message><text>caf\xe9</text></Message>", 400, "Request body is not valid UTF-8.", ""},
		// UTF-16 with a byte-order mark, big- and little-endian.
		{[]string{"Content-Type: application/json"}, "\xfe\xff\x00{\x00}", 415,
			"The request body is UTF-16 (it starts with a byte-order mark); send UTF-8.", ""},
		{[]string{xmlCT}, "\xff\xfe<\x00a\x00/\x00>\x00", 415,
			"The request body is UTF-16 (it starts with a byte-order mark); send UTF-8.", ""},
	}
	for _, tt := range tests {
		in := strings.Join(tt.headers, "; ") + " " + tt.body
		w := serve(d, "POST", "/echo", strings.NewReader(tt.body), tt.headers...)
		var p problem
		json.Unmarshal(w.Body.Bytes(), &p)
		checkProblem(t, in, w, tt.status, "/echo", tt.detail)
		if p.Detail != tt.detail {
			t.Errorf("%q: detail\ngot  %v\nwant %v", in, p.Detail, tt.detail)
		}
		if got := w.Header().Get("Accept-Encoding"); got != tt.acceptEncoding {
			t.Errorf("%q: Accept-Encoding\ngot  %v\nwant %v", in, got, tt.acceptEncoding)
		}
		wantAccept := ""
		if tt.status == http.StatusUnsupportedMediaType {
			wantAccept = "application/json, application/*+json, application/xml, text/xml, application/*+xml"
		}
		if got := w.Header().Get("Accept"); got != wantAccept {
			t.Errorf("%q: Accept\ngot  %v\nwant %v", in, got, wantAccept)
		}
	}
}

// TestReadableBodies checks that what TestUnreadableBodies refuses stops
// short of bodies the codecs can read.
func TestReadableBodies(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	tests := []struct {
		headers []string
		body    string
	}{
		{[]string{"Content-Type: application/json", "Content-Encoding: identity"}, `{"text":"a"}`},
		{[]string{"Content-Type: application/json", "Content-Encoding: IDENTITY, "}, `{"text":"a"}`},
		{[]string{"Content-Type: application/xml"}, `<?xml version="1.0" encoding="UTF-8"?><Message><text>a</text></Message>`},
		{[]string{"Content-Type: application/xml"}, `<?xml version="1.0" encoding="utf-8"?><Message><text>a</text></Message>`},
		{[]string{"Content-Type: application/xml"}, `<?xml version="1.0" encoding="US-ASCII"?><Message><text>a</text></Message>`},
		{[]string{"Content-Type: application/xml"}, `<?xml version="1.0" encoding="us-ascii"?><Message><text>a</text></Message>`},
		{[]string{"Content-Type: application/xml"}, `<?xml version="1.0"?><Message><text>a</text></Message>`},
	}
	for _, tt := range tests {
		in := strings.Join(tt.headers, "; ") + " " + tt.body
		w := serve(d, "POST", "/echo", strings.NewReader(tt.body), tt.headers...)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "a") {
			t.Errorf("%q:\ngot  %v %s\nwant 200", in, w.Code, w.Body)
		}
	}
}

// timeoutError is what a connection's Read returns past its deadline, as
// *net.OpError does.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// TestBodyReadTimeout checks that a body cut off by the server's read
// deadline is answered 408, not 400: the client was slow, not wrong.
func TestBodyReadTimeout(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	for _, err := range []error{os.ErrDeadlineExceeded, timeoutError{}, errors.Join(errors.New("read"), timeoutError{})} {
		for _, chunked := range []bool{false, true} {
			r := httptest.NewRequest("POST", "/echo", nil)
			r.Header.Set("Content-Type", "application/json")
			r.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"text":`), &failingReader{err}))
			r.ContentLength = 100
			if chunked {
				r.ContentLength = -1
			}
			w := httptest.NewRecorder()
			d.ServeHTTP(w, r)
			in := err.Error()
			checkProblem(t, in, w, http.StatusRequestTimeout, "/echo", "Request body did not arrive within the server's read timeout.")
			if got := w.Header().Get("Connection"); got != "close" {
				t.Errorf("%q: Connection\ngot  %v\nwant close", in, got)
			}
		}
	}
	// Any other failure to read stays a 400.
	r := httptest.NewRequest("POST", "/echo", nil)
	r.Header.Set("Content-Type", "application/json")
	r.Body = io.NopCloser(&failingReader{io.ErrUnexpectedEOF})
	r.ContentLength = 100
	w := httptest.NewRecorder()
	d.ServeHTTP(w, r)
	checkProblem(t, "unexpected EOF", w, http.StatusBadRequest, "/echo", "Failed to read the request body.")
}

type failingReader struct{ err error }

func (f *failingReader) Read([]byte) (int, error) { return 0, f.err }

// TestConnect checks CONNECT to an authority: the ServeMux, matching by
// an empty path, answered 404 "No endpoint CONNECT ." with no instance.
func TestConnect(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	w := serve(d, "CONNECT", "example.com:443", nil)
	in := "CONNECT example.com:443"
	var p problem
	json.Unmarshal(w.Body.Bytes(), &p)
	if w.Code != http.StatusMethodNotAllowed || p.Detail != "CONNECT is not supported." || p.Instance != "example.com:443" {
		t.Errorf("%q:\ngot  %v %s\nwant 405 CONNECT is not supported. (instance example.com:443)", in, w.Code, w.Body)
	}
	if got := w.Header().Get("Content-Type"); got != "application/problem+json" {
		t.Errorf("%q: Content-Type\ngot  %v\nwant application/problem+json", in, got)
	}
	if got, ok := w.Header()["Allow"]; !ok || len(got) != 1 || got[0] != "" {
		t.Errorf("%q: Allow\ngot  %q\nwant one empty value: no method reaches an authority", in, got)
	}
	// CONNECT to a path is an ordinary method the path does not allow.
	w = serve(d, "CONNECT", "/hello", nil)
	json.Unmarshal(w.Body.Bytes(), &p)
	if w.Code != http.StatusMethodNotAllowed || !strings.HasPrefix(p.Detail, "Method 'CONNECT' is not supported; this path allows GET") || w.Header().Get("Allow") == "" {
		t.Errorf("CONNECT /hello:\ngot  %v %v %s\nwant 405 with Allow", w.Code, w.Header(), w.Body)
	}
}
