package boot_test

// server.ssl: HTTPS on server.port from PEM files, client certificates,
// reload when the files change, and bad settings refused.

import (
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// httpsClient trusts ca, offers HTTP/2 and, when given, a client
// certificate.
func httpsClient(ca *testpki.CA, clientCert *tls.Certificate) *http.Client {
	cfg := &tls.Config{RootCAs: ca.Pool()}
	if clientCert != nil {
		cfg.Certificates = []tls.Certificate{*clientCert}
	}
	return &http.Client{Timeout: boottest.Timeout, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
}

func httpsURL(s *boottest.Instance) string { return https(s.URL) }

// https is url, an http:// URL of boottest.Instance, with https:.
func https(url string) string { return "https://" + strings.TrimPrefix(url, "http://") }

// TestServerTLS: with server.ssl.certificate and its key set, server.port
// serves HTTPS with the certificate (a client trusting the CA gets its
// greeting, over HTTP/1.1 by default); a plain HTTP request to the
// port gets no greeting; a client that does not trust the CA is refused.
func TestServerTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "test CA")
	certPEM, keyPEM := ca.Server(t, "server")
	s := start(t, []string{"--server.ssl.certificate=file:" + testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM)}, nil)

	resp, err := httpsClient(ca, nil).Get(httpsURL(s) + "/hello")
	if err != nil {
		t.Fatalf("GET https /hello: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET https /hello: %d, want 200", resp.StatusCode)
	}
	// server.http2.enabled is off by default, as in Spring: a client
	// that offers h2 gets HTTP/1.1 (http2_test.go has it on).
	if resp.TLS == nil || resp.TLS.NegotiatedProtocol != "http/1.1" || resp.ProtoMajor != 1 {
		t.Errorf("GET https /hello: protocol %s, ALPN %+v, want HTTP/1.1 negotiated as http/1.1", resp.Proto, resp.TLS)
	}

	// What the framework writes of the request's scheme says https: the
	// actuator's links.
	if r := send(t, httpsClient(ca, nil), "GET", httpsURL(s)+"/actuator", ""); !strings.Contains(r.body, `"href":"`+httpsURL(s)+"/actuator/health\"") {
		t.Errorf("GET https /actuator: %d %s, want a link to %s/actuator/health", r.status, r.body, httpsURL(s))
	}

	// Plain HTTP: Go's TLS server answers 400 to it, never the route.
	if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != http.StatusBadRequest || strings.Contains(r.body, `"text":`) {
		t.Errorf("plain GET /hello to the TLS port: %d %s, want 400 without the greeting", r.status, r.body)
	}

	// A client that does not trust the CA refuses the server.
	if _, err := httpsClient(testpki.NewCA(t, "other CA"), nil).Get(httpsURL(s) + "/hello"); err == nil {
		t.Error("a client trusting another CA got an answer, want the certificate refused")
	}
}

// TestServerTLSClientAuth: with server.ssl.client-auth=need a client
// without a certificate is refused, one with a certificate from
// server.ssl.trust-certificate's CA is served, one from another CA is
// refused; with want, a client without a certificate is served.
func TestServerTLSClientAuth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "server CA")
	clientCA := testpki.NewCA(t, "client CA")
	certPEM, keyPEM := ca.Server(t, "server")
	args := []string{"--server.ssl.certificate=" + testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM),
		"--server.ssl.trust-certificate=file:" + testpki.WriteFile(t, dir, "clients.crt", clientCA.PEM)}
	clientPair := func(ca *testpki.CA) *tls.Certificate {
		pair := ca.ClientCertificate(t, "client")
		return &pair
	}
	get := func(s *boottest.Instance, cert *tls.Certificate) (int, error) {
		resp, err := httpsClient(ca, cert).Get(httpsURL(s) + "/hello")
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}

	need := start(t, append(args, "--server.ssl.client-auth=need"), nil)
	if status, err := get(need, nil); err == nil {
		t.Errorf("client-auth=need, no client certificate: %d, want the handshake refused", status)
	}
	if status, err := get(need, clientPair(ca)); err == nil {
		t.Errorf("client-auth=need, a certificate from another CA: %d, want the handshake refused", status)
	}
	if status, err := get(need, clientPair(clientCA)); err != nil || status != http.StatusOK {
		t.Errorf("client-auth=need, a certificate from the trusted CA: %d %v, want 200", status, err)
	}

	want := start(t, append(args, "--server.ssl.client-auth=want"), nil)
	if status, err := get(want, nil); err != nil || status != http.StatusOK {
		t.Errorf("client-auth=want, no client certificate: %d %v, want 200", status, err)
	}
}

// TestServerTLSReload: a certificate written over the file is served
// without a restart.
func TestServerTLSReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, second := testpki.NewCA(t, "first CA"), testpki.NewCA(t, "second CA")
	certPEM, keyPEM := first.Server(t, "server")
	certPath, keyPath := testpki.WriteFile(t, dir, "server.crt", certPEM), testpki.WriteFile(t, dir, "server.key", keyPEM)
	s := start(t, []string{"--server.ssl.certificate=" + certPath, "--server.ssl.certificate-private-key=" + keyPath}, nil)
	// A new connection each time (servedBy): a reused one keeps its
	// handshake.
	served := func(ca *testpki.CA) bool { return servedBy(s, ca) }
	if !served(first) {
		t.Fatal("the first certificate is not served")
	}
	certPEM, keyPEM = second.Server(t, "server")
	// The key first: a certificate that does not match its key is not
	// taken, and the old one stays served until both are in place.
	testpki.WriteFile(t, dir, "server.key", keyPEM)
	testpki.WriteFile(t, dir, "server.crt", certPEM)
	touchLater(t, certPath, keyPath)
	boottest.WaitFor(t, "the renewed certificate to be served", func() bool { return served(second) })
	if served(first) {
		t.Error("the old certificate is still served after the renewed one")
	}
}

