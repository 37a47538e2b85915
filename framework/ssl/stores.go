package ssl

// A port's or a client's key store and trust store, as Spring Boot's
// SslStoreBundle: read at start-up, where what cannot be read is refused,
// and read again when their files change, if asked.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"sync/atomic"

	"github.com/springport/greeter/framework/config"
)

// A KeySource is where a certificate and its private key come from: a
// PEMKey or a StoreKey.
type KeySource interface {
	check() error
	files() []string
	unwatched() []Setting
	// read returns the certificate and the alias of its key, as Java's
	// key store names it.
	read() (*tls.Certificate, string, error)
}

// A TrustSource is where trusted CA certificates come from: a PEMTrust
// or a StoreTrust.
type TrustSource interface {
	check() error
	files() []string
	unwatched() []Setting
	read() ([]*x509.Certificate, error)
}

// Stores are a key store and a trust store, either of which may be
// missing.
type Stores struct {
	key    KeySource
	trust  TrustSource
	reload bool
	alias  atomic.Pointer[string] // of the key last loaded, for Alias
}

// NewStores checks key and trust (either nil for none) as far as can be
// told without reading them, and returns them, or nil when a setting is
// refused. reload re-reads them when their files change (Files). A
// bundle's reload-on-update, reloadKey, is refused when a store's content
// is not in a file (base64:, PEM text), as Spring Boot refuses to watch
// it; with reloadKey "" such content is read once, and the files are
// watched.
func NewStores(b *config.Binder, key KeySource, trust TrustSource, reload bool, reloadKey string) *Stores {
	var errs []error
	var unwatched []Setting
	if key != nil {
		errs = append(errs, key.check())
		unwatched = append(unwatched, key.unwatched()...)
	}
	if trust != nil {
		errs = append(errs, trust.check())
		unwatched = append(unwatched, trust.unwatched()...)
	}
	if reload && reloadKey != "" {
		for _, s := range unwatched {
			errs = append(errs, fault(Setting{Key: reloadKey}, s.Key+" is not a file, whose changes could be watched: "+
				"name a file, or set "+reloadKey+"=false"))
		}
	}
	if err := errors.Join(errs...); err != nil {
		Refuse(b, reloadKey, err)
		return nil
	}
	return &Stores{key: key, trust: trust, reload: reload}
}

// HasKey reports whether there is a key store.
func (s *Stores) HasKey() bool { return s.key != nil }

// HasTrust reports whether there is a trust store.
func (s *Stores) HasTrust() bool { return s.trust != nil }

// Files are the files to watch: those the stores are read from, when
// they are read again on a change; nil otherwise.
func (s *Stores) Files() []string {
	if !s.reload {
		return nil
	}
	var out []string
	if s.key != nil {
		out = append(out, s.key.files()...)
	}
	if s.trust != nil {
		out = append(out, s.trust.files()...)
	}
	return out
}

// Load reads the stores: the certificate (nil without a key store) and
// the trusted certificates (nil without a trust store). The error joins
// the *Faults found, each naming its setting.
func (s *Stores) Load() (*tls.Certificate, []*x509.Certificate, error) {
	var cert *tls.Certificate
	var trusted []*x509.Certificate
	var keyErr, trustErr error
	var alias string
	if s.key != nil {
		cert, alias, keyErr = s.key.read()
	}
	if s.trust != nil {
		trusted, trustErr = s.trust.read()
	}
	if err := errors.Join(keyErr, trustErr); err != nil {
		return nil, nil, err
	}
	if cert != nil {
		s.alias.Store(&alias)
	}
	return cert, trusted, nil
}

// Alias is the alias of the key that Load last read, as Java's key store
// names the entry: the key store's own, or ssl for PEM files, as Spring's
// PEM key store names it; "" before a key was read.
func (s *Stores) Alias() string {
	if a := s.alias.Load(); a != nil {
		return *a
	}
	return ""
}

// Pool is certs as a pool; nil for none.
func Pool(certs []*x509.Certificate) *x509.CertPool {
	if certs == nil {
		return nil
	}
	p := x509.NewCertPool()
	for _, c := range certs {
		p.AddCert(c)
	}
	return p
}

// LoadOrRefuse loads s at start-up: each fault is refused with b, and
// ok is false then.
func (s *Stores) LoadOrRefuse(b *config.Binder) (cert *tls.Certificate, trusted []*x509.Certificate, ok bool) {
	cert, trusted, err := s.Load()
	if err != nil {
		Refuse(b, "", err)
		return nil, nil, false
	}
	return cert, trusted, true
}
