package ssl

// Key stores and trust stores in a file, as Java reads them: PKCS#12
// (through the PKCS#12 starter's go-pkcs12, pkcs12.go: the PBES2/AES-256
// and HMAC-SHA256 that OpenSSL 3 and keytool 17 write by default, and the
// legacy RC2 and 3DES) and JKS (keystore-go). As Java's keystore.type.compat has it, a file is read
// by what it holds, whichever of the two types is set.

import (
	"bytes"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"
	"strings"

	jks "github.com/pavlo-v-chernykh/keystore-go/v4"
)

// The formats a store file is found to be in.
const (
	formatPKCS12 = "PKCS12"
	formatJKS    = "JKS"
	formatJCEKS  = "JCEKS"
)

// StoreKey is a key store file (Spring Boot's JksSslStoreDetails, with
// its key's alias and password): PKCS#12 or JKS.
type StoreKey struct{ Location, Password, Type, Provider, Alias, KeyPassword Setting }

func (k StoreKey) check() error {
	return checkStore("key store", k.Location, k.Type, k.Provider, k.Password, k.Alias, k.KeyPassword)
}

func (k StoreKey) files() []string      { return files(false, k.Location) }
func (k StoreKey) unwatched() []Setting { return unwatched(false, k.Location) }

// StoreTrust is a trust store file: PKCS#12 or JKS.
type StoreTrust struct{ Location, Password, Type, Provider Setting }

func (t StoreTrust) check() error {
	return checkStore("trust store", t.Location, t.Type, t.Provider, t.Password)
}

func (t StoreTrust) files() []string      { return files(false, t.Location) }
func (t StoreTrust) unwatched() []Setting { return unwatched(false, t.Location) }

// checkStore refuses what can be told of a store without reading it: its
// type, a provider, and settings of a store whose location is not set.
func checkStore(what string, location, typ, provider Setting, others ...Setting) error {
	var errs []error
	switch t := strings.ToUpper(strings.TrimSpace(typ.Value)); t {
	case "", formatPKCS12, "PKCS#12", formatJKS:
		if !location.Set() && typ.Set() {
			errs = append(errs, fault(typ, "belongs to a "+what+" that is not set: set "+location.Key+" (a PKCS#12 or JKS file)"))
		}
	case formatJCEKS:
		errs = append(errs, fault(typ, "JCEKS stores are not read: convert it to PKCS12 (keytool -importkeystore -deststoretype PKCS12)"))
	case "PKCS11":
		errs = append(errs, fault(typ, "PKCS#11 tokens are not read: a Go service reads PKCS12 or JKS files"))
	default:
		errs = append(errs, fault(typ, "want PKCS12 or JKS"))
	}
	if provider.Set() {
		errs = append(errs, fault(provider, "a Go service has no JCA security providers: remove it (the store is read by its type, PKCS12 or JKS)"))
	}
	if !location.Set() {
		for _, s := range others {
			if s.Set() {
				errs = append(errs, fault(s, "belongs to a "+what+" that is not set: set "+location.Key+" (a PKCS#12 or JKS file)"))
			}
		}
	}
	return errors.Join(errs...)
}

// storeFormat tells what a store file holds, by its first bytes: JKS and
// JCEKS by their magic numbers, PKCS#12 by its DER SEQUENCE; "" for
// anything else.
func storeFormat(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfe, 0xed}):
		return formatJKS
	case bytes.HasPrefix(data, []byte{0xce, 0xce, 0xce, 0xce}):
		return formatJCEKS
	case len(data) > 0 && data[0] == 0x30:
		return formatPKCS12
	}
	return ""
}