// TestServerTLSTrustReload: with client-auth=need, a client certificate
// signed by a new CA is accepted once server.ssl.trust-certificate's file
// is replaced with that CA, without a restart, and one from the CA it
// replaced is refused from then on.
func TestServerTLSTrustReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca, oldClients, newClients := testpki.NewCA(t, "server CA"), testpki.NewCA(t, "old client CA"), testpki.NewCA(t, "new client CA")
	certPEM, keyPEM := ca.Server(t, "server")
	trust := testpki.WriteFile(t, dir, "clients.crt", oldClients.PEM)
	s := start(t, []string{"--server.ssl.certificate=" + testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM),
		"--server.ssl.trust-certificate=" + trust, "--server.ssl.client-auth=need"}, nil)
	oldClient, newClient := oldClients.ClientCertificate(t, "old"), newClients.ClientCertificate(t, "new")
	served := func(cert tls.Certificate) bool {
		// A new connection each time: a reused one keeps its handshake.
		c := httpsClient(ca, &cert)
		defer c.CloseIdleConnections()
		resp, err := c.Get(httpsURL(s) + "/hello")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if !served(oldClient) || served(newClient) {
		t.Fatal("before the trust file changes, want the old CA's client served and the new one's refused")
	}
	testpki.WriteFile(t, dir, "clients.crt", newClients.PEM)
	touchLater(t, trust)
	boottest.WaitFor(t, "the new CA's client to be served", func() bool { return served(newClient) })
	if served(oldClient) {
		t.Error("the replaced CA's client is still served")
	}
}

// TestServerTLSRefused: bad server.ssl settings stop start-up naming the
// setting, and never show the key's content.
func TestServerTLSRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	certPEM, keyPEM := ca.Server(t, "server")
	_, otherKey := ca.Server(t, "other")
	cert := testpki.WriteFile(t, dir, "server.crt", certPEM)
	key := testpki.WriteFile(t, dir, "server.key", keyPEM)
	wrongKey := testpki.WriteFile(t, dir, "other.key", otherKey)
	missing := filepath.Join(dir, "missing.crt")
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"enabled without a certificate", []string{"--server.ssl.enabled=true"}, []string{"server.ssl.enabled", "server.ssl.certificate"}},
		{"certificate without a key", []string{"--server.ssl.certificate=" + cert}, []string{"server.ssl.certificate", "server.ssl.certificate-private-key"}},
		{"missing file", []string{"--server.ssl.certificate=" + missing, "--server.ssl.certificate-private-key=" + key}, []string{"server.ssl.certificate", missing, "no such file"}},
		{"mismatched key", []string{"--server.ssl.certificate=" + cert, "--server.ssl.certificate-private-key=" + wrongKey}, []string{"server.ssl.certificate", "private key does not match"}},
		{"not PEM", []string{"--server.ssl.certificate=" + key, "--server.ssl.certificate-private-key=" + key}, []string{"server.ssl.certificate"}},
		{"bad client-auth", []string{"--server.ssl.certificate=" + cert, "--server.ssl.certificate-private-key=" + key, "--server.ssl.client-auth=always"}, []string{"server.ssl.client-auth", "always"}},
		{"client-auth without a CA", []string{"--server.ssl.certificate=" + cert, "--server.ssl.certificate-private-key=" + key, "--server.ssl.client-auth=need"}, []string{"server.ssl.client-auth", "server.ssl.trust-certificate"}},
		{"trust file not PEM", []string{"--server.ssl.certificate=" + cert, "--server.ssl.certificate-private-key=" + key, "--server.ssl.trust-certificate=" + filepath.Join(dir, "server.key")}, []string{"server.ssl.trust-certificate"}},
	} {
		stderr, refused := expectRefused(t, c.name, c.args, c.want)
		if refused && strings.Contains(stderr, "PRIVATE KEY") || strings.Contains(stderr, string(keyPEM[30:60])) {
			t.Errorf("%s: the error shows key material:\n%s", c.name, stderr)
		}
	}
}

// touchLater moves the files' modification times a minute ahead, as a
// reload notices a change by them and they may be coarse.
func touchLater(t *testing.T, paths ...string) {
	t.Helper()
	later := time.Now().Add(time.Minute)
	for _, p := range paths {
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
	}
}

// expectRefused runs the tester with args, which must stop start-up with
// a report that says each of want; it returns the report, and whether
// start-up was refused.
func expectRefused(t *testing.T, name string, args, want []string) (string, bool) {
	t.Helper()
	stderr, err := boottest.FailToStart(t, tester(), args, nil)
	if err == nil {
		t.Errorf("%s: started, want refused", name)
		return "", false
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: the error does not say %q:\n%s", name, w, stderr)
		}
	}
	return stderr, true
}
