package server

// What the ports serve, for the ssl health component, /actuator/info's
// ssl section and the ssl.chain.expiry gauge: each port's chain, as it
// is served now (a reloaded certificate replaces the one before), and
// the handshakes that failed.

import (
	"slices"
	"time"

	"github.com/springport/greeter/framework/ssl"
)

// ServedTLS is the TLS of server.port and of a management port of its
// own, each once (a management port that takes server.ssl's shares it);
// none for plain HTTP.
func ServedTLS(s Settings, m Management) []*TLS {
	var out []*TLS
	for _, t := range []*TLS{s.TLS, m.TLS} {
		if t != nil && (t == s.TLS || m.OwnPort()) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// SSLInfo describes the chains that tlss serve at now, a certificate
// ending within threshold being WILL_EXPIRE_SOON, one bundle per name
// (two ports serving one SSL bundle serve one chain).
func SSLInfo(tlss []*TLS, now time.Time, threshold time.Duration) []ssl.BundleInfo {
	var out []ssl.BundleInfo
	for _, t := range tlss {
		name, alias, chain := t.Served()
		if slices.ContainsFunc(out, func(b ssl.BundleInfo) bool { return b.Name == name }) {
			continue
		}
		out = append(out, ssl.BundleInfo{Name: name, CertificateChains: []ssl.ChainInfo{ssl.DescribeChain(alias, chain, now, threshold)}})
	}
	return out
}

// HandshakeFailures are the failed handshakes of tlss together, by
// reason.
func HandshakeFailures(tlss []*TLS) map[string]uint64 {
	out := map[string]uint64{}
	for _, t := range tlss {
		for r, n := range t.HandshakeFailures() {
			out[r] += n
		}
	}
	return out
}
