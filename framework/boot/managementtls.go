package boot

import (
	"slices"

	"github.com/springport/greeter/framework/config"
)

var managementSSL = sslKeysUnder("management.server.ssl.")

// bindManagementTLS reads management.server.ssl.*, the TLS of a
// management port of its own. As in Spring Boot, whose management server
// is customised as the service's and then given management.server.ssl
// only when that is bound (ManagementWebServerFactoryCustomizer), the
// port takes server.ssl's TLS while none of management.server.ssl.* is
// set; once one is, the management port's TLS comes from them alone,
// nothing inherited: management.server.ssl.enabled=false serves it over
// plain HTTP beside a service on HTTPS. Sharing server.port, the
// management endpoints are served as the service is, and the settings
// are bound (for --help) but not used.
func bindManagementTLS(b *config.Binder, env *config.Environment, server *tlsFiles, ownPort bool) *tlsFiles {
	s := bindSSL(b, managementSSL)
	if !ownPort {
		return nil
	}
	if !slices.ContainsFunc(managementSSL.all(), func(key string) bool { return isSet(env, key) }) {
		return server
	}
	return s.load(b)
}
