package server

// TLS on a port, with Spring Boot 3.5's names (org.springframework.boot.
// web.server.Ssl): server.ssl.bundle names an SSL bundle
// (app.ssl.bundle.pem.<name>.* or app.ssl.bundle.jks.<name>.*); or the
// server's certificate comes from PEM files (server.ssl.certificate and
// certificate-private-key) or from a PKCS#12 or JKS key store
// (server.ssl.key-store, key-store-password, key-store-type, key-alias,
// key-password), and the CAs of client certificates from
// server.ssl.trust-certificate (PEM) or server.ssl.trust-store;
// server.ssl.client-auth (none, want or need), and the versions and
// suites offered (enabled-protocols, ciphers). management.server.ssl.*
// the same for a management port of its own (management.go). As in
// Spring, setting any of them turns TLS on, unless <prefix>enabled=false;
// and a port whose TLS cannot be served stops start-up: it never falls
// back to plain HTTP. server.ssl's files are read again when they change,
// a bundle's when its reload-on-update says so (tlsreload.go). Whether
// HTTP/2 is offered by ALPN is server.http2.enabled's to say (http2.go).

import (
	"cmp"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
)

// The settings of one port's TLS, after its prefix.
const (
	sslEnabled            = "enabled"
	sslBundle             = "bundle"
	sslCertificate        = "certificate"
	sslPrivateKey         = "certificate-private-key"
	sslTrustCertificate   = "trust-certificate"
	sslClientAuth         = "client-auth"
	sslKeyStore           = "key-store"
	sslKeyStorePassword   = "key-store-password"
	sslKeyStoreType       = "key-store-type"
	sslKeyStoreProvider   = "key-store-provider"
	sslKeyAlias           = "key-alias"
	sslKeyPassword        = "key-password"
	sslTrustStore         = "trust-store"
	sslTrustStorePassword = "trust-store-password"
	sslTrustStoreType     = "trust-store-type"
	sslTrustStoreProvider = "trust-store-provider"
	sslProtocol           = "protocol"
	sslEnabledProtocols   = "enabled-protocols"
	sslCiphers            = "ciphers"
)

// sslNames are the settings of one port's TLS, enabled first; the others
// are what a bundle would leave unused, client-auth aside.
var sslNames = []string{sslEnabled, sslBundle, sslClientAuth, sslCertificate, sslPrivateKey, sslKeyStore, sslKeyStorePassword,
	sslKeyStoreType, sslKeyStoreProvider, sslKeyAlias, sslKeyPassword, sslTrustCertificate, sslTrustStore,
	sslTrustStorePassword, sslTrustStoreType, sslTrustStoreProvider, sslProtocol, sslEnabledProtocols, sslCiphers}

// serverSSLMeanings are what server.ssl's settings mean.
var serverSSLMeanings = map[string]string{
	sslEnabled:            "HTTPS on server.port: on when another server.ssl.* is set, as in Spring; false: off, whatever else is set",
	sslBundle:             "the SSL bundle that server.port serves with (app.ssl.bundle.jks.<name>.* or app.ssl.bundle.pem.<name>.*): its key store's certificate, and its trust store for client-auth",
	sslCertificate:        "the server's certificate chain, a PEM file (file:path too); re-read when it changes",
	sslPrivateKey:         "the private key of server.ssl.certificate, a PEM file (file:path too); re-read when it changes",
	sslTrustCertificate:   "the CA (PEM file) that client certificates must be signed by, for server.ssl.client-auth; re-read when it changes",
	sslClientAuth:         "none; want: a client certificate is checked if given; need: a client without one is refused",
	sslKeyStore:           "the key store of the server's certificate and key, instead of PEM files: a PKCS12 or JKS file (file:path too) or base64:<content>; re-read when it changes",
	sslKeyStorePassword:   "the key store's password (never shown)",
	sslKeyStoreType:       "PKCS12 or JKS; either is read by what the file holds, as Java's keystore.type.compat does",
	sslKeyStoreProvider:   "a Java security provider: refused, as a Go service has none",
	sslKeyAlias:           "the alias of the key in server.ssl.key-store; needed when a JKS store holds several",
	sslKeyPassword:        "the key's password in server.ssl.key-store, when not the store's (never shown); a PKCS#12 store's key takes the store's",
	sslTrustStore:         "the trust store (PKCS12 or JKS) of the CAs that client certificates must be signed by, instead of server.ssl.trust-certificate; re-read when it changes",
	sslTrustStorePassword: "the trust store's password (never shown); without one a JKS store is read unchecked, as Java does",
	sslTrustStoreType:     "PKCS12 or JKS, as server.ssl.key-store-type",
	sslTrustStoreProvider: "a Java security provider: refused, as a Go service has none",
	sslProtocol:           ssl.OptionMeanings[0],
	sslEnabledProtocols:   ssl.OptionMeanings[1],
	sslCiphers:            ssl.OptionMeanings[2],
}

