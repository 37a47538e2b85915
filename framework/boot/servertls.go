package boot

// TLS on server.port from PEM files, with Spring Boot 3.5's names:
// server.ssl.certificate and server.ssl.certificate-private-key (the
// server's certificate chain and key), server.ssl.trust-certificate (the
// CA that signs client certificates) and server.ssl.client-auth
// (none, want or need). Go's net/http offers HTTP/2 ("h2" by ALPN) on a
// TLS listener served by Server.ServeTLS by itself, as Spring does with
// server.http2.enabled; HTTP/1.1 stays available to clients without it.

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/springport/greeter/framework/config"
)

const (
	sslEnabled     = "server.ssl.enabled"
	sslCertificate = "server.ssl.certificate"
	sslPrivateKey  = "server.ssl.certificate-private-key"
	sslTrust       = "server.ssl.trust-certificate"
	sslClientAuth  = "server.ssl.client-auth"
)

// bindServerTLS reads the server.ssl settings into the TLS configuration
// of server.port, or nil for plain HTTP. As in Spring, TLS is on when a
// certificate is set unless server.ssl.enabled=false. The files are read
// now, so that a missing, unreadable or mismatched file stops start-up
// with the setting that names it; the key's content is never shown.
func bindServerTLS(b *config.Binder) *tls.Config {
	cert := config.Bind(b, sslCertificate, "", config.String)
	privateKey := config.Bind(b, sslPrivateKey, "", config.String)
	trust := config.Bind(b, sslTrust, "", config.String)
	clientAuth := config.Bind(b, sslClientAuth, "none", config.OneOf("none", "want", "need"))
	enabled := config.Bind(b, sslEnabled, cert != "", config.Bool)
	if !enabled {
		return nil
	}
	ok := true
	if cert == "" {
		b.Refuse(sslEnabled, "TLS needs the server's certificate: set "+sslCertificate+" and "+sslPrivateKey+" (PEM files)")
		ok = false
	} else if privateKey == "" {
		b.Refuse(sslCertificate, "the certificate needs its private key: set "+sslPrivateKey+" (a PEM file)")
		ok = false
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if clientAuth != "none" && trust == "" {
		b.Refuse(sslClientAuth, "client certificates are checked against a CA: set "+sslTrust+" (a PEM file)")
		ok = false
	}
	if trust != "" {
		if pem, read := readPEMFile(b, sslTrust, trust); !read {
			ok = false
		} else {
			cfg.ClientCAs = x509.NewCertPool()
			if !cfg.ClientCAs.AppendCertsFromPEM(pem) {
				b.Refuse(sslTrust, "the file holds no PEM certificate")
				ok = false
			}
		}
	}
	switch clientAuth {
	case "want":
		cfg.ClientAuth = tls.VerifyClientCertIfGiven
	case "need":
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	if !ok {
		return nil
	}
	certPEM, certRead := readPEMFile(b, sslCertificate, cert)
	keyPEM, keyRead := readPEMFile(b, sslPrivateKey, privateKey)
	if !certRead || !keyRead {
		return nil
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		// X509KeyPair's errors name what is wrong, never the key itself.
		b.Refuse(sslCertificate, "with "+sslPrivateKey+": "+err.Error())
		return nil
	}
	r := &certReloader{certPath: filePath(cert), keyPath: filePath(privateKey), cert: &pair, checked: time.Now()}
	r.certMod, r.keyMod = modTime(r.certPath), modTime(r.keyPath)
	cfg.GetCertificate = r.get
	return cfg
}

func filePath(setting string) string { return strings.TrimPrefix(setting, "file:") }

func modTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// reloadCheck is how often, at most, the files' modification times are
// looked at: a handshake does not stat two files every time.
const reloadCheck = time.Second

// certReloader serves the certificate read at start-up until its files
// change: then it reads them again, so that a renewed certificate (by
// cert-manager, certbot...) is served without a restart, as Spring Boot's
// server.ssl reload does. Files caught half-written, or a certificate
// that does not match its key, leave the previous certificate served; the
// next change is tried again.
type certReloader struct {
	certPath, keyPath string

	mu              sync.Mutex
	cert            *tls.Certificate
	certMod, keyMod time.Time
	checked         time.Time
}

func (r *certReloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.checked) < reloadCheck {
		return r.cert, nil
	}
	r.checked = time.Now()
	certMod, keyMod := modTime(r.certPath), modTime(r.keyPath)
	if certMod.Equal(r.certMod) && keyMod.Equal(r.keyMod) {
		return r.cert, nil
	}
	pair, err := tls.LoadX509KeyPair(r.certPath, r.keyPath)
	if err != nil {
		return r.cert, nil
	}
	r.cert, r.certMod, r.keyMod = &pair, certMod, keyMod
	return r.cert, nil
}
