package reference

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestEndpoints checks that the reference answers the measured requests as
// the service does, so that the benchmarks compare like with like.
func TestEndpoints(t *testing.T) {
	h := Handler()
	tests := []struct {
		method, target, body string
		status               int
		contentType, want    string
	}{
		{"GET", "/api/hello", "", 200, "application/json", `{"text":"Hello World!"}`},
		{"GET", "/api/hi", "", 200, "text/plain;charset=UTF-8", "Hi"},
		{"GET", "/api/hello/42", "", 200, "application/json", `{"text":"Hello World! 42"}`},
		{"GET", "/api/hello/x", "", 400, "", ""},
		{"POST", "/api/messages", `{"text":"hello world 20 bytes"}`, 201, "", ""},
		{"POST", "/api/messages", `{}`, 400, "", ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.target, w.Code, tt.status)
			continue
		}
		if tt.status != 200 {
			continue
		}
		if got := w.Header().Get("Content-Type"); got != tt.contentType {
			t.Errorf("%s %s: Content-Type %q, want %q", tt.method, tt.target, got, tt.contentType)
		}
		if got := w.Body.String(); got != tt.want {
			t.Errorf("%s %s:\ngot  %s\nwant %s", tt.method, tt.target, got, tt.want)
		}
	}
	// The number is a fixed 32-bit integer.
	var first string
	for range 2 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/api/number/val-a", nil))
		if _, err := strconv.ParseInt(w.Body.String(), 10, 32); w.Code != http.StatusOK || err != nil {
			t.Fatalf("GET /api/number/val-a: %d %q, want 200 and a 32-bit integer", w.Code, w.Body)
		}
		if first != "" && w.Body.String() != first {
			t.Errorf("GET /api/number/val-a answered %s, then %s; want a fixed number", first, w.Body)
		}
		first = w.Body.String()
	}
}
