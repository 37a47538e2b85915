package actuator

// The certificates the ports serve, as Spring Boot's SslHealthIndicator
// and SslInfoContributor report them: an ssl health component, UP while
// every chain is valid (a certificate within
// management.health.ssl.certificate-validity-warning-threshold of its
// end is WILL_EXPIRE_SOON in its own validity, and still valid), and
// OUT_OF_SERVICE with the chains under invalidChains once a certificate
// has expired or is not yet valid; and, with management.info.ssl.enabled,
// the same chains in /actuator/info under ssl. As in Spring, the
// component is there without TLS too, UP with no chains; it is in the
// root report, never in readiness: a certificate about to expire does
// not take an instance out of a load balancer.

import (
	"context"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/ssl"
)

// SSL is what the ssl health component and info section report.
type SSL struct {
	// Bundles describes the chains served now; nil serves none.
	Bundles func() []ssl.BundleInfo
	// Health is management.health.ssl.enabled: the ssl component.
	Health bool
	// Info is management.info.ssl.enabled: /actuator/info's ssl.
	Info bool
}

// SSLSettings are management.health.ssl.* and management.info.ssl.enabled.
type SSLSettings struct {
	Health    bool
	Threshold time.Duration // a certificate ending within it is WILL_EXPIRE_SOON
	Info      bool
}

// defaultValidityThreshold is Spring's
// certificate-validity-warning-threshold: 14 days.
const defaultValidityThreshold = 14 * 24 * time.Hour

func bindSSL(b *config.Binder) SSLSettings {
	return SSLSettings{
		Health: config.Bind(b, "management.health.ssl.enabled", true, config.Bool, "the ssl health component: the served certificate chains, OUT_OF_SERVICE once one has expired or is not yet valid"),
		Threshold: config.Bind(b, "management.health.ssl.certificate-validity-warning-threshold", defaultValidityThreshold, config.Duration,
			"a served certificate that ends within this is WILL_EXPIRE_SOON (in the ssl health component, /actuator/info and ssl_chains)"),
		Info: config.Bind(b, "management.info.ssl.enabled", false, config.Bool, "shows the served certificate chains in /actuator/info under ssl, as Spring's SslInfoContributor (off by default there too)"),
	}
}

// sslName is the ssl health component's name.
const sslName = "ssl"

// health reports the chains: validChains, invalidChains and, as
// Spring Boot 4 adds, expiringChains (the valid ones with a certificate
// that will expire soon).
func (s SSL) health(context.Context) health {
	valid, invalid, expiring := []ssl.ChainInfo{}, []ssl.ChainInfo{}, []ssl.ChainInfo{}
	for _, b := range s.Bundles() {
		for _, c := range b.CertificateChains {
			switch {
			case !c.Valid() && len(c.Certificates) > 0:
				invalid = append(invalid, c)
			case c.Status() == ssl.WillExpireSoon:
				valid, expiring = append(valid, c), append(expiring, c)
			default:
				valid = append(valid, c)
			}
		}
	}
	status := statusUp
	if len(invalid) > 0 {
		status = statusOutOfService
	}
	return health{Status: status, Details: map[string]any{"validChains": valid, "invalidChains": invalid, "expiringChains": expiring}}
}

// withSSL adds the ssl section to /actuator/info's, read at each
// request, as the chains change when a certificate is reloaded.
func (s SSL) withSSL(handle func(*dispatch.Request) (map[string]any, error)) func(*dispatch.Request) (map[string]any, error) {
	if !s.Info || s.Bundles == nil {
		return handle
	}
	return func(r *dispatch.Request) (map[string]any, error) {
		fixed, err := handle(r)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, len(fixed)+1)
		for k, v := range fixed {
			out[k] = v
		}
		bundles := s.Bundles()
		if bundles == nil {
			bundles = []ssl.BundleInfo{}
		}
		out[sslName] = map[string]any{"bundles": bundles}
		return out, nil
	}
}
