package metrics

import (
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/framework/ssl"
)

// TLS reports the ports' TLS: the handshakes that failed, by reason
// (every one of reasons), and the served chains under the names of
// Spring Boot's SslMeterBinder: ssl.chain.expiry (a time gauge in
// seconds, tagged bundle, chain and certificate: the serial number of
// the chain's certificate that expires first), which Micrometer's
// Prometheus registry writes as ssl_chain_expiry_seconds; and
// ssl.chains, the chains by status (valid, expired, not-yet-valid,
// will-expire-soon), as Boot 3.5 has it (Boot 4 dropped it). Both are
// read once per scrape, so that a reloaded certificate replaces the one
// it replaced.
func (m *HTTP) TLS(reasons []string, failures func() map[string]uint64, bundles func() []ssl.BundleInfo) {
	m.registerer.MustRegister(handshakeCollector{reasons: reasons, read: failures}, sslCollector(bundles))
}

var (
	sslChainExpiry = prometheus.NewDesc("ssl_chain_expiry_seconds", "SSL chain expiry", []string{"bundle", "certificate", "chain"}, nil)
	sslChains      = prometheus.NewDesc("ssl_chains", "SSL chains by status", []string{"status"}, nil)
)

// sslStatuses are ssl.chains' status tags, for the statuses of SslInfo.
var sslStatuses = []string{ssl.Valid, ssl.Expired, ssl.NotYetValid, ssl.WillExpireSoon}

type sslCollector func() []ssl.BundleInfo

func (sslCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- sslChainExpiry
	ch <- sslChains
}

func (read sslCollector) Collect(ch chan<- prometheus.Metric) {
	counts := make([]int, len(sslStatuses))
	now := time.Now()
	for _, b := range read() {
		for _, c := range b.CertificateChains {
			soonest, ok := c.Soonest()
			if !ok {
				continue
			}
			// Whole seconds, as Spring's Duration.get(SECONDS).
			left := float64(soonest.ValidityEnds.Sub(now).Truncate(time.Second) / time.Second)
			ch <- prometheus.MustNewConstMetric(sslChainExpiry, prometheus.GaugeValue, left, b.Name, soonest.SerialNumber, c.Alias)
			if i := slices.Index(sslStatuses, c.Status()); i >= 0 {
				counts[i]++
			}
		}
	}
	for i, s := range sslStatuses {
		// Spring's tag values: valid, expired, not-yet-valid, will-expire-soon.
		tag := strings.ReplaceAll(strings.ToLower(s), "_", "-")
		ch <- prometheus.MustNewConstMetric(sslChains, prometheus.GaugeValue, float64(counts[i]), tag)
	}
}

// tlsHandshakeFailures is tls.handshake.failures. Micrometer has no such
// meter for Tomcat (Jetty's jetty.ssl.handshakes counts by result,
// protocol and suite, which a failed handshake has not), so the name is
// the framework's own; every reason is written, so that each series is
// there from the start.
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
