package server

// The native strategy's rewriting, request by request: who is trusted
// and which client X-Forwarded-For names. The peers here cannot be made
// through a real connection from a test (it always comes from loopback).

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// seen runs r through forwarded(native) and returns the request the
// handler behind it saw.
func seen(t *testing.T, peer string, headers map[string]string) *http.Request {
	t.Helper()
	return seenBy(t, "native", peer, headers)
}

// seenBy is seen with the strategy given.
func seenBy(t *testing.T, strategy, peer string, headers map[string]string) *http.Request {
	t.Helper()
	r := httptest.NewRequest("GET", "http://svc:8080/x", nil)
	r.RemoteAddr = peer
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	var got *http.Request
	forwarded(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r }), strategy).ServeHTTP(httptest.NewRecorder(), r)
	return got
}

// TestForwardedTrust: only a loopback, private, link-local or shared
// address is a proxy whose headers are believed.
func TestForwardedTrust(t *testing.T) {
	h := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "example.com", "X-Forwarded-For": "198.51.100.9"}
	for peer, trusted := range map[string]bool{
		"127.0.0.1:5000": true, "[::1]:5000": true, "10.1.2.3:5000": true, "172.20.0.1:5000": true,
		"192.168.1.1:5000": true, "100.64.0.1:5000": true, "[fd00::1]:5000": true, "[::ffff:10.0.0.1]:5000": true,
		"203.0.113.5:5000": false, "8.8.8.8:5000": false, "[2001:db8::1]:5000": false, "172.32.0.1:5000": false,
	} {
		r := seen(t, peer, h)
		rewritten := r.Host == "example.com" && r.TLS != nil && r.RemoteAddr == "198.51.100.9:0"
		untouched := r.Host == "svc:8080" && r.TLS == nil && r.RemoteAddr == peer
		if trusted && !rewritten || !trusted && !untouched {
			t.Errorf("peer %s (trusted %v): host %q, TLS %v, remote %q", peer, trusted, r.Host, r.TLS != nil, r.RemoteAddr)
		}
	}
}

// TestForwardedFor: the client is the right-most untrusted address of
// the chain; all trusted, the left-most; a chain with garbage is ignored.
func TestForwardedFor(t *testing.T) {
	for xff, want := range map[string]string{
		"198.51.100.9":                    "198.51.100.9:0",
		"1.1.1.1, 198.51.100.9, 10.0.0.2": "198.51.100.9:0",
		"10.0.0.5, 10.0.0.2":              "10.0.0.5:0",
		"2001:db8::7, 192.168.0.1":        "[2001:db8::7]:0",
		"198.51.100.9, not-an-address":    "10.9.9.9:4000",
		"":                                "10.9.9.9:4000",
	} {
		if got := seen(t, "10.9.9.9:4000", map[string]string{"X-Forwarded-For": xff}).RemoteAddr; got != want {
			t.Errorf("X-Forwarded-For %q: the client is %q, want %q", xff, got, want)
		}
	}
}

// TestForwardedHostAndPort: how the host, port and scheme combine.
func TestForwardedHostAndPort(t *testing.T) {
	for _, tt := range []struct {
		headers      map[string]string
		host, scheme string
	}{
		{map[string]string{"X-Forwarded-Host": "example.com:8443", "X-Forwarded-Proto": "https"}, "example.com:8443", "https"},
		{map[string]string{"X-Forwarded-Host": "example.com", "X-Forwarded-Port": "443", "X-Forwarded-Proto": "https"}, "example.com", "https"},
		{map[string]string{"X-Forwarded-Host": "example.com, proxy.internal", "X-Forwarded-Proto": "HTTPS, http"}, "example.com", "https"},
		{map[string]string{"X-Forwarded-Port": "9000"}, "svc:9000", "http"},
		{map[string]string{"X-Forwarded-Port": "99999"}, "svc:8080", "http"},
		{map[string]string{"X-Forwarded-Host": "[2001:db8::1]", "X-Forwarded-Port": "8443", "X-Forwarded-Proto": "https"}, "[2001:db8::1]:8443", "https"},
		{map[string]string{"X-Forwarded-Host": "user@evil.example"}, "svc:8080", "http"},
	} {
		r := seen(t, "127.0.0.1:1", tt.headers)
		if r.Host != tt.host || r.URL.Scheme != tt.scheme || (r.TLS != nil) != (tt.scheme == "https") {
			t.Errorf("%v: host %q scheme %q TLS %v, want %q %q", tt.headers, r.Host, r.URL.Scheme, r.TLS != nil, tt.host, tt.scheme)
		}
	}
}
