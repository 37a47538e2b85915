package server

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
	"github.com/springport/greeter/framework/dispatch"
)

// forwardStrategyKey is Spring Boot's server.forward-headers-strategy:
// whether the headers a reverse proxy (a load balancer, an ingress) adds
// say how the client reached the service. Behind a proxy that ends TLS,
// the service sees plain HTTP from the proxy's address; without them the
// actuator's absolute links, the recent exchanges' URIs and the session
// cookie's Secure flag would name the proxy's hop, not the client's.
//
//   - none, the default as in Spring off a cloud platform: the headers
//     are ignored, as any client may send them.
//   - native, as with Tomcat's RemoteIpValve that Spring switches on for
//     it: from a trusted proxy (below), X-Forwarded-Proto, -Host, -Port
//     and -For replace the scheme, host, port and client address.
//   - framework, as Spring's ForwardedHeaderFilter: the same, from
//     RFC 7239's Forwarded header when there is one (forwardedheader.go),
//     with X-Forwarded-Ssl and X-Forwarded-Prefix, the path the proxy
//     serves the service under, put in front of links and redirects in
//     place of the context path. Spring's filter believes any peer; here,
//     as with native, only a trusted proxy is believed, and the headers
//     of any other are ignored.
const forwardStrategyKey = "server.forward-headers-strategy"

// forwardStrategy parses server.forward-headers-strategy.
func forwardStrategy(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "none", "native", "framework":
		return v, nil
	}
	return "", errors.New("want native, framework or none")
}

// bindForwardStrategy reads server.forward-headers-strategy.
func bindForwardStrategy(b *config.Binder) string {
	return config.Bind(b, forwardStrategyKey, "none", forwardStrategy, "native: from a loopback or private-address proxy, X-Forwarded-Proto, -Host, -Port and -For give the scheme, host, port and client address; framework: also RFC 7239 Forwarded, X-Forwarded-Ssl and X-Forwarded-Prefix (links start with it in place of the context path), from the same proxies; none: they are ignored")
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

// forwarded returns next behind the strategy's rewriting: a request
// from a trusted proxy is rewritten from its headers before anything else
// (dispatcher, access log, metrics, tracing) sees it. With none, next is
// returned as is.
func forwarded(next http.Handler, strategy string) http.Handler {
	var rewrite func(*http.Request) *http.Request
	switch strategy {
	case "native":
		rewrite = func(r *http.Request) *http.Request { return rewriteForwarded(r, xForwarded(r.Header)) }
	case "framework":
		rewrite = rewriteFramework
	default:
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if peer, ok := peerAddr(r); ok && trustedProxy(peer) {
			r = rewrite(r)
		}
		next.ServeHTTP(w, r)
	})
}

// forwardedHop is what a proxy says of the request the client sent it,
// each field "" when it says nothing of it.
type forwardedHop struct {
	proto, host, port string
	// chain lists the addresses the request came through, the client's
	// first, as X-Forwarded-For values: comma-separated.
	chain []string
}

// xForwarded reads the X-Forwarded-* headers. With several values (a
// chain of proxies) the first is the client's for Proto, Host and Port.
func xForwarded(h http.Header) forwardedHop {
	return forwardedHop{
		proto: first(h.Get("X-Forwarded-Proto")),
		host:  first(h.Get("X-Forwarded-Host")),
		port:  first(h.Get("X-Forwarded-Port")),
		chain: h.Values("X-Forwarded-For"),
	}
}

// rewriteForwarded returns a copy of r as the client sent it to the
// proxy, as hop tells it:
//
//   - the client is the right-most address of the chain that is not a
//     trusted proxy (proxies append the address they were reached from,
//     so entries left of it could be the client's own invention), as
//     Tomcat takes it; all trusted, the left-most.
//   - proto https marks the request as over TLS: r.TLS is set to an
//     empty connection state when it was nil, so that every reader of
//     r.TLS (the actuator's links, the session cookie's Secure flag,
//     tracing's url.scheme) sees https; http clears it.
//   - host replaces the Host, port its port. A forwarded scheme without
//     a forwarded port means the scheme's default port, as Tomcat takes
//     it, so the service's own port is dropped; a port that is the
//     scheme's default is left out.
//
// Values that do not parse are ignored, one by one.
func rewriteForwarded(r *http.Request, hop forwardedHop) *http.Request {
	ctx := r.Context()
	client, named := forwardedFor(hop.chain)
	if named {
		// The proxy stays known as the connection's peer (tracing's
		// network.peer.address).
		ctx = dispatch.WithSocketPeer(ctx, r.RemoteAddr)
	}
	r = r.Clone(ctx)
	if named {
		r.RemoteAddr = net.JoinHostPort(client.String(), "0")
	}
	scheme := ""
	switch strings.ToLower(hop.proto) {
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
	if validHost(hop.host) {
		host = hop.host
	}
	if p, err := strconv.Atoi(hop.port); err == nil && p > 0 && p <= 65535 {
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
