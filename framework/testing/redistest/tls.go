package redistest

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strconv"
	"testing"
)

// TLSServer is a Redis that accepts only TLS connections, with a
// certificate for 127.0.0.1 signed by a certificate authority the test
// generated, and the PEM files a client needs: the CA's certificate to
// trust the server (app.ssl.bundle.pem.<name>.truststore.certificate),
// and a client certificate and key the CA signed, to present when the
// server asks for one (.keystore.certificate, .keystore.private-key).
type TLSServer struct {
	// Addr is the server's host:port, 127.0.0.1 and a free port.
	Addr string
	// CAFile is the CA's certificate, which signed the server's and the
	// client's certificates.
	CAFile string
	// ClientCertFile and ClientKeyFile are a client certificate and its
	// private key (PKCS #8), signed by the CA.
	ClientCertFile string
	ClientKeyFile  string
	// RequiresClientCert says whether the server refuses a client that
	// presents no certificate signed by the CA.
	RequiresClientCert bool
}

// TLS starts a Redis that accepts only TLS connections and asks clients
// for a certificate without requiring one (--tls-auth-clients optional),
// as managed services do. It is killed when the test ends.
func TLS(t testing.TB) *TLSServer {
	t.Helper()
	return startTLS(t, false)
}

// MutualTLS is TLS with a server that refuses clients that present no
// certificate signed by the CA (--tls-auth-clients yes).
func MutualTLS(t testing.TB) *TLSServer {
	t.Helper()
	return startTLS(t, true)
}

func startTLS(t testing.TB, requireClientCert bool) *TLSServer {
	t.Helper()
	requireBinaries(t)
	dir := t.TempDir()
	pki := newPKI(t, dir)
	authClients := "optional"
	if requireClientCert {
		authClients = "yes"
	}
	// The harness's own checks (is it up? is it this process?) go through
	// TLS with the client certificate, as a client that passes would.
	conf, err := pki.ClientConfig(true)
	if err != nil {
		t.Fatal(err)
	}
	p := start(t, "TLS server", dir, 1, conf, func(ports []int) []string {
		return []string{
			// No plain TCP port: only TLS reaches it.
			"--port", "0",
			"--tls-port", strconv.Itoa(ports[0]),
			"--bind", "127.0.0.1",
			"--tls-cert-file", pki.serverCert,
			"--tls-key-file", pki.serverKey,
			"--tls-ca-cert-file", pki.CAFile,
			"--tls-auth-clients", authClients,
			"--save", "",
			"--appendonly", "no",
			"--dir", dir,
		}
	})
	return &TLSServer{
		Addr:               p.addr,
		CAFile:             pki.CAFile,
		ClientCertFile:     pki.ClientCertFile,
		ClientKeyFile:      pki.ClientKeyFile,
		RequiresClientCert: requireClientCert,
	}
}

// ClientConfig returns the TLS configuration of a client that trusts the
// CA and, when withCert is true, presents the client certificate, read
// from the PEM files as a client configured with them would.
func (s *TLSServer) ClientConfig(withCert bool) (*tls.Config, error) {
	return clientConfig(s.CAFile, s.ClientCertFile, s.ClientKeyFile, withCert)
}

func clientConfig(caFile, certFile, keyFile string, withCert bool) (*tls.Config, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, &os.PathError{Op: "parse", Path: caFile, Err: errNoCertificate}
	}
	conf := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if withCert {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		conf.Certificates = []tls.Certificate{cert}
	}
	return conf, nil
}
