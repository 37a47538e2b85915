package ssl

// Stores of PEM: a certificate chain and its private key (Spring Boot's
// PemSslStoreDetails), a private key encrypted as PKCS#8 with its
// password, and the CA certificates a trust store holds.

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"strings"
)

// PEMKey is a key store of PEM: the certificate chain and its private
// key, each a file (file:path too), base64:<content> or the PEM text
// itself. PrivateKeyPassword, when its key is empty, has no setting (as
// server.ssl has none): an encrypted key is refused then.
type PEMKey struct{ Certificate, PrivateKey, PrivateKeyPassword Setting }

// check refuses what can be told without reading: a certificate without
// its key, a key without its certificate.
func (k PEMKey) check() error {
	switch {
	case k.Certificate.Set() && !k.PrivateKey.Set():
		return fault(k.Certificate, "the certificate needs its private key: set "+k.PrivateKey.Key+" (a PEM file)")
	case !k.Certificate.Set() && k.PrivateKey.Set():
		return fault(k.PrivateKey, "a private key needs its certificate: set "+k.Certificate.Key+" (a PEM file)")
	case !k.Certificate.Set() && k.PrivateKeyPassword.Set():
		return fault(k.PrivateKeyPassword, "the password of a private key that is not set: set "+k.Certificate.Key+" and "+k.PrivateKey.Key)
	}
	return nil
}

func (k PEMKey) files() []string      { return files(true, k.Certificate, k.PrivateKey) }
func (k PEMKey) unwatched() []Setting { return unwatched(true, k.Certificate, k.PrivateKey) }

// pemAlias is the alias of the key that Spring's PEM key store holds
// (PemSslStoreBundle's default), for SslInfo.
const pemAlias = "ssl"

func (k PEMKey) read() (*tls.Certificate, string, error) {
	certPEM, certErr := readLocation(k.Certificate, true)
	keyPEM, keyErr := readLocation(k.PrivateKey, true)
	if certErr != nil || keyErr != nil {
		return nil, "", errors.Join(certErr, keyErr)
	}
	keyPEM, err := k.decrypt(keyPEM)
	if err != nil {
		return nil, "", err
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		// X509KeyPair's errors name what is wrong, never the key itself.
		return nil, "", fault(k.Certificate, "with "+k.PrivateKey.Key+": "+err.Error())
	}
	return &pair, pemAlias, nil
}

// decrypt returns keyPEM with its key decrypted, when it is an encrypted
// PKCS#8 key (ENCRYPTED PRIVATE KEY, as openssl pkcs8 -topk8 and genpkey
// -aes256 write it), and as it is otherwise.
func (k PEMKey) decrypt(keyPEM []byte) ([]byte, error) {
	rest := keyPEM
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return keyPEM, nil // X509KeyPair says what is missing
		}
		if !strings.HasSuffix(block.Type, "PRIVATE KEY") {
			continue
		}
		if block.Headers["Proc-Type"] != "" && strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") {
			return nil, fault(k.PrivateKey, "the key is encrypted the legacy OpenSSL way (Proc-Type: ENCRYPTED), which is not read: "+
				"convert it to PKCS#8 (openssl pkcs8 -topk8 -v2 aes-256-cbc)")
		}
		if block.Type != "ENCRYPTED PRIVATE KEY" {
			return keyPEM, nil
		}
		if !k.PrivateKeyPassword.Set() {
			if k.PrivateKeyPassword.Key == "" {
				return nil, fault(k.PrivateKey, "the key is encrypted, and this key store has no setting for its password: "+
					"decrypt it (openssl pkey), or serve it from an SSL bundle, whose keystore.private-key-password gives it")
			}
			return nil, fault(k.PrivateKey, "the key is encrypted: set its password, "+k.PrivateKeyPassword.Key)
		}
		der, err := decryptPKCS8(block.Bytes, k.PrivateKeyPassword.Value)
		if err == errWrongPassword {
			return nil, fault(k.PrivateKeyPassword, "does not decrypt the private key (wrong password)")
		}
		if err != nil {
			return nil, fault(k.PrivateKey, "the encrypted key cannot be read: "+scrub(err.Error(), k.PrivateKeyPassword.Value))
		}
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
	}
}

// PEMTrust is a trust store of PEM: the CA certificates, a file
// (file:path too), base64:<content> or the PEM text itself.
type PEMTrust struct{ Certificate Setting }

func (t PEMTrust) check() error         { return nil }
func (t PEMTrust) files() []string      { return files(true, t.Certificate) }
func (t PEMTrust) unwatched() []Setting { return unwatched(true, t.Certificate) }

func (t PEMTrust) read() ([]*x509.Certificate, error) {
	data, err := readLocation(t.Certificate, true)
	if err != nil {
		return nil, err
	}
	certs, _ := PEMCertificates(data) // one that does not parse is left out
	if len(certs) == 0 {
		return nil, fault(t.Certificate, "the file holds no PEM certificate")
	}
	return certs, nil
}

// PEMCertificates returns the certificates of data's CERTIFICATE blocks
// that parse, and the error of the first that does not, if one does not;
// the other blocks are passed over.
func PEMCertificates(data []byte) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	var first error
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return certs, first
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		certs = append(certs, cert)
	}
}

// files returns the files that settings name, as reload watches them.
func files(pemText bool, settings ...Setting) []string {
	var out []string
	for _, s := range settings {
		if f := file(s, pemText); s.Set() && f != "" {
			out = append(out, f)
		}
	}
	return out
}
