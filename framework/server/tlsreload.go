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
// tried again at the next check. Such a failure is logged at WARN once
// per change of the files (naming the setting and why, never a file's
// content), not at every check, so that a renewal that keeps failing is
// seen long before the certificate it should have replaced expires; a
// certificate read again is logged at INFO. The checks are made by the
// handshakes and by what reads the served chain (Served: the ssl health
// component, /actuator/info and the ssl.chain.expiry gauge), so that a
// scrape sees a renewal even while no client connects.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	// name names the chain served, for SslInfo: the bundle's name, or
	// the settings' prefix (server.ssl) for a port's own files.
	name     string
	failures handshakeFailures           // tlsfailures.go
	logger   atomic.Pointer[slog.Logger] // the server's, once Serve serves the port

	mu      sync.Mutex
	current *tls.Config // for the next handshake, without NextProtos
	chain   []*x509.Certificate
	alias   string
	mods    []time.Time // of files, when current was read
	failed  []time.Time // of files, when they last failed to be read; nil since current was read
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
	f.chain, f.alias = parseChain(cert), stores.Alias()
	return f
}

// parseChain is cert's chain as x509 certificates, the served one
// first; one that does not parse (it did, to be served) is left out.
func parseChain(cert *tls.Certificate) []*x509.Certificate {
	var chain []*x509.Certificate
	for _, der := range cert.Certificate {
		if c, err := x509.ParseCertificate(der); err == nil {
			chain = append(chain, c)
		}
	}
	return chain
}

// Served is the chain served now, the alias of its key and the name of
// what it comes from (the bundle, or server.ssl for the port's own
// files); the files are checked first, as a handshake would.
func (f *TLS) Served() (name, alias string, chain []*x509.Certificate) {
	f.latest()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.name, f.alias, f.chain
}

// log is the logger the server serves the port with; none before.
func (f *TLS) log() *slog.Logger {
	if l := f.logger.Load(); l != nil {
		return l
	}
	return slog.New(slog.DiscardHandler)
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
// the stores' latest content; logger tells of reloads. nextProtos are the protocols ALPN offers
// (h2 and http/1.1, or http/1.1 alone): a configuration returned for a
// handshake is taken whole, so it must say them itself.
func (f *TLS) config(nextProtos []string, logger *slog.Logger) *tls.Config {
	f.logger.Store(logger)
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
	cert, trusted, err := f.stores.Load()
	if err != nil {
		if !slices.EqualFunc(mods, f.failed, time.Time.Equal) {
			f.failed = mods
			key, reason := faults(err)
			f.log().Warn("the TLS files changed but cannot be read: still serving the certificate read before, and trying again when they change",
				"key", key, "reason", reason)
		}
		return f.current
	}
	f.current, f.mods, f.failed = f.build(cert, trusted), mods, nil
	f.chain, f.alias = parseChain(cert), f.stores.Alias()
	attrs := []any{"tls", f.name}
	if len(f.chain) > 0 {
		attrs = append(attrs, "subject", f.chain[0].Subject.String(), "expires", f.chain[0].NotAfter.UTC())
	}
	f.log().Info("the TLS files changed and were read again: serving them from the next handshake", attrs...)
	return f.current
}

// faults are the settings that err (the *ssl.Faults of a failed Load)
// names, and why, each list joined: what a warning shows, never a
// file's content or a password, which faults do not hold.
func faults(err error) (keys, reasons string) {
	var ks, rs []string
	var walk func(error)
	walk = func(err error) {
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				walk(e)
			}
			return
		}
		if f, ok := errors.AsType[*ssl.Fault](err); ok {
			ks, rs = append(ks, f.Key), append(rs, f.Reason)
			return
		}
		rs = append(rs, err.Error())
	}
	walk(err)
	return strings.Join(ks, ", "), strings.Join(rs, "; ")
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
