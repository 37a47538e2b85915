package main

// Sessions in a Redis that speaks only TLS, started by the test.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestSessionsInTLSRedis starts a Redis that speaks only TLS and asks
// for client certificates, with a CA the test makes, and keeps two
// instances' sessions there through rediss:// and an SSL bundle with
// a client certificate: both serve one session's counter. Without the bundle, Redis's certificate is
// not trusted, and start-up stops naming app.data.redis.url.
func TestSessionsInTLSRedis(t *testing.T) {
	t.Parallel()
	if os.Getenv("GREETER_TEST_REDIS_URL") == "" {
		t.Skip("set GREETER_TEST_REDIS_URL (CI does) to run the Redis tests; this one starts its own redis-server")
	}
	dir := t.TempDir()
	ca, caKey := newCert(t, dir, "ca", nil, nil)
	newCert(t, dir, "server", ca, caKey)
	newCert(t, dir, "client", ca, caKey)
	port := startTLSRedis(t, dir)

	bundle := "--app.ssl.bundle.pem.redis."
	args := []string{"--server.port=0", "--app.session.store-type=redis",
		"--app.data.redis.url=rediss://127.0.0.1:" + strconv.Itoa(port) + "/0",
		"--app.data.redis.ssl.bundle=redis",
		bundle + "truststore.certificate=file:" + filepath.Join(dir, "ca.pem"),
		bundle + "keystore.certificate=" + filepath.Join(dir, "client.pem"),
		bundle + "keystore.private-key=" + filepath.Join(dir, "client-key.pem")}
	a, b := boottest.Start(t, service, args, nil), boottest.Start(t, service, args, nil)
	c := newClient(t, a.URL)
	c.expect("POST", "/counters/tls", `{"by":4}`, 200, `"value":4`)
	c.base = b.URL
	c.expect("POST", "/counters/tls", `{"by":1}`, 200, `"value":5`)

	report, err := boottest.FailToStart(t, service, args[:3], nil)
	if err == nil || !strings.Contains(report, "app.data.redis.url") || !strings.Contains(report, "certificate") {
		t.Errorf("rediss:// without the bundle, Redis's certificate signed by an unknown CA: %v\n%s", err, report)
	}
}

// newCert writes name.pem and name-key.pem in dir: a CA when parent is
// nil, else a certificate for 127.0.0.1 that parent signs (for a server
// and a client alike).
func newCert(t *testing.T, dir, name string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "greeter test " + name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	if parent == nil {
		tmpl.IsCA, tmpl.BasicConstraintsValid, tmpl.KeyUsage = true, true, x509.KeyUsageCertSign
		parent, parentKey = tmpl, key
	} else {
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
		tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	write := func(file, typ string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, file), pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: data}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(name+".pem", "CERTIFICATE", der)
	write(name+"-key.pem", "EC PRIVATE KEY", keyDER)
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// startTLSRedis starts redis-server on a free loopback port, TLS only
// (--port 0 closes the plain one), requiring client certificates signed
// by dir's CA, and returns the port once it accepts connections.
func startTLSRedis(t *testing.T, dir string) int {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("GREETER_TEST_REDIS_URL is set, so the Redis tests run, but redis-server is not installed: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // free for redis-server, which the test hopes nothing takes meanwhile
	cmd := exec.Command(bin, "--port", "0", "--bind", "127.0.0.1", "--tls-port", strconv.Itoa(port),
		"--tls-cert-file", filepath.Join(dir, "server.pem"), "--tls-key-file", filepath.Join(dir, "server-key.pem"),
		"--tls-ca-cert-file", filepath.Join(dir, "ca.pem"), "--tls-auth-clients", "yes",
		"--save", "", "--appendonly", "no", "--dir", dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second)
		if err == nil {
			c.Close()
			return port
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server does not listen on %d after 10s: %v\n%s", port, err, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
