package redistest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// pki is a certificate authority made for one test, and the server and
// client certificates it signed, as PEM files in the test's directory.
type pki struct {
	CAFile         string
	serverCert     string
	serverKey      string
	ClientCertFile string
	ClientKeyFile  string
}

var errNoCertificate = errors.New("no PEM certificate in the file")

// certLifetime is how long the certificates are valid: they outlive any
// test, and start an hour ago so that a clock a little behind does not
// reject them.
const certLifetime = 24 * time.Hour

// newPKI generates a CA, a server certificate for 127.0.0.1 and a client
// certificate, each with an ECDSA P-256 key, and writes them in dir.
func newPKI(t testing.TB, dir string) *pki {
	t.Helper()
	p := &pki{
		CAFile:         pemPath(dir, "ca"),
		serverCert:     pemPath(dir, "server"),
		serverKey:      pemPath(dir, "server-key"),
		ClientCertFile: pemPath(dir, "client"),
		ClientKeyFile:  pemPath(dir, "client-key"),
	}
	caKey := newKey(t)
	caTemplate := template(t, "greeter test CA")
	caTemplate.IsCA = true
	caTemplate.BasicConstraintsValid = true
	caTemplate.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, p.CAFile, "CERTIFICATE", caDER)

	server := template(t, "127.0.0.1")
	server.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	server.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	p.issue(t, server, ca, caKey, p.serverCert, p.serverKey)

	client := template(t, "greeter test client")
	client.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	p.issue(t, client, ca, caKey, p.ClientCertFile, p.ClientKeyFile)
	return p
}

// ClientConfig is TLSServer.ClientConfig, for the harness before the
// server exists.
func (p *pki) ClientConfig(withCert bool) (*tls.Config, error) {
	return clientConfig(p.CAFile, p.ClientCertFile, p.ClientKeyFile, withCert)
}

// issue signs a certificate from tmpl with a new key, and writes both.
func (p *pki) issue(t testing.TB, tmpl, ca *x509.Certificate, caKey *ecdsa.PrivateKey, certFile, keyFile string) {
	t.Helper()
	key := newKey(t)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, certFile, "CERTIFICATE", der)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, keyFile, "PRIVATE KEY", keyDER)
}

// pemPath is where the PEM file called name goes.
func pemPath(dir, name string) string { return filepath.Join(dir, name+".pem") }

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// template is a certificate for subject, valid for certLifetime, with a
// random serial number.
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
		NotAfter:     now.Add(certLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
}

func writePEM(t testing.TB, path, blockType string, der []byte) {
	t.Helper()
	data := pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der})
	// 0600: redis-server and the test run as the same user, and a key is
	// never left readable to others.
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
