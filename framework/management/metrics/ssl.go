package metrics

import (
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// SSLChain is one certificate chain a port serves, as Spring Boot's
// SslMeterBinder reports it: the bundle it comes from, the alias of its
// key, the serial number of its certificate that expires first, that
// certificate's seconds left (negative once expired), and the chain's
// status (VALID, WILL_EXPIRE_SOON, NOT_YET_VALID or EXPIRED).
type SSLChain struct {
	Bundle, Chain, Certificate string
	ExpirySeconds              float64
	Status                     string
}

// SSL reports the served chains under the names of Spring Boot's
// SslMeterBinder: ssl.chain.expiry (a time gauge in seconds, tagged
// bundle, chain and certificate), which Micrometer's Prometheus registry
// writes as ssl_chain_expiry_seconds; and ssl.chains, the chains by
// status (valid, expired, not-yet-valid, will-expire-soon), as Boot 3.5
// has it (Boot 4 dropped it). chains is read once per scrape, so that a
// reloaded certificate replaces the one it replaced.
func (m *HTTP) SSL(chains func() []SSLChain) {
	m.registerer.MustRegister(sslCollector(chains))
}

var (
	sslChainExpiry = prometheus.NewDesc("ssl_chain_expiry_seconds", "SSL chain expiry", []string{"bundle", "certificate", "chain"}, nil)
	sslChains      = prometheus.NewDesc("ssl_chains", "SSL chains by status", []string{"status"}, nil)
)

// sslStatuses are ssl.chains' status tags, for the statuses of SslInfo.
var sslStatuses = []string{"VALID", "EXPIRED", "NOT_YET_VALID", "WILL_EXPIRE_SOON"}

type sslCollector func() []SSLChain

func (sslCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- sslChainExpiry
	ch <- sslChains
}

func (read sslCollector) Collect(ch chan<- prometheus.Metric) {
	counts := make([]int, len(sslStatuses))
	for _, c := range read() {
		ch <- prometheus.MustNewConstMetric(sslChainExpiry, prometheus.GaugeValue, c.ExpirySeconds, c.Bundle, c.Certificate, c.Chain)
		if i := slices.Index(sslStatuses, c.Status); i >= 0 {
			counts[i]++
		}
	}
	for i, s := range sslStatuses {
		// Spring's tag values: valid, expired, not-yet-valid, will-expire-soon.
		tag := strings.ReplaceAll(strings.ToLower(s), "_", "-")
		ch <- prometheus.MustNewConstMetric(sslChains, prometheus.GaugeValue, float64(counts[i]), tag)
	}
}

// TLSHandshakeFailures reports the TLS handshakes that failed, by
// reason, read once per scrape: tls.handshake.failures, written
// tls_handshake_failures_total. Micrometer has no such meter for Tomcat
// (Jetty's jetty.ssl.handshakes counts by result, protocol and suite,
// which a failed handshake has not), so the name is the framework's own.
// reasons lists every reason, so that each series is there from the
// start.
func (m *HTTP) TLSHandshakeFailures(reasons []string, failures func() map[string]uint64) {
	m.registerer.MustRegister(handshakeCollector{reasons: reasons, read: failures})
}

var tlsHandshakeFailures = prometheus.NewDesc("tls_handshake_failures_total", "TLS handshakes that failed, by reason.", []string{"reason"}, nil)

type handshakeCollector struct {
	reasons []string
	read    func() map[string]uint64
}

func (handshakeCollector) Describe(ch chan<- *prometheus.Desc) { ch <- tlsHandshakeFailures }

func (c handshakeCollector) Collect(ch chan<- prometheus.Metric) {
	counts := c.read()
	for _, r := range c.reasons {
		ch <- prometheus.MustNewConstMetric(tlsHandshakeFailures, prometheus.CounterValue, float64(counts[r]), r)
	}
}
