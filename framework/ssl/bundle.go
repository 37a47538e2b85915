package ssl

// SSL bundles, as Spring Boot 3.5's SslProperties declare them:
// app.ssl.bundle.pem.<name>.* (PemSslBundleProperties) and
// app.ssl.bundle.jks.<name>.* (JksSslBundleProperties), each named by a
// setting (server.ssl.bundle, app.data.redis.ssl.bundle). Only the
// bundles that a setting names are bound, so that the keys of a bundle
// nothing uses are warned about as any unread key is.

import (
	"crypto/tls"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// The prefixes of the bundles' settings.
const (
	PEMBundles = "app.ssl.bundle.pem."
	JKSBundles = "app.ssl.bundle.jks."
)

// The keys of a bundle, after its prefix and name.
var (
	pemBundleKeys = []string{"keystore.certificate", "keystore.private-key", "keystore.private-key-password",
		"truststore.certificate", "key.alias", "verify-keys", "reload-on-update", "protocol",
		"options.enabled-protocols", "options.ciphers"}
	jksBundleKeys = []string{"keystore.location", "keystore.password", "keystore.type", "keystore.provider",
		"truststore.location", "truststore.password", "truststore.type", "truststore.provider",
		"key.alias", "key.password", "reload-on-update", "protocol", "options.enabled-protocols", "options.ciphers"}
)

// bundleMeanings say what a bundle's keys mean, for --help and the
// settings reference.
var bundleMeanings = map[string]string{
	PEMBundles + "keystore.certificate":          "the certificate chain of the PEM bundle <name>: a PEM file (file:path too), base64:<content>, or the PEM text",
	PEMBundles + "keystore.private-key":          "the private key of its keystore.certificate: a PEM file (file:path too), base64:<content>, or the PEM text; PKCS#8 encrypted with PBES2 (AES or 3DES) when keystore.private-key-password is set",
	PEMBundles + "keystore.private-key-password": "the password of an encrypted keystore.private-key (never shown)",
	PEMBundles + "truststore.certificate":        "the CA certificates (PEM) that a peer's certificate must be signed by: for a client, the server's; for a server, the clients' (server.ssl.client-auth)",
	PEMBundles + "key.alias":                     "the alias of the key in the key store Spring builds from the PEM files: no effect here, where the bundle holds one key",
	PEMBundles + "verify-keys":                   "whether the private key is checked against the certificate: it always is here",
	PEMBundles + "reload-on-update":              "true: the files are read again when they change (looked at, at most, once a second), for the handshakes after; false: read once",
	PEMBundles + "protocol":                      "as server.ssl.protocol",
	PEMBundles + "options.enabled-protocols":     "as server.ssl.enabled-protocols",
	PEMBundles + "options.ciphers":               "as server.ssl.ciphers",
	JKSBundles + "keystore.location":             "the key store of the JKS bundle <name>: a PKCS12 or JKS file (file:path too) or base64:<content>",
	JKSBundles + "keystore.password":             "the key store's password (never shown)",
	JKSBundles + "keystore.type":                 "PKCS12 or JKS; either is read by what the file holds, as Java's keystore.type.compat does",
	JKSBundles + "keystore.provider":             "a Java security provider: refused, as a Go service has none",
	JKSBundles + "truststore.location":           "the trust store: a PKCS12 or JKS file of the CA certificates that a peer's certificate must be signed by",
	JKSBundles + "truststore.password":           "the trust store's password (never shown); without one a JKS store is read unchecked, as Java does",
	JKSBundles + "truststore.type":               "PKCS12 or JKS, as keystore.type",
	JKSBundles + "truststore.provider":           "a Java security provider: refused, as a Go service has none",
	JKSBundles + "key.alias":                     "the alias of the key to serve; needed when the key store holds several (JKS)",
	JKSBundles + "key.password":                  "the key's password, when not the key store's (never shown); a PKCS#12 key store's key takes the store's",
	JKSBundles + "reload-on-update":              "true: the store files are read again when they change (looked at, at most, once a second), for the handshakes after; false: read once",
	JKSBundles + "protocol":                      "as server.ssl.protocol",
	JKSBundles + "options.enabled-protocols":     "as server.ssl.enabled-protocols",
	JKSBundles + "options.ciphers":               "as server.ssl.ciphers",
}

// DescribeBundles says what the bundles' keys mean, for --help and the
// settings reference: they are bound only for a bundle that a setting
// names.
func DescribeBundles(b *config.Binder) {
	for _, prefix := range []string{PEMBundles, JKSBundles} {
		keys := pemBundleKeys
		if prefix == JKSBundles {
			keys = jksBundleKeys
		}
		for _, k := range keys {
			b.Describe(prefix+"<name>."+k, bundleMeanings[prefix+k])
		}
	}
}

// A Bundle is a named bundle as bound: its stores and its options.
type Bundle struct {
	Name    string
	Stores  *Stores
	Options OptionSettings
}

// BindBundle binds the bundle name, which the setting key names. A
// bundle that is not declared, or declared both as PEM and JKS (which
// Spring Boot refuses to register), is refused under key; a setting of
// it that cannot be used without reading a file is refused under its
// own. nil is returned then.
func BindBundle(b *config.Binder, key, name string) *Bundle {
	pem, jks := declared(b, PEMBundles+name+".", pemBundleKeys), declared(b, JKSBundles+name+".", jksBundleKeys)
	switch {
	case !pem && !jks:
		reason := "no SSL bundle " + name + " is declared: declare " + JKSBundles + name + ".keystore.location (a PKCS12 or JKS key store), or " +
			PEMBundles + name + ".keystore.certificate and .keystore.private-key (PEM files)"
		if names := declaredBundles(b); len(names) > 0 {
			reason += "; declared: " + strings.Join(names, ", ")
		}
		b.Refuse(key, reason)
		return nil
	case pem && jks:
		b.Refuse(key, "the SSL bundle "+name+" is declared twice, under "+PEMBundles+name+" and "+JKSBundles+name+": keep one")
		return nil
	case pem:
		return bindPEMBundle(b, name)
	default:
		return bindJKSBundle(b, name)
	}
}

// declared reports whether a source sets a key of the bundle prefix.
func declared(b *config.Binder, prefix string, keys []string) bool {
	return len(b.KeysWithPrefix(prefix)) > 0 || slices.ContainsFunc(keys, func(k string) bool { return b.IsSet(prefix + k) })
}

// declaredBundles names the bundles that the settings files and
// arguments declare, for the refusal of a name that is not one of them.
func declaredBundles(b *config.Binder) []string {
	var names []string
	for _, prefix := range []string{PEMBundles, JKSBundles} {
		for _, k := range b.KeysWithPrefix(prefix) {
			name, _, _ := strings.Cut(strings.TrimPrefix(k, prefix), ".")
			if n := name + " (" + strings.TrimSuffix(strings.TrimPrefix(prefix, "app.ssl.bundle."), ".") + ")"; !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names
}

// bindKeys binds the keys of the bundle prefix+name, each with its
// meaning, and returns a function of the setting of each.
func bindKeys(b *config.Binder, prefix, name string, keys []string) func(string) Setting {
	bound := map[string]Setting{}
	for _, k := range keys {
		if k == "reload-on-update" || k == "verify-keys" || strings.HasPrefix(k, "options.") || k == "protocol" {
			continue // bound with their types
		}
		bound[k] = BindSetting(b, prefix+name+"."+k, strings.ReplaceAll(bundleMeanings[prefix+k], "<name>", name))
	}
	return func(k string) Setting { return bound[k] }
}

func bindPEMBundle(b *config.Binder, name string) *Bundle {
	p := PEMBundles + name + "."
	s := bindKeys(b, PEMBundles, name, pemBundleKeys)
	config.Bind(b, p+"verify-keys", false, config.Bool, bundleMeanings[PEMBundles+"verify-keys"])
	bundle := &Bundle{Name: name, Options: bindBundleOptions(b, PEMBundles, name)}
	reload := config.Bind(b, p+"reload-on-update", false, config.Bool, bundleMeanings[PEMBundles+"reload-on-update"])
	var key KeySource
	if k := (PEMKey{s("keystore.certificate"), s("keystore.private-key"), s("keystore.private-key-password")}); k.Certificate.Set() || k.PrivateKey.Set() || k.PrivateKeyPassword.Set() {
		key = k
	}
	var trust TrustSource
	if t := (PEMTrust{s("truststore.certificate")}); t.Certificate.Set() {
		trust = t
	}
	if bundle.Stores = NewStores(b, key, trust, reload, p+"reload-on-update"); bundle.Stores == nil {
		return nil
	}
	return bundle
}

func bindJKSBundle(b *config.Binder, name string) *Bundle {
	p := JKSBundles + name + "."
	s := bindKeys(b, JKSBundles, name, jksBundleKeys)
	bundle := &Bundle{Name: name, Options: bindBundleOptions(b, JKSBundles, name)}
	reload := config.Bind(b, p+"reload-on-update", false, config.Bool, bundleMeanings[JKSBundles+"reload-on-update"])
	var key KeySource
	k := StoreKey{s("keystore.location"), s("keystore.password"), s("keystore.type"), s("keystore.provider"), s("key.alias"), s("key.password")}
	if slices.ContainsFunc([]Setting{k.Location, k.Password, k.Type, k.Provider, k.Alias, k.KeyPassword}, Setting.Set) {
		key = k
	}
	var trust TrustSource
	t := StoreTrust{s("truststore.location"), s("truststore.password"), s("truststore.type"), s("truststore.provider")}
	if slices.ContainsFunc([]Setting{t.Location, t.Password, t.Type, t.Provider}, Setting.Set) {
		trust = t
	}
	if bundle.Stores = NewStores(b, key, trust, reload, p+"reload-on-update"); bundle.Stores == nil {
		return nil
	}
	return bundle
}

func bindBundleOptions(b *config.Binder, prefix, name string) OptionSettings {
	p := prefix + name + "."
	return BindOptions(b, OptionKeys{Protocol: p + "protocol", EnabledProtocols: p + "options.enabled-protocols", Ciphers: p + "options.ciphers"},
		[3]string{bundleMeanings[prefix+"protocol"], bundleMeanings[prefix+"options.enabled-protocols"], bundleMeanings[prefix+"options.ciphers"]})
}

// BindClient reads the bundle name, which the setting key names, into a
// TLS client configuration: its trust store holds the CAs the server's
// certificate must be signed by (the system's when it has none), its key
// store the client's own certificate, for servers that ask for one. The
// bundle is read once. What cannot be read is refused; nil is returned
// then.
func BindClient(b *config.Binder, key, name string) *tls.Config {
	bundle := BindBundle(b, key, name)
	if bundle == nil {
		return nil
	}
	opts, ok := bundle.Options.Resolve(b)
	if !bundle.Stores.HasKey() && !bundle.Stores.HasTrust() {
		b.Refuse(key, "the SSL bundle "+name+" holds neither a trust store nor a key store")
		return nil
	}
	cert, trusted, read := bundle.Stores.LoadOrRefuse(b)
	if !ok || !read {
		return nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: Pool(trusted)}
	opts.Apply(cfg)
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	return cfg
}
