package server

// server.forward-headers-strategy=framework, as Spring's
// ForwardedHeaderFilter: RFC 7239's Forwarded header when a proxy sends
// one, else the X-Forwarded-* headers as with native (forwarded.go), plus
// X-Forwarded-Ssl and X-Forwarded-Prefix. The headers are then removed
// from the request, as the filter hides them, so that nothing behind
// takes them for the client's own.
//
// Forwarded: for=198.51.100.7;proto=https;host=example.com, for=10.0.0.2
// is a list of elements, one per proxy, the client's side first; each is
// parameters name=value separated by semicolons, a value a token or a
// quoted string. As in Spring, the first element's proto and host are the
// client's; the client's address is found in the for= of every element
// as in X-Forwarded-For: the right-most one that is not a trusted proxy.

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
)

// forwardedHeaders are the headers rewriteFramework reads, and removes.
var forwardedHeaders = []string{"Forwarded", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port",
	"X-Forwarded-For", "X-Forwarded-Ssl", "X-Forwarded-Prefix"}

// rewriteFramework returns a copy of r as the client sent it to the
// proxy, from Forwarded when it is there and parses, else from the
// X-Forwarded-* headers, X-Forwarded-Ssl: on meaning https when
// X-Forwarded-Proto is not set. X-Forwarded-Prefix, when it is a path,
// becomes what links start with (dispatch.WithForwardedPrefix).
func rewriteFramework(r *http.Request) *http.Request {
	hop, ok := parseForwarded(r.Header.Values("Forwarded"))
	if !ok {
		hop = xForwarded(r.Header)
		if hop.proto == "" && strings.EqualFold(first(r.Header.Get("X-Forwarded-Ssl")), "on") {
			hop.proto = "https"
		}
	}
	r = rewriteForwarded(r, hop)
	if values := r.Header.Values("X-Forwarded-Prefix"); len(values) > 0 {
		if prefix, ok := forwardedPrefix(values); ok {
			r = dispatch.WithForwardedPrefix(r, prefix)
		}
	}
	for _, h := range forwardedHeaders {
		r.Header.Del(h) // r's header is rewriteForwarded's copy
	}
	return r
}

// parseForwarded reads Forwarded's values into what they say of the
// client, and false when there are none or one does not parse: a
// malformed header is not believed at all, and X-Forwarded-* are read
// instead, as Spring does without a Forwarded header.
func parseForwarded(values []string) (forwardedHop, bool) {
	var hop forwardedHop
	elements := 0
	for _, v := range values {
		for v != "" {
			var params map[string]string
			var ok bool
			if params, v, ok = forwardedElement(v); !ok {
				return forwardedHop{}, false
			}
			if len(params) == 0 {
				continue // an empty element, as "a, , b" has
			}
			if elements == 0 {
				hop.proto, hop.host = params["proto"], params["host"]
			}
			elements++
			if f, ok := params["for"]; ok {
				hop.chain = append(hop.chain, forwardedNode(f))
			}
		}
	}
	return hop, elements > 0
}

// forwardedElement reads the element at the start of s, up to the comma
// that ends it, and returns its parameters (names in lower case) and the
// rest of s after that comma.
func forwardedElement(s string) (params map[string]string, rest string, ok bool) {
	params = map[string]string{}
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return params, "", true
		}
		if s[0] == ',' {
			return params, s[1:], true
		}
		name, value, found := strings.Cut(s, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !found || name == "" || strings.ContainsAny(name, ",;\" \t") {
			return nil, "", false
		}
		if value, s, ok = forwardedValue(value); !ok {
			return nil, "", false
		}
		if _, dup := params[name]; dup {
			return nil, "", false // RFC 7239 §4: a parameter at most once per element
		}
		params[name] = value
		s = strings.TrimLeft(s, " \t")
		if s != "" && s[0] == ';' {
			s = s[1:]
		} else if s != "" && s[0] != ',' {
			return nil, "", false
		}
	}
}

// forwardedValue reads the value at the start of s: a quoted string
// (with its backslash escapes), or the characters up to the next
// separator. RFC 7239 wants host=example.com:8443 quoted; proxies that do
// not quote it are understood too, as Spring understands them.
func forwardedValue(s string) (value, rest string, ok bool) {
	if s == "" || s[0] != '"' {
		end := strings.IndexAny(s, ";, \t\"")
		if end < 0 {
			end = len(s)
		}
		return s[:end], s[end:], true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
			if i == len(s) {
				return "", "", false
			}
			b.WriteByte(s[i])
		case '"':
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", false // no closing quote
}

// forwardedNode is the address of a for= node (RFC 7239 §6):
// 192.0.2.43, 192.0.2.43:47011, [2001:db8::1] or [2001:db8::1]:4711,
// without its port; an obfuscated node or "unknown" as it is, which
// forwardedFor does not believe.
func forwardedNode(node string) string {
	if host, _, err := net.SplitHostPort(node); err == nil {
		node = host
	}
	node = strings.TrimSuffix(strings.TrimPrefix(node, "["), "]")
	if _, err := netip.ParseAddr(node); err != nil {
		return "unknown"
	}
	return node
}

// forwardedPrefix joins X-Forwarded-Prefix's values and their
// comma-separated parts, as Spring does (proxies that each add a path:
// /a, /b is /a/b), each without its trailing slashes, so "/" is the root
// (""). It is refused, and false returned, unless every part is an
// absolute path of plain segments: a prefix lands at the start of
// redirects and of links, where //host would lead to another site.
func forwardedPrefix(values []string) (string, bool) {
	var b strings.Builder
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.TrimRight(strings.TrimSpace(part), "/")
			if part == "" {
				continue // "/" or empty: the root
			}
			if !prefixPath(part) {
				return "", false
			}
			b.WriteString(part)
		}
	}
	return b.String(), true
}

// prefixPath reports whether p is /segment/segment... with no empty, .
// or .. segment, and only the characters a path segment may hold
// unescaped (RFC 3986's pchar) or percent-encoded.
func prefixPath(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	for seg := range strings.SplitSeq(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			switch {
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			case strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0:
			case c == '%' && i+2 < len(seg) && isHex(seg[i+1]) && isHex(seg[i+2]):
				i += 2
			default:
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
