// Package pkcs12 is the starter that reads PKCS#12 key and trust stores
// (server.ssl.key-store, a JKS-style SSL bundle's .p12), as a JVM reads
// them: in the PBES2 with AES-256 and HMAC-SHA256 that OpenSSL 3 and
// keytool 17 write by default, and in the legacy RC2 and 3DES, through
// go-pkcs12. The settings are the server's (framework/server); PEM files
// and JKS stores need no starter.
//
// A service that does not name it links neither go-pkcs12 nor the PBKDF2
// of golang.org/x/crypto that PKCS#12 is encrypted with; a PKCS#12 store
// set in one stops start-up, naming this starter.
package pkcs12

import (
	"crypto/x509"
	"errors"

	gopkcs12 "software.sslmate.com/src/go-pkcs12"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/ssl"
)

// Starter reads PKCS#12 stores. Naming it in Service.Starters imports
// this package, whose initialisation gives the framework the reader
// before any setting is read.
var Starter = boot.Starter{Name: ssl.PKCS12Starter}

func init() { ssl.UsePKCS12(decoder{}) }

// decoder is go-pkcs12's reading of a store.
type decoder struct{}

func (decoder) DecodeChain(data []byte, password string) (any, *x509.Certificate, []*x509.Certificate, error) {
	return gopkcs12.DecodeChain(data, password)
}

func (decoder) DecodeTrustStore(data []byte, password string) ([]*x509.Certificate, error) {
	return gopkcs12.DecodeTrustStore(data, password)
}

func (decoder) WrongPassword(err error) bool {
	return errors.Is(err, gopkcs12.ErrIncorrectPassword) || errors.Is(err, gopkcs12.ErrDecryption)
}
