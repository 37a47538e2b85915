package server

// The framework strategy's reading of Forwarded (RFC 7239),
// X-Forwarded-Ssl and X-Forwarded-Prefix, request by request.

import (
	"net/netip"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// TestForwardedHeader: Forwarded's first element gives the scheme and
// host, its for= nodes the client as X-Forwarded-For does; with it,
// X-Forwarded-* are not read; without it, or when it does not parse,
// they are.
func TestForwardedHeader(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		headers              map[string]string
		host, scheme, client string
	}{
		{"all three", map[string]string{"Forwarded": `for=198.51.100.9;proto=https;host=example.com`}, "example.com", "https", "198.51.100.9:0"},
		{"quoted, in any case", map[string]string{"Forwarded": `For="[2001:db8::7]:4711";Proto=HTTPS;Host="example.com:8443"`}, "example.com:8443", "https", "[2001:db8::7]:0"},
		{"unquoted port", map[string]string{"Forwarded": `host=example.com:8443;proto=https`}, "example.com:8443", "https", "10.9.9.9:4000"},
		{"a chain", map[string]string{"Forwarded": `for=1.1.1.1;proto=https;host=a.example, for=198.51.100.9, for=10.0.0.2;proto=http;host=b.internal`}, "a.example", "https", "198.51.100.9:0"},
		{"wins over X-Forwarded-*", map[string]string{"Forwarded": `proto=http;host=example.com`, "X-Forwarded-Proto": "https", "X-Forwarded-Host": "other.example"}, "example.com", "http", "10.9.9.9:4000"},
		{"unknown node", map[string]string{"Forwarded": `for=unknown;proto=https;host=example.com`}, "example.com", "https", "10.9.9.9:4000"},
		{"malformed: X-Forwarded-* read", map[string]string{"Forwarded": `for="198.51.100.9;proto=https`, "X-Forwarded-Host": "other.example"}, "other.example", "http", "10.9.9.9:4000"},
		{"a host with a path is ignored", map[string]string{"Forwarded": `host="evil.example/x";proto=https`}, "svc", "https", "10.9.9.9:4000"},
		{"X-Forwarded-Ssl", map[string]string{"X-Forwarded-Ssl": "on", "X-Forwarded-Host": "example.com"}, "example.com", "https", "10.9.9.9:4000"},
		{"X-Forwarded-Proto wins over -Ssl", map[string]string{"X-Forwarded-Ssl": "on", "X-Forwarded-Proto": "http"}, "svc", "http", "10.9.9.9:4000"},
	} {
		r := seenBy(t, "framework", "10.9.9.9:4000", tt.headers)
		if r.Host != tt.host || r.URL.Scheme != tt.scheme || (r.TLS != nil) != (tt.scheme == "https") || r.RemoteAddr != tt.client {
			t.Errorf("%s: host %q scheme %q TLS %v client %q, want %q %q %q", tt.name, r.Host, r.URL.Scheme, r.TLS != nil, r.RemoteAddr, tt.host, tt.scheme, tt.client)
		}
		for _, h := range forwardedHeaders {
			if v, ok := r.Header[h]; ok {
				t.Errorf("%s: %s: %q is left on the request, want it removed", tt.name, h, v)
			}
		}
	}
}

// TestForwardedHeaderUntrusted: from a peer that is not a trusted proxy
// nothing is read, and nothing removed.
func TestForwardedHeaderUntrusted(t *testing.T) {
	h := map[string]string{"Forwarded": "for=198.51.100.9;proto=https;host=example.com", "X-Forwarded-Prefix": "/p"}
	r := seenBy(t, "framework", "203.0.113.5:5000", h)
	if r.Host != "svc:8080" || r.TLS != nil || r.RemoteAddr != "203.0.113.5:5000" || dispatch.ContextPath(r) != "" || r.Header.Get("Forwarded") == "" {
		t.Errorf("untrusted peer: host %q TLS %v client %q context path %q Forwarded %q, want the request untouched",
			r.Host, r.TLS != nil, r.RemoteAddr, dispatch.ContextPath(r), r.Header.Get("Forwarded"))
	}
}

// TestForwardedPrefix: the prefixes are joined, trailing slashes
// dropped; one that is not a plain absolute path is refused whole.
func TestForwardedPrefix(t *testing.T) {
	for _, tt := range []struct {
		values []string
		want   string
		ok     bool
	}{
		{[]string{"/greeter"}, "/greeter", true},
		{[]string{"/greeter/"}, "/greeter", true},
		{[]string{"/a, /b/"}, "/a/b", true},
		{[]string{"/a", "/b"}, "/a/b", true},
		{[]string{"/"}, "", true},
		{[]string{"/caf%C3%A9"}, "/caf%C3%A9", true},
		{[]string{"//evil.example"}, "", false},
		{[]string{"greeter"}, "", false},
		{[]string{"/a/../b"}, "", false},
		{[]string{"/a?b"}, "", false},
		{[]string{"/a b"}, "", false},
		{[]string{"/%zz"}, "", false},
		{[]string{"/ok", "https://evil.example"}, "", false},
	} {
		got, ok := forwardedPrefix(tt.values)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q:\ngot  %q %v\nwant %q %v", tt.values, got, ok, tt.want, tt.ok)
		}
	}
	r := seenBy(t, "framework", "127.0.0.1:1", map[string]string{"X-Forwarded-Prefix": "/greeter/"})
	if got := dispatch.ContextPath(r); got != "/greeter" {
		t.Errorf("X-Forwarded-Prefix /greeter/: links start with %q, want /greeter", got)
	}
	r = seenBy(t, "framework", "127.0.0.1:1", map[string]string{"X-Forwarded-Prefix": "//evil.example"})
	if got := dispatch.ContextPath(r); got != "" {
		t.Errorf("X-Forwarded-Prefix //evil.example: links start with %q, want it ignored", got)
	}
}

// FuzzForwarded: any Forwarded header parses or is refused without a
// panic, and the chain it gives holds addresses or "unknown" alone.
func FuzzForwarded(f *testing.F) {
	for _, s := range []string{`for=192.0.2.60;proto=http;by=203.0.113.43`, `for="[2001:db8:cafe::17]:4711"`,
		`for=192.0.2.43, for=198.51.100.17`, `host="a\"b";proto=https`, `for=`, `;;,,`, `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		hop, ok := parseForwarded([]string{s})
		if !ok {
			return
		}
		for _, node := range hop.chain {
			if _, err := netip.ParseAddr(node); err != nil && node != "unknown" {
				t.Errorf("%q: the chain holds %q", s, node)
			}
		}
	})
}
