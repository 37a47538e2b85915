package server

import (
	"slices"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
)

// managementSSL are management.server.ssl.*: as server.ssl.*, for a
// management port of its own.
var managementSSL = sslKeys{prefix: "management.server.ssl.", meanings: managementSSLMeanings()}

func managementSSLMeanings() map[string]string {
	m := map[string]string{}
	for _, name := range sslNames {
		m[name] = "as server.ssl." + name + ", for management.server.port of its own"
	}
	m[sslEnabled] = "HTTPS on management.server.port of its own; while no management.server.ssl.* is set, the port takes server.ssl's TLS; false: plain HTTP"
	return m
}

// Management is management.server.*: a port of its own for the
// management endpoints, where it listens, and its TLS.
type Management struct {
	Port    int    // a port of its own; -1 when the endpoints share server.port
	Address string // the interface Port listens on: server.address unless set
	// TLS is Port's TLS: server.port's unless management.server.ssl.*
	// says otherwise.
	TLS *TLS
}

// OwnPort reports whether the management endpoints have a port of their
// own, apart from the service's.
func (m Management) OwnPort() bool { return m.Port >= 0 }

// BindManagement reads management.server.port, .address and .ssl.*. As
// in Spring, the management port listens where the service's does unless
// told otherwise; set to server.port, it is shared.
func BindManagement(b *config.Binder, s Settings) Management {
	m := Management{
		Port:    config.Bind(b, "management.server.port", -1, config.Port, "a separate port for /actuator (-1: the service's)"),
		Address: config.Bind(b, "management.server.address", s.Address, ListenAddress, "the network address management.server.port listens on, when it has a port of its own; none: as server.address"),
	}
	if m.Port == s.Port && s.Port != 0 {
		m.Port = -1 // the same port: shared
	}
	m.TLS = bindManagementTLS(b, s.TLS, m.OwnPort())
	refuseUnservedTLS(b, "management.server.ssl.")
	return m
}

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
func bindManagementTLS(b *config.Binder, server *TLS, ownPort bool) *TLS {
	s := bindSSL(b, managementSSL)
	if !ownPort {
		return nil
	}
	if !slices.ContainsFunc(managementSSL.all(), b.IsSet) {
		return server
	}
	return s.load(b)
}

// TLSWarnings are what the TLS settings of server.port and of a
// management port of its own ask that is not done, for the start-up log.
func TLSWarnings(s Settings, m Management) []ssl.Warning {
	w := s.TLS.Warnings()
	if m.OwnPort() && m.TLS != s.TLS {
		w = append(w, m.TLS.Warnings()...)
	}
	return w
}
