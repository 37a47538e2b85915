package boot

// TLS on a port from PEM files, with Spring Boot 3.5's names:
// server.ssl.certificate and server.ssl.certificate-private-key (the
// server's certificate chain and key), server.ssl.trust-certificate (the
// CA that signs client certificates) and server.ssl.client-auth
// (none, want or need); management.server.ssl.* the same for a management
// port of its own (managementtls.go). The files are read again when they
// change (tlsreload.go). Whether HTTP/2 is offered by ALPN is
// server.http2.enabled's to say (http2.go).

import (
	"crypto/x509"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
)

// sslKeys are the names of one port's TLS settings.
type sslKeys struct {
	enabled, certificate, privateKey, trust, clientAuth string
}

// sslKeysUnder names the TLS settings under prefix, as Spring's Ssl
// properties are bound under server.ssl and management.server.ssl.
func sslKeysUnder(prefix string) sslKeys {
	return sslKeys{
		enabled:     prefix + "enabled",
		certificate: prefix + "certificate",
		privateKey:  prefix + "certificate-private-key",
		trust:       prefix + "trust-certificate",
		clientAuth:  prefix + "client-auth",
	}
}

// all lists the keys, for checking whether any is set.
func (k sslKeys) all() []string {
	return []string{k.enabled, k.certificate, k.privateKey, k.trust, k.clientAuth}
}

var serverSSL = sslKeysUnder("server.ssl.")

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
	s.certificate = config.Bind(b, keys.certificate, "", config.String)
	s.privateKey = config.Bind(b, keys.privateKey, "", config.String)
	s.trust = config.Bind(b, keys.trust, "", config.String)
	s.clientAuth = config.Bind(b, keys.clientAuth, "none", config.OneOf("none", "want", "need"))
	s.enabled = config.Bind(b, keys.enabled, s.certificate != "", config.Bool)
	return s
}

// bindServerTLS reads the server.ssl settings into the TLS of
// server.port, or nil for plain HTTP.
func bindServerTLS(b *config.Binder) *tlsFiles {
	return bindSSL(b, serverSSL).load(b)
}

// load reads the files s names, or returns nil when TLS is off. They are
// read now, so that a missing, unreadable or mismatched file stops
// start-up with the setting that names it; the key's content is never
// shown. nil is returned too when a setting is refused.
func (s sslSettings) load(b *config.Binder) *tlsFiles {
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
