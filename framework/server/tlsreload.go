package server

// A port's TLS served from PEM files that may change under it: a
// certificate renewed by cert-manager or certbot, a CA bundle rotated to
// trust a new client CA. Spring Boot's SSL reload picks such changes up
// without a restart; so does TLS. At most once a reloadCheck, a
// handshake looks at the files' modification times; when one changed,
// its file is read again, and the handshakes after that are made with
// what it holds. Files caught half-written, a certificate that does not
// match its key, or a trust file without a certificate leave what was
// served before in place, and are tried again at the next check.

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"
	"sync"
	"time"
)

// reloadCheck is how often, at most, the files' modification times are
// looked at: a handshake does not stat three files every time.
const reloadCheck = time.Second

// TLS is one port's TLS configuration and the files it comes from:
// what server.ssl.* (or management.server.ssl.*) names, re-read when the
// files change.
type TLS struct {
	certPath, keyPath string
	trustPath         string // "" without client certificates to check
	clientAuth        tls.ClientAuthType

	mu                        sync.Mutex
	current                   *tls.Config // for the next handshake, without NextProtos
	certMod, keyMod, trustMod time.Time
	checked                   time.Time
}

// newTLSFiles starts from the files' content as read at start-up: the
// certificate and key in PEM, and the pool of CAs read from trustPath.
// clientAuth is none, want or need. The error is X509KeyPair's, when the
// certificate and key do not make a pair.
func newTLSFiles(certPath, keyPath, trustPath, clientAuth string, certPEM, keyPEM []byte, clientCAs *x509.CertPool) (*TLS, error) {
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	f := &TLS{certPath: certPath, keyPath: keyPath, trustPath: trustPath, checked: time.Now()}
	switch clientAuth {
	case "want":
		f.clientAuth = tls.VerifyClientCertIfGiven
	case "need":
		f.clientAuth = tls.RequireAndVerifyClientCert
	}
	f.certMod, f.keyMod = modTime(certPath), modTime(keyPath)
	if trustPath != "" {
		f.trustMod = modTime(trustPath)
	}
	f.current = f.build(&pair, clientCAs)
	return f, nil
}

func (f *TLS) build(cert *tls.Certificate, clientCAs *x509.CertPool) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{*cert},
		ClientAuth: f.clientAuth, ClientCAs: clientCAs}
}

// config is the http.Server's TLS configuration: each handshake gets
// the files' latest content. nextProtos are the protocols ALPN offers
// (h2 and http/1.1, or http/1.1 alone): a configuration returned for a
// handshake is taken whole, so it must say them itself.
func (f *TLS) config(nextProtos []string) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
		c := f.latest().Clone()
		c.NextProtos = nextProtos
		return c, nil
	}}
}

// latest returns the configuration of the files' latest readable
// content.
func (f *TLS) latest() *tls.Config {
	f.mu.Lock()
	defer f.mu.Unlock()
	if time.Since(f.checked) < reloadCheck {
		return f.current
	}
	f.checked = time.Now()
	cert, clientCAs, changed := &f.current.Certificates[0], f.current.ClientCAs, false
	if certMod, keyMod := modTime(f.certPath), modTime(f.keyPath); !certMod.Equal(f.certMod) || !keyMod.Equal(f.keyMod) {
		if pair, err := tls.LoadX509KeyPair(f.certPath, f.keyPath); err == nil {
			cert, f.certMod, f.keyMod, changed = &pair, certMod, keyMod, true
		}
	}
	if f.trustPath != "" {
		if trustMod := modTime(f.trustPath); !trustMod.Equal(f.trustMod) {
			if pem, err := os.ReadFile(f.trustPath); err == nil {
				if pool := x509.NewCertPool(); pool.AppendCertsFromPEM(pem) {
					clientCAs, f.trustMod, changed = pool, trustMod, true
				}
			}
		}
	}
	if changed {
		f.current = f.build(cert, clientCAs)
	}
	return f.current
}

func filePath(setting string) string { return strings.TrimPrefix(setting, "file:") }

func modTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
