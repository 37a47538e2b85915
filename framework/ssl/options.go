package ssl

// The TLS versions and cipher suites a port or a client offers, from
// Spring Boot's names: server.ssl.protocol, enabled-protocols and ciphers,
// and a bundle's protocol, options.enabled-protocols and options.ciphers.

import (
	"crypto/tls"
	"errors"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// Options are the versions and cipher suites offered; zero values leave
// Go's defaults (TLS 1.2 and 1.3, Go's suites).
type Options struct {
	MinVersion, MaxVersion uint16
	CipherSuites           []uint16 // TLS 1.2's; TLS 1.3's are always Go's three
	// Keys are the settings the options come from, for a warning that
	// names the one that refuses clients.
	Keys OptionKeys
	// Warnings are what was set but is not offered, for the start-up
	// log: suites that Go's TLS does not implement, left out as Tomcat
	// leaves out the ones its JSSE lacks.
	Warnings []Warning
}

// A Warning is something a setting asks that is not done, with the
// setting's key and origin.
type Warning struct{ Message, Key, Origin string }

// Apply sets c's versions and suites.
func (o Options) Apply(c *tls.Config) {
	if o.MinVersion != 0 {
		c.MinVersion = o.MinVersion
	}
	if o.MaxVersion != 0 {
		c.MaxVersion = o.MaxVersion
	}
	if o.CipherSuites != nil {
		c.CipherSuites = o.CipherSuites
	}
}

// OptionKeys are the keys of the options of one port or bundle.
type OptionKeys struct{ Protocol, EnabledProtocols, Ciphers string }

// OptionMeanings are the meanings of server.ssl's options: protocol,
// enabled-protocols and ciphers.
var OptionMeanings = [3]string{
	"the JSSE protocol of the SSL context: TLS (TLSv1.2 or TLSv1.3 accepted as well), which changes nothing here: enabled-protocols chooses the versions",
	"the TLS versions offered: TLSv1.2, TLSv1.3 (both when unset)",
	"the cipher suites offered, by their IANA names (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256); suites Go does not implement are left out with a warning; no TLS 1.3 suite listed turns TLS 1.3 off, as in Java",
}

// OptionSettings are the options as bound, before they are used.
type OptionSettings struct {
	keys     OptionKeys
	versions versions
	ciphers  []string
}

// versions are the TLS versions of enabled-protocols.
type versions []uint16

// String writes versions as a setting would, for --help's default.
func (v versions) String() string {
	var names []string
	for _, x := range v {
		names = append(names, strings.Replace(tls.VersionName(x), "TLS 1", "TLSv1", 1))
	}
	return strings.Join(names, ",")
}

// BindOptions binds the options under keys, with the meanings of
// protocol, enabled-protocols and ciphers.
func BindOptions(b *config.Binder, keys OptionKeys, m [3]string) OptionSettings {
	config.Bind(b, keys.Protocol, "TLS", protocol, m[0])
	return OptionSettings{keys: keys,
		versions: config.Bind(b, keys.EnabledProtocols, nil, protocolList, m[1]),
		ciphers:  config.Bind(b, keys.Ciphers, nil, config.List, m[2])}
}

// Resolve returns the options to serve with. What cannot be offered is
// refused, and false returned.
func (s OptionSettings) Resolve(b *config.Binder) (Options, bool) {
	o := Options{Keys: s.keys}
	if len(s.versions) > 0 {
		o.MinVersion, o.MaxVersion = slices.Min(s.versions), slices.Max(s.versions)
	}
	if len(s.ciphers) == 0 {
		return o, true
	}
	var tls13, left []string
	for _, name := range s.ciphers {
		suite := suiteNamed(name)
		switch {
		case suite == nil:
			left = append(left, name)
		case slices.Contains(suite.SupportedVersions, tls.VersionTLS13):
			tls13 = append(tls13, name)
		default:
			o.CipherSuites = append(o.CipherSuites, suite.ID)
		}
	}
	k := s.keys
	lo, hi := cmpOr(o.MinVersion, tls.VersionTLS12), cmpOr(o.MaxVersion, tls.VersionTLS13)
	refuse := func(reason string) (Options, bool) {
		b.Refuse(k.Ciphers, reason)
		return Options{}, false
	}
	switch {
	case len(o.CipherSuites) == 0 && len(tls13) == 0:
		return refuse("none of these suites is one Go's TLS offers: name some of " + strings.Join(suiteNames(), ", "))
	case len(tls13) == 0 && lo == tls.VersionTLS13:
		return refuse("TLS 1.3 alone is enabled (" + k.EnabledProtocols + "), and no TLS 1.3 suite is listed")
	case len(o.CipherSuites) == 0 && hi == tls.VersionTLS12:
		return refuse("TLS 1.2 alone is enabled (" + k.EnabledProtocols + "), and no TLS 1.2 suite that Go offers is listed")
	case len(tls13) == 0 && len(s.versions) > 0 && hi == tls.VersionTLS13:
		return refuse("TLSv1.3 is enabled (" + k.EnabledProtocols + "), and no TLS 1.3 suite is listed")
	case len(o.CipherSuites) == 0 && len(s.versions) > 0 && lo == tls.VersionTLS12:
		return refuse("TLSv1.2 is enabled (" + k.EnabledProtocols + "), and no TLS 1.2 suite that Go offers is listed")
	case len(tls13) == 0:
		o.MaxVersion = tls.VersionTLS12 // Java offers no TLS 1.3 without one of its suites
	case len(o.CipherSuites) == 0:
		o.MinVersion = tls.VersionTLS13 // nor TLS 1.2 without one of its
	}
	v := b.Value(k.Ciphers, "")
	if len(left) > 0 {
		o.Warnings = append(o.Warnings, Warning{Key: v.Key, Origin: v.Origin,
			Message: "cipher suites that Go's TLS does not offer are left out: " + strings.Join(left, ", ")})
	}
	if len(tls13) > 0 && len(tls13) < 3 {
		o.Warnings = append(o.Warnings, Warning{Key: v.Key, Origin: v.Origin,
			Message: "Go's TLS 1.3 offers all three of its suites (TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256); it cannot be limited to those listed"})
	}
	return o, true
}

func cmpOr(v, def uint16) uint16 {
	if v == 0 {
		return def
	}
	return v
}

// protocol reads server.ssl.protocol: the JSSE SSL context's protocol,
// which does not choose the versions a server offers.
func protocol(s string) (string, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "TLS", "TLSV1.2", "TLSV1.3":
		return s, nil
	}
	return "", errors.New("want TLS (or TLSv1.2, TLSv1.3): a Go service offers TLS 1.2 and 1.3 only")
}

// protocolList reads enabled-protocols.
func protocolList(s string) (versions, error) {
	var out versions
	for _, p := range strings.Split(s, ",") {
		switch strings.ToUpper(strings.TrimSpace(p)) {
		case "":
		case "TLSV1.2":
			out = append(out, tls.VersionTLS12)
		case "TLSV1.3":
			out = append(out, tls.VersionTLS13)
		case "TLSV1", "TLSV1.1", "SSLV3", "SSLV2HELLO":
			return nil, errors.New(strings.TrimSpace(p) + " is not offered (Java 17 disables it too): want TLSv1.2, TLSv1.3")
		default:
			return nil, errors.New("want TLSv1.2, TLSv1.3: " + strings.TrimSpace(p) + " is not a TLS version")
		}
	}
	return out, nil
}

// suiteNamed is the suite of an IANA name among those Go's TLS offers
// (not its insecure ones).
func suiteNamed(name string) *tls.CipherSuite {
	for _, s := range tls.CipherSuites() {
		if strings.EqualFold(s.Name, strings.TrimSpace(name)) {
			return s
		}
	}
	return nil
}

func suiteNames() []string {
	var names []string
	for _, s := range tls.CipherSuites() {
		names = append(names, s.Name)
	}
	return names
}