// notAStore is the fault of a file that holds no store that is read.
func notAStore(location Setting, data []byte, format, what string) error {
	switch {
	case format == formatJCEKS:
		return fault(location, "a JCEKS "+what+", which is not read: convert it to PKCS12 (keytool -importkeystore -deststoretype PKCS12)")
	case isPEMText(string(data)):
		return fault(location, "the file holds PEM, not a "+what+": PEM files are named by the certificate settings (server.ssl.certificate and certificate-private-key, or an app.ssl.bundle.pem bundle)")
	}
	return fault(location, "the file is not a "+what+" (PKCS12 or JKS)")
}

// wrongPassword is the fault of a store that its password does not open:
// the password's setting, or the location's when no password is set.
func wrongPassword(password, location Setting, what string) error {
	if password.Set() {
		return fault(password, "does not open the "+what+" (wrong password)")
	}
	return fault(location, "the "+what+" needs a password: set "+password.Key)
}

// malformed turns a panic of a library over a malformed file into a
// fault of location.
func malformed(location Setting, what string, err *error) {
	if r := recover(); r != nil {
		*err = fault(location, "the "+what+" is malformed and cannot be read")
	}
}

func (k StoreKey) read() (cert *tls.Certificate, alias string, err error) {
	data, err := readLocation(k.Location, false)
	if err != nil {
		return nil, "", err
	}
	defer malformed(k.Location, "key store", &err)
	switch format := storeFormat(data); format {
	case formatPKCS12:
		cert, err = k.readPKCS12(data)
		return cert, pkcs12Alias(k.Alias, data), err
	case formatJKS:
		return k.readJKS(data)
	default:
		return nil, "", notAStore(k.Location, data, format, "key store")
	}
}

// pkcs12Alias is the alias Java gives the key of a PKCS#12 store: the
// one set (in lower case, as Java compares them), or the key's
// friendlyName, or 1 for a key without one.
func pkcs12Alias(set Setting, data []byte) string {
	if set.Set() {
		return strings.ToLower(set.Value)
	}
	if bags := pkcs12KeyBags(data); len(bags) == 1 && bags[0].named {
		return strings.ToLower(bags[0].name)
	}
	return "1"
}

func (k StoreKey) readPKCS12(data []byte) (*tls.Certificate, error) {
	password := k.Password.Value
	if k.KeyPassword.Set() && k.KeyPassword.Value != password {
		return nil, fault(k.KeyPassword, "differs from "+k.Password.Key+": a PKCS#12 key store is read with one password, the store's, "+
			"as keytool writes it (a key of a password of its own is not read)")
	}
	if pkcs12Decoder == nil {
		return nil, noPKCS12(k.Location, "key store")
	}
	key, leaf, chain, err := pkcs12Decoder.DecodeChain(data, password)
	switch {
	case err != nil && pkcs12Decoder.WrongPassword(err):
		return nil, wrongPassword(k.Password, k.Location, "key store")
	case err != nil && strings.Contains(err.Error(), "private key missing"):
		return nil, fault(k.Location, "the key store holds no private key, only certificates: a trust store? "+
			"The server's certificate needs its key in the key store")
	case err != nil && strings.Contains(err.Error(), "exactly one key bag"):
		names := []string{}
		for _, bag := range pkcs12KeyBags(data) {
			names = append(names, bag.name)
		}
		return nil, fault(k.Location, "the key store holds several private keys ("+strings.Join(names, ", ")+
			"); a PKCS#12 key store is read here with one: export the one to serve into a store of its own "+
			"(keytool -importkeystore -srcalias <alias>), or use JKS")
	case err != nil:
		return nil, fault(k.Location, "cannot be read as a PKCS#12 key store: "+scrub(err.Error(), password))
	}
	if k.Alias.Set() {
		if err := k.checkPKCS12Alias(data); err != nil {
			return nil, err
		}
	}
	return k.pair(key, append([]*x509.Certificate{leaf}, chain...), "")
}

