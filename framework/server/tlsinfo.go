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

// Published is what the TLS of server.port and of a management port of
// its own publish, each once (a management port that takes server.ssl's
// shares it).
type Published struct {
	tlss      []*TLS
	threshold time.Duration
}

// Publish is what the ports of s and m publish, a certificate that ends
// within threshold being WILL_EXPIRE_SOON.
func Publish(s Settings, m Management, threshold time.Duration) Published {
	p := Published{threshold: threshold}
	for _, t := range []*TLS{s.TLS, m.TLS} {
		if t != nil && (t == s.TLS || m.OwnPort()) && !slices.Contains(p.tlss, t) {
			p.tlss = append(p.tlss, t)
		}
	}
	return p
}

// Serves reports whether a port serves TLS.
func (p Published) Serves() bool { return len(p.tlss) > 0 }

// Bundles describes the chains served now, one bundle per name (two
// ports serving one SSL bundle serve one chain); none without TLS.
func (p Published) Bundles() []ssl.BundleInfo {
	out := []ssl.BundleInfo{}
	now := time.Now()
	for _, t := range p.tlss {
		name, alias, chain := t.Served()
		if slices.ContainsFunc(out, func(b ssl.BundleInfo) bool { return b.Name == name }) {
			continue
		}
		out = append(out, ssl.BundleInfo{Name: name, CertificateChains: []ssl.ChainInfo{ssl.DescribeChain(alias, chain, now, p.threshold)}})
	}
	return out
}

// HandshakeFailures are the failed handshakes of the ports together, by
// reason.
func (p Published) HandshakeFailures() map[string]uint64 {
	out := map[string]uint64{}
	for _, t := range p.tlss {
		for r, n := range t.HandshakeFailures() {
			out[r] += n
		}
	}
	return out
}
