package dispatch

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestOriginPatterns: Spring's OriginPattern: * is any text, a port list
// one of its ports, :[*] any port or none; the rest is literal.
func TestOriginPatterns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, origin string
		want            bool
	}{
		{"https://*.example.com", "https://app.example.com", true},
		{"https://*.example.com", "https://a.b.example.com", true},
		{"https://*.example.com", "https://example.com", false},
		{"https://*.example.com", "http://app.example.com", false},
		{"https://*.example.com", "https://app.example.com:8443", false},
		{"https://*.example.com", "https://app.exampleXcom", false}, // the dot is literal
		{"https://*.example.com:[*]", "https://app.example.com:8443", true},
		{"https://*.example.com:[*]", "https://app.example.com", true},
		{"http://localhost:[3000,3001]", "http://localhost:3001", true},
		{"http://localhost:[3000,3001]", "http://localhost:3002", false},
		{"http://localhost:[3000,3001]", "http://localhost", false},
		{"*", "null", true},
		{"https://example.com/", "https://example.com", true},
	} {
		re, err := compileOriginPattern(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if got := re.MatchString(c.origin); got != c.want {
			t.Errorf("%q matching %q:\ngot  %v\nwant %v", c.pattern, c.origin, got, c.want)
		}
	}
}

// TestAllowOrigin: listed origins compare without regard to case, and
// are answered as the browser sent them; * is answered *.
func TestAllowOrigin(t *testing.T) {
	t.Parallel()
	p, err := compileCORS(&CORS{AllowedOrigins: []string{"https://App.example/"}})
	if err != nil {
		t.Fatal(err)
	}
	for origin, want := range map[string]string{"https://app.example": "https://app.example", "https://APP.example": "https://APP.example", "https://other.example": ""} {
		if got := p.allowOrigin(origin); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", origin, got, want)
		}
	}
	any, _ := compileCORS(&CORS{AllowedOrigins: []string{"*"}})
	if got := any.allowOrigin("https://x.example"); got != "*" {
		t.Errorf("with *: got %q", got)
	}
	if err := (&CORS{AllowedOrigins: []string{"*"}, AllowCredentials: true}).Check(); err != ErrCredentialsWithAnyOrigin {
		t.Errorf("credentials with *: %v", err)
	}
}

// TestCrossOrigin: an Origin of the request's own scheme, host and port
// (a default port written or not) is no CORS request.
func TestCrossOrigin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		host, origin string
		tls          bool
		cross        bool
	}{
		{"example.com", "http://example.com", false, false},
		{"example.com:80", "http://example.com", false, false},
		{"example.com", "http://EXAMPLE.com:80", false, false},
		{"example.com", "https://example.com", false, true},
		{"example.com", "https://example.com", true, false},
		{"example.com:8443", "https://example.com:8443", true, false},
		{"example.com:8080", "http://example.com", false, true},
		{"[::1]:8080", "http://[::1]:8080", false, false},
		{"[::1]", "http://[::1]:80", false, false},
		{"example.com", "null", false, true},
		{"example.com", "", false, false},
	} {
		r := httptest.NewRequest("POST", "http://"+c.host+"/", nil)
		r.URL.Scheme = "" // as a server reads a request's path
		if c.tls {
			r.TLS = &tls.ConnectionState{}
		}
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if got := crossOrigin(r) != ""; got != c.cross {
			t.Errorf("Host %s, Origin %q, TLS %v:\ngot  cross-origin %v\nwant %v", c.host, c.origin, c.tls, got, c.cross)
		}
	}
}

// BenchmarkCrossOriginCheckGET is what the cross-origin protection costs
// every GET: CrossOriginProtection returns at once for a safe method.
func BenchmarkCrossOriginCheckGET(b *testing.B) {
	d := &Dispatcher{crossOrigin: http.NewCrossOriginProtection()}
	r := httptest.NewRequest("GET", "/api/hello", nil)
	g := &group{}
	ex := &exchange{}
	b.ReportAllocs()
	for b.Loop() {
		if !d.admitCrossOrigin(ex, r, g) {
			b.Fatal("refused")
		}
	}
}