// checkPKCS12Alias refuses a key alias that does not name the file's
// key, as Java's key manager refuses an alias the store does not hold.
// Aliases are compared without case, as Java's PKCS12 store does. A key
// that cannot be seen without the password is not checked.
func (k StoreKey) checkPKCS12Alias(data []byte) error {
	bags := pkcs12KeyBags(data)
	if len(bags) != 1 {
		return nil
	}
	switch {
	case !bags[0].named && k.Alias.Value != "1":
		// Java names a key without a friendlyName 1.
		return fault(k.Alias, "the key store's key has no alias (no friendlyName), which Java calls 1: leave "+k.Alias.Key+" unset, or name the key (openssl pkcs12 -export -name)")
	case bags[0].named && !strings.EqualFold(bags[0].name, k.Alias.Value):
		return fault(k.Alias, fmt.Sprintf("the key store has no key of this alias: its key is %q", bags[0].name))
	}
	return nil
}

func (k StoreKey) readJKS(data []byte) (*tls.Certificate, string, error) {
	ks := jks.New()
	if err := ks.Load(bytes.NewReader(data), []byte(k.Password.Value)); err != nil {
		if strings.Contains(err.Error(), "invalid digest") {
			return nil, "", wrongPassword(k.Password, k.Location, "key store")
		}
		return nil, "", fault(k.Location, "cannot be read as a JKS key store: "+scrub(err.Error(), k.Password.Value))
	}
	aliases := ks.Aliases()
	slices.Sort(aliases)
	var keys []string
	for _, a := range aliases {
		if ks.IsPrivateKeyEntry(a) {
			keys = append(keys, a)
		}
	}
	alias := strings.ToLower(k.Alias.Value)
	switch {
	case k.Alias.Set() && !slices.Contains(aliases, alias):
		return nil, "", fault(k.Alias, "the key store has no entry of this alias; its keys: "+listOrNone(keys))
	case k.Alias.Set() && !ks.IsPrivateKeyEntry(alias):
		return nil, "", fault(k.Alias, "the entry of this alias is a trusted certificate, without a private key; the store's keys: "+listOrNone(keys))
	case !k.Alias.Set() && len(keys) == 0:
		return nil, "", fault(k.Location, "the key store holds no private key, only trusted certificates: a trust store? "+
			"The server's certificate needs its key in the key store")
	case !k.Alias.Set() && len(keys) > 1:
		return nil, "", fault(k.Location, "the key store holds several keys ("+strings.Join(keys, ", ")+"): set "+k.Alias.Key+" to the one to serve")
	case !k.Alias.Set():
		alias = keys[0]
	}
	keyPassword := k.Password.Value
	if k.KeyPassword.Set() {
		keyPassword = k.KeyPassword.Value
	}
	entry, err := ks.GetPrivateKeyEntry(alias, []byte(keyPassword))
	switch {
	case err != nil && strings.Contains(err.Error(), "invalid digest") && k.KeyPassword.Set():
		return nil, "", fault(k.KeyPassword, "does not open the key "+alias+" (wrong password)")
	case err != nil && strings.Contains(err.Error(), "invalid digest"):
		return nil, "", fault(k.Location, "the password of the key "+alias+" is not the store's: set "+k.KeyPassword.Key)
	case err != nil:
		return nil, "", fault(k.Location, "the key "+alias+" cannot be read: "+scrub(err.Error(), k.Password.Value, keyPassword))
	}
	key, err := x509.ParsePKCS8PrivateKey(entry.PrivateKey)
	if err != nil {
		return nil, "", fault(k.Location, "the key "+alias+" cannot be read: "+err.Error())
	}
	var chain []*x509.Certificate
	for _, c := range entry.CertificateChain {
		cert, err := x509.ParseCertificate(c.Content)
		if err != nil {
			return nil, "", fault(k.Location, "a certificate of the key "+alias+" cannot be read: "+err.Error())
		}
		chain = append(chain, cert)
	}
	cert, err := k.pair(key, chain, alias)
	return cert, alias, err
}

