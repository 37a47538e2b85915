package boot

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// forwardStrategyKey is Spring Boot's server.forward-headers-strategy:
// whether the X-Forwarded-* headers a reverse proxy (a load balancer, an
// ingress) adds say how the client reached the service. Behind a proxy
// that ends TLS, the service sees plain HTTP from the proxy's address;
// without them the actuator's absolute links, the recent exchanges'
// URIs and the session cookie's Secure flag would name the proxy's hop,
// not the client's.
//
//   - none, the default as in Spring off a cloud platform: the headers
//     are ignored, as any client may send them.
//   - native, as with Tomcat's RemoteIpValve that Spring switches on for
//     it: from a trusted proxy (below), X-Forwarded-Proto, -Host, -Port
//     and -For replace the scheme, host, port and client address.
//
// Spring's third value, framework (its ForwardedHeaderFilter, which also
// reads RFC 7239 Forwarded and X-Forwarded-Prefix), is not built and is
// refused rather than taken as native, so that a proxy relying on
// X-Forwarded-Prefix is noticed at start-up.
const forwardStrategyKey = "server.forward-headers-strategy"

// forwardStrategy parses server.forward-headers-strategy.
func forwardStrategy(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "none", "native":
		return v, nil
	case "framework":
		return "", errors.New("framework (Spring's ForwardedHeaderFilter, with Forwarded and X-Forwarded-Prefix) is not built here; want native or none")
	}
	return "", errors.New("want native or none")
}

// bindForwardStrategy reads server.forward-headers-strategy.
func bindForwardStrategy(b *config.Binder) string {
	return config.Bind(b, forwardStrategyKey, "none", forwardStrategy)
}

// sharedAddressSpace is 100.64.0.0/10 (RFC 6598, carrier-grade NAT),
// which Tomcat's internalProxies trusts too.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// trustedProxy reports whether ip may speak for the client. As Tomcat's
// RemoteIpValve by default (its internalProxies), only loopback, private
// (10/8, 172.16/12, 192.168/16, fc00::/7), link-local and shared
// (100.64/10) addresses are proxies: a client on the internet that sends
// X-Forwarded-* headers itself is not believed.
func trustedProxy(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || sharedAddressSpace.Contains(ip)
}

// peerAddr is the IP address of r's immediate peer.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr(), true
}

// forwarded returns next behind the native strategy's rewriting: a
// request from a trusted proxy is rewritten from its X-Forwarded-*
// headers before anything else (dispatcher, access log, metrics,
// tracing) sees it. With none, next is returned as is.
func forwarded(next http.Handler, strategy string) http.Handler {
	if strategy != "native" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if peer, ok := peerAddr(r); ok && trustedProxy(peer) {
			r = rewriteForwarded(r)
		}
		next.ServeHTTP(w, r)
	})
}

// rewriteForwarded returns a copy of r as the client sent it to the
// proxy:
//
//   - X-Forwarded-For: the client is the right-most address not a
//     trusted proxy (proxies append the address they were reached from,
//     so entries left of it could be the client's own invention), as
//     Tomcat takes it; all trusted, the left-most.
//   - X-Forwarded-Proto https marks the request as over TLS: r.TLS is set
//     to an empty connection state when it was nil, so that every reader
//     of r.TLS (the actuator's links, the session cookie's Secure flag,
//     tracing's url.scheme) sees https; http clears it.
//   - X-Forwarded-Host replaces the Host, X-Forwarded-Port its port. A
//     forwarded scheme without a forwarded port means the scheme's
//     default port, as Tomcat takes it, so the service's own port is
//     dropped; a port that is the scheme's default is left out.
//
// Values that do not parse are ignored, header by header. With several
// values (a chain of proxies) the first is the client's for Proto, Host
// and Port.
func rewriteForwarded(r *http.Request) *http.Request {
	r = r.Clone(r.Context())
	if client, ok := forwardedFor(r.Header.Values("X-Forwarded-For")); ok {
		r.RemoteAddr = net.JoinHostPort(client.String(), "0")
	}
	scheme := ""
	switch strings.ToLower(first(r.Header.Get("X-Forwarded-Proto"))) {
	case "https":
		scheme = "https"
		if r.TLS == nil {
			r.TLS = &tls.ConnectionState{}
		}
	case "http":
		scheme = "http"
		r.TLS = nil
	}
	host := r.Host
	fwdHost := first(r.Header.Get("X-Forwarded-Host"))
	if validHost(fwdHost) {
		host = fwdHost
	}
	if p, err := strconv.Atoi(first(r.Header.Get("X-Forwarded-Port"))); err == nil && p > 0 && p <= 65535 {
		host = net.JoinHostPort(bareHost(host), strconv.Itoa(p))
	} else if scheme != "" && host == r.Host {
		host = hostname(host)
	}
	if scheme == "" {
		scheme = "http"
		if r.TLS != nil {
			scheme = "https"
		}
	}
	r.Host = withoutDefaultPort(host, scheme)
	r.URL.Scheme = scheme
	r.URL.Host = r.Host
	return r
}

// forwardedFor finds the client in X-Forwarded-For's lists.
func forwardedFor(values []string) (netip.Addr, bool) {
	var hops []netip.Addr
	for _, v := range values {
		for h := range strings.SplitSeq(v, ",") {
			ip, err := netip.ParseAddr(strings.TrimSpace(h))
			if err != nil {
				return netip.Addr{}, false // a list with garbage is not believed at all
			}
			hops = append(hops, ip.Unmap())
		}
	}
	if len(hops) == 0 {
		return netip.Addr{}, false
	}
	for i := len(hops) - 1; i >= 0; i-- {
		if !trustedProxy(hops[i]) {
			return hops[i], true
		}
	}
	return hops[0], true
}

// first is the first of a header's comma-separated values, trimmed.
func first(v string) string {
	v, _, _ = strings.Cut(v, ",")
	return strings.TrimSpace(v)
}

// validHost reports whether h is a host[:port] and nothing else, so that
// a forwarded host cannot smuggle a path or user into the links built
// from it.
func validHost(h string) bool {
	if h == "" || strings.ContainsAny(h, "/\\?#@ \t") {
		return false
	}
	u, err := url.Parse("http://" + h)
	return err == nil && u.Host == h && u.Path == "" && u.User == nil
}

// bareHost is host without its port, and without the brackets of an
// IPv6 address.
func bareHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// hostname is host without its port, brackets kept for IPv6.
func hostname(host string) string {
	h := bareHost(host)
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// withoutDefaultPort drops :443 from an https host and :80 from an http
// one, as a browser writes them.
func withoutDefaultPort(host, scheme string) string {
	if _, port, err := net.SplitHostPort(host); err == nil && (scheme == "https" && port == "443" || scheme == "http" && port == "80") {
		return hostname(host)
	}
	return host
}
