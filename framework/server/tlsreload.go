package server

// A port's TLS served from files that may change under it: a
// certificate renewed by cert-manager or certbot, a key store replaced, a
// CA bundle rotated to trust a new client CA. Spring Boot's SSL reload
// (a bundle's reload-on-update) picks such changes up without a restart;
// so does TLS, for server.ssl's own files always, for a bundle's when
// its reload-on-update is true. At most once a reloadCheck, a handshake
// looks at the files' modification times; when one changed, the stores
// are read again, and the handshakes after that are made with what they
// hold. Files caught half-written, a certificate that does not match its
// key, a store that its password no longer opens, or a trust file
// without a certificate leave what was served before in place, and are
// tried again at the next check.

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/springport/greeter/framework/ssl"
)

// reloadCheck is how often, at most, the files' modification times are
// looked at: a handshake does not stat the files every time.
const reloadCheck = time.Second

// TLS is one port's TLS configuration and the stores it comes from:
// what server.ssl.* (or management.server.ssl.*) names, re-read when the
// files change.
type TLS struct {
	stores     *ssl.Stores
	files      []string // watched; none when the stores are read once
	clientAuth tls.ClientAuthType
	options    ssl.Options

	mu      sync.Mutex
	current *tls.Config // for the next handshake, without NextProtos
	mods    []time.Time // of files, when current was read
	checked time.Time
}

// newTLS starts from the stores as read at start-up: the server's
// certificate, and the CAs of client certificates (nil without a trust
// store). clientAuth is none, want or need.
func newTLS(stores *ssl.Stores, clientAuth string, cert *tls.Certificate, trusted []*x509.Certificate, options ssl.Options) *TLS {
	f := &TLS{stores: stores, files: stores.Files(), options: options, checked: time.Now()}
	switch clientAuth {
	case "want":
		f.clientAuth = tls.VerifyClientCertIfGiven
	case "need":
		f.clientAuth = tls.RequireAndVerifyClientCert
	}
	f.mods = modTimes(f.files)
	f.current = f.build(cert, trusted)
	return f
}

func (f *TLS) build(cert *tls.Certificate, trusted []*x509.Certificate) *tls.Config {
	c := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{*cert},
		ClientAuth: f.clientAuth, ClientCAs: ssl.Pool(trusted)}
	f.options.Apply(c)
	return c
}

// Warnings are what the port's TLS settings ask that is not done, for
// the start-up log.
func (f *TLS) Warnings() []ssl.Warning {
	if f == nil {
		return nil
	}
	return f.options.Warnings
}

// config is the http.Server's TLS configuration: each handshake gets
// the stores' latest content. nextProtos are the protocols ALPN offers
// (h2 and http/1.1, or http/1.1 alone): a configuration returned for a
// handshake is taken whole, so it must say them itself.
func (f *TLS) config(nextProtos []string) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
		c := f.latest().Clone()
		c.NextProtos = nextProtos
		return c, nil
	}}
}

// latest returns the configuration of the stores' latest readable
// content.
func (f *TLS) latest() *tls.Config {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.files) == 0 || time.Since(f.checked) < reloadCheck {
		return f.current
	}
	f.checked = time.Now()
	mods := modTimes(f.files)
	if slices.EqualFunc(mods, f.mods, time.Time.Equal) {
		return f.current
	}
	if cert, trusted, err := f.stores.Load(); err == nil {
		f.current, f.mods = f.build(cert, trusted), mods
	}
	return f.current
}

// modTimes are the files' modification times, the zero time for a file
// that cannot be looked at.
func modTimes(files []string) []time.Time {
	mods := make([]time.Time, len(files))
	for i, path := range files {
		if fi, err := os.Stat(path); err == nil {
			mods[i] = fi.ModTime()
		}
	}
	return mods
}
