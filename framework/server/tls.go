package server

// TLS on a port from PEM files, with Spring Boot 3.5's names:
// server.ssl.certificate and server.ssl.certificate-private-key (the
// server's certificate chain and key), server.ssl.trust-certificate (the
// CA that signs client certificates) and server.ssl.client-auth
// (none, want or need); management.server.ssl.* the same for a management
// port of its own (management.go). The files are read again when they
// change (tlsreload.go). Whether HTTP/2 is offered by ALPN is
// server.http2.enabled's to say (http2.go).

import (
	"crypto/x509"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
)

// sslKeys are the names of one port's TLS settings, with their
// meanings.
type sslKeys struct {
	enabled, certificate, privateKey, trust, clientAuth string
	meanings                                            map[string]string
}

// sslKeysUnder names the TLS settings under prefix, as Spring's Ssl
// properties are bound under server.ssl and management.server.ssl.
func sslKeysUnder(prefix string, meanings map[string]string) sslKeys {
	k := sslKeys{
		enabled:     prefix + "enabled",
		certificate: prefix + "certificate",
		privateKey:  prefix + "certificate-private-key",
		trust:       prefix + "trust-certificate",
		clientAuth:  prefix + "client-auth",
	}
	k.meanings = map[string]string{}
	for name, m := range meanings {
		k.meanings[prefix+name] = m
	}
	return k
}

// all lists the keys, for checking whether any is set.
func (k sslKeys) all() []string {
	return []string{k.enabled, k.certificate, k.privateKey, k.trust, k.clientAuth}
}

var serverSSL = sslKeysUnder("server.ssl.", map[string]string{
	"enabled":                 "HTTPS on server.port; on when server.ssl.certificate is set",
	"certificate":             "the server's certificate chain, a PEM file (file:path too); re-read when it changes",
	"certificate-private-key": "the private key of server.ssl.certificate, a PEM file (file:path too); re-read when it changes",
	"trust-certificate":       "the CA (PEM file) that client certificates must be signed by, for server.ssl.client-auth; re-read when it changes",
	"client-auth":             "none; want: a client certificate is checked if given; need: a client without one is refused",
})

// sslSettings are one port's TLS settings as bound, before any file is
// read.
type sslSettings struct {
	keys                           sslKeys
	enabled                        bool
	certificate, privateKey, trust string
	clientAuth                     string // none, want or need
}

// bindSSL binds the TLS settings that keys name. As in Spring, TLS is on
// when a certificate is set unless <prefix>.enabled=false.
func bindSSL(b *config.Binder, keys sslKeys) sslSettings {
	s := sslSettings{keys: keys}
	m := keys.meanings
	s.certificate = config.Bind(b, keys.certificate, "", config.String, m[keys.certificate])
	s.privateKey = config.Bind(b, keys.privateKey, "", config.String, m[keys.privateKey])
	s.trust = config.Bind(b, keys.trust, "", config.String, m[keys.trust])
	s.clientAuth = config.Bind(b, keys.clientAuth, "none", config.OneOf("none", "want", "need"), m[keys.clientAuth])
	s.enabled = config.Bind(b, keys.enabled, s.certificate != "", config.Bool, m[keys.enabled])
	return s
}

// load reads the files s names, or returns nil when TLS is off. They are
// read now, so that a missing, unreadable or mismatched file stops
// start-up with the setting that names it; the key's content is never
// shown. nil is returned too when a setting is refused.
func (s sslSettings) load(b *config.Binder) *TLS {
	if !s.enabled {
		return nil
	}
	k := s.keys
	ok := true
	if s.certificate == "" {
		b.Refuse(k.enabled, "TLS needs the server's certificate: set "+k.certificate+" and "+k.privateKey+" (PEM files)")
		ok = false
	} else if s.privateKey == "" {
		b.Refuse(k.certificate, "the certificate needs its private key: set "+k.privateKey+" (a PEM file)")
		ok = false
	}
	if s.clientAuth != "none" && s.trust == "" {
		b.Refuse(k.clientAuth, "client certificates are checked against a CA: set "+k.trust+" (a PEM file)")
		ok = false
	}
	var clientCAs *x509.CertPool
	if s.trust != "" {
		if pem, read := ssl.ReadPEMFile(b, k.trust, s.trust); !read {
			ok = false
		} else if clientCAs = x509.NewCertPool(); !clientCAs.AppendCertsFromPEM(pem) {
			b.Refuse(k.trust, "the file holds no PEM certificate")
			ok = false
		}
	}
	if !ok {
		return nil
	}
	certPEM, certRead := ssl.ReadPEMFile(b, k.certificate, s.certificate)
	keyPEM, keyRead := ssl.ReadPEMFile(b, k.privateKey, s.privateKey)
	if !certRead || !keyRead {
		return nil
	}
	f, err := newTLSFiles(filePath(s.certificate), filePath(s.privateKey), filePath(s.trust), s.clientAuth, certPEM, keyPEM, clientCAs)
	if err != nil {
		// X509KeyPair's errors name what is wrong, never the key itself.
		b.Refuse(k.certificate, "with "+k.privateKey+": "+err.Error())
		return nil
	}
	return f
}
