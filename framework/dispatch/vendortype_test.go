package dispatch

import (
	"net/http"
	"testing"
)

// TestVendorTypeIsTheDefault: a route that declares a vendor +json type
// first answers in it when the client states no preference, as Spring's
// actuator answers application/vnd.spring-boot.actuator.v3+json, and
// still negotiates plain JSON.
func TestVendorTypeIsTheDefault(t *testing.T) {
	t.Parallel()
	const v3, v2 = "application/vnd.spring-boot.actuator.v3+json", "application/vnd.spring-boot.actuator.v2+json"
	d, err := New(Options{}, Route{Method: "GET", Pattern: "/a", Produces: []string{v3, v2, "application/json"}, Handler: message("x")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		accept []string
		status int
		want   string
	}{
		{nil, 200, v3},
		{[]string{"Accept: */*"}, 200, v3},
		{[]string{"Accept: " + v3}, 200, v3},
		{[]string{"Accept: " + v2}, 200, v2},
		{[]string{"Accept: application/json"}, 200, "application/json"},
		{[]string{"Accept: application/xml"}, 406, "application/problem+json"},
	} {
		w := serve(d, "GET", "/a", nil, tt.accept...)
		if w.Code != tt.status || w.Header().Get("Content-Type") != tt.want {
			t.Errorf("%v: %d %q, want %d %q", tt.accept, w.Code, w.Header().Get("Content-Type"), tt.status, tt.want)
		}
	}
}

// TestResponseHeader: headers a handler sets for its success go with it,
// and not with its failure.
func TestResponseHeader(t *testing.T) {
	t.Parallel()
	d, err := New(Options{}, Route{Method: "GET", Pattern: "/file", Produces: []string{"application/octet-stream"}, Errors: []int{429},
		Handler: Returns(func(r *Request) ([]byte, error) {
			r.ResponseHeader().Set("Content-Disposition", `attachment; filename="a.bin"`)
			if r.URL.Query().Has("busy") {
				return nil, &Error{Status: http.StatusTooManyRequests, Detail: "busy"}
			}
			return []byte{1, 2}, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	if w := serve(d, "GET", "/file", nil); w.Code != 200 || w.Header().Get("Content-Disposition") != `attachment; filename="a.bin"` || w.Body.Len() != 2 {
		t.Errorf("success: %d %v", w.Code, w.Header())
	}
	if w := serve(d, "GET", "/file?busy", nil); w.Code != 429 || w.Header().Get("Content-Disposition") != "" {
		t.Errorf("failure: %d %v", w.Code, w.Header())
	}
}
