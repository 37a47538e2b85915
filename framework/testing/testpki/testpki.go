// Package testpki makes the certificates that tests of TLS need: a
// certificate authority of the test's own, and server and client
// certificates it signs, in PEM as the services read them from files.
// Every key is ECDSA P-256, quick to generate; every certificate is
// valid from an hour ago (a clock a little behind does not reject it)
// for a day (longer than any test).
package testpki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// lifetime is how long the certificates are valid after they start.
const lifetime = 24 * time.Hour

// CA is a certificate authority made for one test.
type CA struct {
	Cert *x509.Certificate
	Key  *ecdsa.PrivateKey
	PEM  []byte // Cert in PEM: the file a trust setting names
}

// NewCA makes a certificate authority whose subject is name.
func NewCA(t testing.TB, name string) *CA {
	t.Helper()
	key := newKey(t)
	tmpl := template(t, name)
	tmpl.IsCA = true
	tmpl.BasicConstraintsValid = true
	tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &CA{Cert: cert, Key: key, PEM: encode("CERTIFICATE", der)}
}

// Pool is a certificate pool that holds the CA alone: what a client that
// trusts it, or a server that checks client certificates against it, uses.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// Server signs a server certificate for 127.0.0.1, whose subject is name,
// and returns it and its private key (PKCS #8) in PEM.
func (ca *CA) Server(t testing.TB, name string) (certPEM, keyPEM []byte) {
	t.Helper()
	return ca.issue(t, name, x509.ExtKeyUsageServerAuth)
}

// ServerValid is Server for a certificate valid from notBefore to
// notAfter: one about to expire, expired, or not yet valid, for the
// tests of what watches the certificates' validity.
func (ca *CA) ServerValid(t testing.TB, name string, notBefore, notAfter time.Time) (certPEM, keyPEM []byte) {
	t.Helper()
	return ca.issueValid(t, name, x509.ExtKeyUsageServerAuth, notBefore, notAfter)
}

// Client signs a client certificate whose subject is name, and returns
// it and its private key (PKCS #8) in PEM.
func (ca *CA) Client(t testing.TB, name string) (certPEM, keyPEM []byte) {
	t.Helper()
	return ca.issue(t, name, x509.ExtKeyUsageClientAuth)
}

// ClientCertificate is Client as a client's TLS configuration takes it.
func (ca *CA) ClientCertificate(t testing.TB, name string) tls.Certificate {
	t.Helper()
	pair, err := tls.X509KeyPair(ca.Client(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return pair
}

func (ca *CA) issue(t testing.TB, name string, usage x509.ExtKeyUsage) (certPEM, keyPEM []byte) {
	t.Helper()
	return ca.issueValid(t, name, usage, time.Time{}, time.Time{})
}

// issueValid is issue for a certificate valid from notBefore to
// notAfter; zero times keep the template's.
func (ca *CA) issueValid(t testing.TB, name string, usage x509.ExtKeyUsage, notBefore, notAfter time.Time) (certPEM, keyPEM []byte) {
	t.Helper()
	key := newKey(t)
	tmpl := template(t, name)
	if !notBefore.IsZero() {
		tmpl.NotBefore, tmpl.NotAfter = notBefore, notAfter
	}
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{usage}
	if usage == x509.ExtKeyUsageServerAuth {
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return encode("CERTIFICATE", der), encode("PRIVATE KEY", keyDER)
}

// WriteFile writes data to the file name in dir, readable by its owner
// only (a key is never left readable to others), and returns its path.
func WriteFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// template is a certificate for subject, with a random serial number, so
// that two certificates of one CA never share one.
func template(t testing.TB, subject string) *x509.Certificate {
	t.Helper()
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	return &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: subject},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(lifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
}

func encode(blockType string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der})
}
