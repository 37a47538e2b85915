package ssl

import "crypto/x509"

// PKCS12Starter is the import path of the starter that reads PKCS#12
// key and trust stores. PKCS#12's password-based encryption and MAC need
// PBKDF2 from golang.org/x/crypto (through go-pkcs12), which a service
// that serves TLS from PEM files or JKS stores has no use for: so a
// service links them only when it names this starter, and a PKCS#12 store
// set in one that does not is refused, naming the starter, never served
// as plain HTTP.
const PKCS12Starter = "github.com/springport/greeter/framework/starter/pkcs12"

// A PKCS12Decoder reads PKCS#12 files: go-pkcs12's, which the PKCS#12
// starter gives (UsePKCS12).
type PKCS12Decoder interface {
	// DecodeChain reads a store of one private key and its chain.
	DecodeChain(data []byte, password string) (key any, leaf *x509.Certificate, chain []*x509.Certificate, err error)
	// DecodeTrustStore reads the certificates a store marks as trusted.
	DecodeTrustStore(data []byte, password string) ([]*x509.Certificate, error)
	// WrongPassword reports whether err says that the password does not
	// open the store.
	WrongPassword(err error) bool
}

// pkcs12Decoder is the decoder the PKCS#12 starter gave; nil without it.
var pkcs12Decoder PKCS12Decoder

// UsePKCS12 makes d the reader of PKCS#12 stores. The PKCS#12 starter
// calls it when its package is initialised, before any setting is read.
func UsePKCS12(d PKCS12Decoder) { pkcs12Decoder = d }

// noPKCS12 is the refusal of a PKCS#12 store in a service without the
// starter that reads it.
func noPKCS12(location Setting, what string) error {
	return fault(location, "a PKCS#12 "+what+" is read by the starter "+PKCS12Starter+
		", which this service does not include: add it to the service's Starters (or serve PEM files, or a JKS store)")
}
