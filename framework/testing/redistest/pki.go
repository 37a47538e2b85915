package redistest

import (
	"crypto/tls"
	"errors"
	"testing"

	"github.com/springport/greeter/framework/testing/testpki"
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

// newPKI generates a CA, a server certificate for 127.0.0.1 and a client
// certificate (testpki), and writes them in dir. 0600: redis-server and
// the test run as the same user.
func newPKI(t testing.TB, dir string) *pki {
	t.Helper()
	ca := testpki.NewCA(t, "greeter test CA")
	serverCert, serverKey := ca.Server(t, "127.0.0.1")
	clientCert, clientKey := ca.Client(t, "greeter test client")
	return &pki{
		CAFile:         testpki.WriteFile(t, dir, "ca.pem", ca.PEM),
		serverCert:     testpki.WriteFile(t, dir, "server.pem", serverCert),
		serverKey:      testpki.WriteFile(t, dir, "server-key.pem", serverKey),
		ClientCertFile: testpki.WriteFile(t, dir, "client.pem", clientCert),
		ClientKeyFile:  testpki.WriteFile(t, dir, "client-key.pem", clientKey),
	}
}

// ClientConfig is TLSServer.ClientConfig, for the harness before the
// server exists.
func (p *pki) ClientConfig(withCert bool) (*tls.Config, error) {
	return clientConfig(p.CAFile, p.ClientCertFile, p.ClientKeyFile, withCert)
}
