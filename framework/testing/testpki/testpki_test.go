package testpki_test

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"github.com/springport/greeter/framework/testing/testpki"
)

// TestCertificates: a server certificate verifies for 127.0.0.1 and a
// client certificate for client authentication against their CA's pool,
// and neither against another CA's.
func TestCertificates(t *testing.T) {
	ca, other := testpki.NewCA(t, "CA"), testpki.NewCA(t, "other CA")
	server, err := tls.X509KeyPair(ca.Server(t, "server"))
	if err != nil {
		t.Fatal(err)
	}
	client := ca.ClientCertificate(t, "client")
	for _, tt := range []struct {
		name  string
		cert  tls.Certificate
		opts  x509.VerifyOptions
		other x509.VerifyOptions
	}{
		{"server", server, x509.VerifyOptions{Roots: ca.Pool(), DNSName: "127.0.0.1"}, x509.VerifyOptions{Roots: other.Pool(), DNSName: "127.0.0.1"}},
		{"client", client, x509.VerifyOptions{Roots: ca.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}},
			x509.VerifyOptions{Roots: other.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}},
	} {
		leaf, err := x509.ParseCertificate(tt.cert.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := leaf.Verify(tt.opts); err != nil {
			t.Errorf("%s certificate against its CA: %v", tt.name, err)
		}
		if _, err := leaf.Verify(tt.other); err == nil {
			t.Errorf("%s certificate verified against another CA", tt.name)
		}
	}
}
