package boot

// What the ports' TLS publishes: the served chains for the ssl health
// component and /actuator/info (Spring's SslInfo), their expiry and
// statuses as Spring's SslMeterBinder's gauges, and the failed
// handshakes by reason.

import (
	"time"

	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/server"
	"github.com/springport/greeter/framework/ssl"
)

// servedTLS is the TLS of the ports, each once; none without TLS.
func (a *App) servedTLS() []*server.TLS {
	return server.ServedTLS(a.settings.server, a.settings.management.server)
}

// sslBundles describes the chains the ports serve now.
func (a *App) sslBundles() []ssl.BundleInfo {
	return server.SSLInfo(a.servedTLS(), time.Now(), a.settings.management.actuator.SSL.Threshold)
}

// reportTLS adds the meters of the ports' TLS, when a port serves it:
// tls.handshake.failures, ssl.chain.expiry and ssl.chains. A service
// without TLS has none of them, as Spring Boot 4 has no ssl.chains and
// no chain to give ssl.chain.expiry.
func (a *App) reportTLS() {
	tlss := a.servedTLS()
	if len(tlss) == 0 {
		return
	}
	a.metrics.TLSHandshakeFailures(server.HandshakeReasons, func() map[string]uint64 { return server.HandshakeFailures(tlss) })
	a.metrics.SSL(func() []metrics.SSLChain {
		now := time.Now()
		var chains []metrics.SSLChain
		for _, b := range server.SSLInfo(tlss, now, a.settings.management.actuator.SSL.Threshold) {
			for _, c := range b.CertificateChains {
				soonest, ok := c.Soonest()
				if !ok {
					continue
				}
				chains = append(chains, metrics.SSLChain{Bundle: b.Name, Chain: c.Alias, Certificate: soonest.SerialNumber,
					ExpirySeconds: float64(soonest.ValidityEnds.Sub(now).Truncate(time.Second) / time.Second), Status: c.Status()})
			}
		}
		return chains
	})
}