// pair is the server's certificate: the key, and its chain with the
// certificate of the key first.
func (k StoreKey) pair(key any, certs []*x509.Certificate, alias string) (*tls.Certificate, error) {
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fault(k.Location, "the key store's private key is of a type that TLS does not use")
	}
	pub, ok := signer.Public().(interface{ Equal(crypto.PublicKey) bool })
	i := slices.IndexFunc(certs, func(c *x509.Certificate) bool { return ok && pub.Equal(c.PublicKey) })
	if i < 0 {
		what := "the key store's private key"
		if alias != "" {
			what = "the key " + alias
		}
		return nil, fault(k.Location, what+" matches none of its certificates")
	}
	ordered := append([]*x509.Certificate{certs[i]}, slices.Delete(slices.Clone(certs), i, i+1)...)
	cert := &tls.Certificate{PrivateKey: key, Leaf: certs[i]}
	for _, c := range ordered {
		cert.Certificate = append(cert.Certificate, c.Raw)
	}
	return cert, nil
}

func (t StoreTrust) read() (certs []*x509.Certificate, err error) {
	data, err := readLocation(t.Location, false)
	if err != nil {
		return nil, err
	}
	defer malformed(t.Location, "trust store", &err)
	switch format := storeFormat(data); format {
	case formatPKCS12:
		return t.readPKCS12(data)
	case formatJKS:
		return t.readJKS(data)
	default:
		return nil, notAStore(t.Location, data, format, "trust store")
	}
}

// readPKCS12 reads the certificates that a PKCS#12 trust store marks as
// trusted (keytool -importcert marks them), or, from a store of a key,
// the key's certificate, as Java's trust manager takes both.
func (t StoreTrust) readPKCS12(data []byte) ([]*x509.Certificate, error) {
	if pkcs12Decoder == nil {
		return nil, noPKCS12(t.Location, "trust store")
	}
	certs, err := pkcs12Decoder.DecodeTrustStore(data, t.Password.Value)
	if err != nil && pkcs12Decoder.WrongPassword(err) {
		return nil, wrongPassword(t.Password, t.Location, "trust store")
	}
	if err == nil && len(certs) > 0 {
		return certs, nil
	}
	if _, leaf, _, err := pkcs12Decoder.DecodeChain(data, t.Password.Value); err == nil {
		return []*x509.Certificate{leaf}, nil
	}
	return nil, fault(t.Location, "the trust store holds no certificate marked as trusted "+
		"(keytool -importcert marks them; so does openssl pkcs12 -export -nokeys -jdktrust anyExtendedKeyUsage)")
}

// readJKS reads a JKS trust store's trusted certificates and its keys'
// certificates. Without a password its integrity is not checked, as
// Java loads a store without one.
func (t StoreTrust) readJKS(data []byte) ([]*x509.Certificate, error) {
	ks := jks.New()
	if err := ks.Load(bytes.NewReader(data), []byte(t.Password.Value)); err != nil {
		// keystore-go checks the digest after reading every entry: without
		// a password, the entries read are taken, unchecked.
		if !strings.Contains(err.Error(), "invalid digest") {
			return nil, fault(t.Location, "cannot be read as a JKS trust store: "+scrub(err.Error(), t.Password.Value))
		}
		if t.Password.Set() {
			return nil, wrongPassword(t.Password, t.Location, "trust store")
		}
	}
	aliases := ks.Aliases()
	slices.Sort(aliases)
	var certs []*x509.Certificate
	for _, a := range aliases {
		var der []byte
		if entry, err := ks.GetTrustedCertificateEntry(a); err == nil {
			der = entry.Certificate.Content
		} else if chain, err := ks.GetPrivateKeyEntryCertificateChain(a); err == nil && len(chain) > 0 {
			der = chain[0].Content
		}
		if cert, err := x509.ParseCertificate(der); err == nil {
			certs = append(certs, cert)
		}
	}
	if len(certs) == 0 {
		return nil, fault(t.Location, "the trust store holds no certificate")
	}
	return certs, nil
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