// sslKeys names one port's TLS settings, with their meanings.
type sslKeys struct {
	prefix   string // server.ssl. or management.server.ssl.
	meanings map[string]string
}

func (k sslKeys) key(name string) string { return k.prefix + name }

// all lists the keys, for checking whether any is set.
func (k sslKeys) all() []string {
	var keys []string
	for _, n := range sslNames {
		keys = append(keys, k.key(n))
	}
	return keys
}

var serverSSL = sslKeys{prefix: "server.ssl.", meanings: serverSSLMeanings}

// sslSettings are one port's TLS settings as bound, before any file is
// read.
type sslSettings struct {
	keys       sslKeys
	enabled    bool
	bundle     string
	clientAuth string // none, want or need
	pemKey     ssl.PEMKey
	storeKey   ssl.StoreKey
	pemTrust   ssl.PEMTrust
	storeTrust ssl.StoreTrust
	options    ssl.OptionSettings
}

// bindSSL binds the TLS settings that keys name. As in Spring, where
// setting any of server.ssl.* makes an Ssl whose enabled is true, TLS is
// on when one is set, unless <prefix>enabled=false.
func bindSSL(b *config.Binder, keys sslKeys) sslSettings {
	m := keys.meanings
	set := func(name string) ssl.Setting { return ssl.BindSetting(b, keys.key(name), m[name]) }
	s := sslSettings{keys: keys,
		bundle:     config.Bind(b, keys.key(sslBundle), "", config.String, m[sslBundle]),
		pemKey:     ssl.PEMKey{Certificate: set(sslCertificate), PrivateKey: set(sslPrivateKey)},
		storeKey:   ssl.StoreKey{Location: set(sslKeyStore), Password: set(sslKeyStorePassword), Type: set(sslKeyStoreType), Provider: set(sslKeyStoreProvider), Alias: set(sslKeyAlias), KeyPassword: set(sslKeyPassword)},
		pemTrust:   ssl.PEMTrust{Certificate: set(sslTrustCertificate)},
		storeTrust: ssl.StoreTrust{Location: set(sslTrustStore), Password: set(sslTrustStorePassword), Type: set(sslTrustStoreType), Provider: set(sslTrustStoreProvider)},
		clientAuth: config.Bind(b, keys.key(sslClientAuth), "none", config.OneOf("none", "want", "need"), m[sslClientAuth]),
		options: ssl.BindOptions(b, ssl.OptionKeys{Protocol: keys.key(sslProtocol), EnabledProtocols: keys.key(sslEnabledProtocols), Ciphers: keys.key(sslCiphers)},
			[3]string{m[sslProtocol], m[sslEnabledProtocols], m[sslCiphers]}),
	}
	s.enabled = config.Bind(b, keys.key(sslEnabled), slices.ContainsFunc(keys.all()[1:], b.IsSet), config.Bool, m[sslEnabled])
	return s
}

// load reads the stores s names, or returns nil when TLS is off. They are
// read now, so that a missing, unreadable or mismatched file, a wrong
// password or alias stops start-up with the setting that names it; a
// key's content and a password are never shown. nil is returned too
// when a setting is refused.
func (s sslSettings) load(b *config.Binder) *TLS {
	if !s.enabled {
		return nil
	}
	k := s.keys
	var stores *ssl.Stores
	var options ssl.OptionSettings
	if s.bundle != "" {
		stores, options = s.bundleStores(b)
	} else {
		stores, options = s.ownStores(b), s.options
	}
	if stores == nil {
		return nil
	}
	ok := true
	switch {
	case !stores.HasKey() && s.bundle != "":
		b.Refuse(k.key(sslBundle), "the SSL bundle "+s.bundle+" has no key store, where the server's certificate would come from")
		ok = false
	case !stores.HasKey():
		// The setting that turned TLS on: enabled, if set.
		first := k.key(sslEnabled)
		if i := slices.IndexFunc(k.all(), b.IsSet); i >= 0 {
			first = k.all()[i]
		}
		b.Refuse(first, "TLS needs the server's certificate: set "+k.key(sslCertificate)+" and "+k.key(sslPrivateKey)+" (PEM files), "+
			k.key(sslKeyStore)+" (a PKCS12 or JKS key store), or "+k.key(sslBundle))
		ok = false
	}
	if s.clientAuth != "none" && !stores.HasTrust() {
		if s.bundle != "" {
			b.Refuse(k.key(sslClientAuth), "client certificates are checked against a CA: the SSL bundle "+s.bundle+" has no trust store")
		} else {
			b.Refuse(k.key(sslClientAuth), "client certificates are checked against a CA: set "+k.key(sslTrustCertificate)+" (a PEM file) or "+k.key(sslTrustStore))
		}
		ok = false
	}
	opts, optsOK := options.Resolve(b)
	if !ok || !optsOK {
		return nil
	}
	cert, trusted, read := stores.LoadOrRefuse(b)
	if !read {
		return nil
	}
	t := newTLS(stores, s.clientAuth, cert, trusted, opts)
	t.name = cmp.Or(s.bundle, strings.TrimSuffix(k.prefix, "."))
	return t
}

// bundleStores are the stores of the bundle that <prefix>bundle names.
// The port's settings of its own stores and options are refused beside
// it: Spring takes the bundle whole and ignores them, which would leave
// a setting silently unused.
func (s sslSettings) bundleStores(b *config.Binder) (*ssl.Stores, ssl.OptionSettings) {
	k := s.keys
	ok := true
	for _, name := range sslNames[3:] {
		if b.IsSet(k.key(name)) {
			b.Refuse(k.key(name), k.key(sslBundle)+" names the SSL bundle that is served, which this setting would not change: remove it, or the bundle")
			ok = false
		}
	}
	bundle := ssl.BindBundle(b, k.key(sslBundle), s.bundle)
	if bundle == nil || !ok {
		return nil, ssl.OptionSettings{}
	}
	return bundle.Stores, bundle.Options
}

// ownStores are the stores of the port's own settings: PEM files or a
// key store for its certificate, and PEM or a trust store for the CAs of
// client certificates. As the two forms of one store would serve only
// one (Spring takes the PEM), setting both is refused. The files are
// read again when they change.
func (s sslSettings) ownStores(b *config.Binder) *ssl.Stores {
	k := s.keys
	var key ssl.KeySource
	pemKey := s.pemKey.Certificate.Set() || s.pemKey.PrivateKey.Set()
	storeKey := []ssl.Setting{s.storeKey.Location, s.storeKey.Password, s.storeKey.Type, s.storeKey.Provider, s.storeKey.KeyPassword}
	switch {
	case pemKey && slices.ContainsFunc(storeKey, ssl.Setting.Set):
		refuseBoth(b, storeKey, k.key(sslCertificate))
		return nil
	case pemKey:
		key = s.pemKey
	case slices.ContainsFunc(storeKey, ssl.Setting.Set) || s.storeKey.Alias.Set():
		key = s.storeKey
	}
	var trust ssl.TrustSource
	storeTrust := []ssl.Setting{s.storeTrust.Location, s.storeTrust.Password, s.storeTrust.Type, s.storeTrust.Provider}
	switch {
	case s.pemTrust.Certificate.Set() && slices.ContainsFunc(storeTrust, ssl.Setting.Set):
		refuseBoth(b, storeTrust, k.key(sslTrustCertificate))
		return nil
	case s.pemTrust.Certificate.Set():
		trust = s.pemTrust
	case slices.ContainsFunc(storeTrust, ssl.Setting.Set):
		trust = s.storeTrust
	}
	return ssl.NewStores(b, key, trust, true, "")
}

// refuseBoth refuses the settings of a store that PEM, pemKey, gives
// too.
func refuseBoth(b *config.Binder, settings []ssl.Setting, pemKey string) {
	for _, set := range settings {
		if set.Set() {
			b.Refuse(set.Key, pemKey+" is set too, and one store is served: keep the PEM files or the store")
		}
	}
}

// refuseUnservedTLS refuses each key under prefix that a source sets and
// that nothing here reads (Spring's server.ssl.server-name-bundles, say):
// a setting that asks for TLS is served or refused, never ignored with a
// warning that a typo gets too.
func refuseUnservedTLS(b *config.Binder, prefix string) {
	var bound []string
	for _, k := range b.Keys() {
		if strings.HasPrefix(k, prefix) {
			bound = append(bound, k)
		}
	}
	for _, key := range b.KeysWithPrefix(prefix) {
		if !slices.ContainsFunc(bound, func(k string) bool { return config.SameKey(k, key) }) {
			b.Refuse(key, "asks for TLS in a way this server does not serve: remove it, or serve it with the settings "+prefix+"* that --help lists")
		}
	}
}
