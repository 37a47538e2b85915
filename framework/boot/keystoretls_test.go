package boot_test

// server.ssl as Spring users configure it: a PKCS#12 or JKS key store
// under server.ssl.key-store*, an SSL bundle named by server.ssl.bundle
// (app.ssl.bundle.jks.<name>.* or app.ssl.bundle.pem.<name>.*), a
// bundle's reload-on-update, and what cannot be served refused, never
// served over plain HTTP, without a password in the report.

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// storePassword is the stores' password: the tests check that no report
// or listing shows it.
const storePassword = "s3cret-Pa55"

// trustingClient trusts pool and, when given, offers a client
// certificate; it makes a new connection for each request.
func trustingClient(pool *x509.CertPool, clientCert *tls.Certificate) *http.Client {
	cfg := &tls.Config{RootCAs: pool}
	if clientCert != nil {
		cfg.Certificates = []tls.Certificate{*clientCert}
	}
	return &http.Client{Timeout: boottest.Timeout, Transport: &http.Transport{TLSClientConfig: cfg, DisableKeepAlives: true}}
}

// servedCertificate returns the certificate that GET url/hello is served
// with to a client trusting pool, after checking that it is answered 200.
func servedCertificate(t *testing.T, pool *x509.CertPool, url string) *x509.Certificate {
	t.Helper()
	resp, err := trustingClient(pool, nil).Get(https(url) + "/hello")
	if err != nil {
		t.Fatalf("GET https /hello: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET https /hello: %d, want 200", resp.StatusCode)
	}
	return resp.TLS.PeerCertificates[0]
}

// checkHTTPSOnly checks that s serves store's certificate over HTTPS to a
// client trusting the store's CA, and nothing over plain HTTP.
func checkHTTPSOnly(t *testing.T, s *boottest.Instance, store testpki.Store) {
	t.Helper()
	if got := servedCertificate(t, store.Trust, s.URL); !got.Equal(store.Cert) {
		t.Errorf("served %s, want the store's certificate %s", got.Subject, store.Cert.Subject)
	}
	if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != http.StatusBadRequest || strings.Contains(r.body, `"text":`) {
		t.Errorf("plain GET /hello to the TLS port: %d %s, want 400 without the greeting", r.status, r.body)
	}
}

// TestServerTLSFromKeyStores: server.ssl.key-store, key-store-password,
// key-store-type and key-alias (JHipster's tls profile) serve HTTPS from
// a PKCS#12 store as keytool -genkeypair writes it, as OpenSSL 3 writes
// it by default (PBES2, AES-256-CBC, HMAC-SHA256) and with -legacy (RC2,
// 3DES, SHA-1), as go-pkcs12 writes both, and from JKS stores, one whose
// key has a password of its own (server.ssl.key-password). A client
// trusting the CA gets the store's certificate; plain HTTP gets nothing.
func TestServerTLSFromKeyStores(t *testing.T) {
	t.Parallel()
	ca := testpki.NewCA(t, "test CA")
	for _, c := range []struct {
		name, typ, keyPassword string
		make                   func(t *testing.T, dir string) testpki.Store
	}{
		{"keytool -genkeypair PKCS12", "PKCS12", "", func(t *testing.T, dir string) testpki.Store {
			return ca.KeytoolPKCS12(t, dir, "keystore.p12", storePassword, "server")
		}},
		{"openssl pkcs12 -export, AES-256", "PKCS12", "", func(t *testing.T, dir string) testpki.Store {
			return ca.PKCS12(t, dir, "keystore.p12", storePassword, "server", false)
		}},
		{"openssl pkcs12 -export -legacy, RC2 and 3DES", "pkcs12", "", func(t *testing.T, dir string) testpki.Store {
			return ca.PKCS12(t, dir, "keystore.p12", storePassword, "server", true)
		}},
		{"go-pkcs12 Modern2023", "", "", func(t *testing.T, dir string) testpki.Store {
			return ca.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
		}},
		{"go-pkcs12 LegacyRC2", "PKCS12", "", func(t *testing.T, dir string) testpki.Store {
			return ca.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", true)
		}},
		{"JKS", "JKS", "", func(t *testing.T, dir string) testpki.Store {
			return ca.JKS(t, dir, "keystore.jks", storePassword, "server", "")
		}},
		{"JKS, a key password of its own", "JKS", "k3y-Pa55word", func(t *testing.T, dir string) testpki.Store {
			return ca.JKS(t, dir, "keystore.jks", storePassword, "server", "k3y-Pa55word")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			store := c.make(t, t.TempDir())
			t.Logf("%s: written by %s", c.name, store.By)
			// Aliases are read without case, as Java reads them.
			args := []string{"--server.ssl.key-store=file:" + store.Path, "--server.ssl.key-store-password=" + storePassword,
				"--server.ssl.key-alias=" + strings.ToUpper(store.Alias)}
			if c.typ != "" {
				args = append(args, "--server.ssl.key-store-type="+c.typ)
			}
			if c.keyPassword != "" {
				args = append(args, "--server.ssl.key-password="+c.keyPassword)
			}
			checkHTTPSOnly(t, start(t, args, nil), store)
		})
	}
}

// TestServerTLSFromBundles: server.ssl.bundle names a JKS bundle (a
// PKCS#12 and a JKS key store, written spring.ssl.bundle.jks.* as Spring
// Authorization Server's demo writes it), a PEM bundle, and a bundle
// whose trust store checks client certificates (client-auth=need), and
// the port serves HTTPS with the bundle's certificate only.
func TestServerTLSFromBundles(t *testing.T) {
	t.Parallel()
	ca, clientCA := testpki.NewCA(t, "server CA"), testpki.NewCA(t, "client CA")
	t.Run("jks bundle of a PKCS12 store, spring. keys", func(t *testing.T) {
		t.Parallel()
		store := ca.PKCS12(t, t.TempDir(), "keystore.p12", storePassword, "demo-authorizationserver-sample", false)
		b := "--spring.ssl.bundle.jks.demo-authorizationserver."
		checkHTTPSOnly(t, start(t, []string{"--server.ssl.bundle=demo-authorizationserver",
			b + "key.alias=demo-authorizationserver-sample", b + "key.password=" + storePassword,
			b + "keystore.location=file:" + store.Path, b + "keystore.password=" + storePassword, b + "keystore.type=PKCS12"}, nil), store)
	})
	t.Run("jks bundle of a JKS store", func(t *testing.T) {
		t.Parallel()
		store := ca.JKS(t, t.TempDir(), "keystore.jks", storePassword, "web", "")
		b := "--app.ssl.bundle.jks.web."
		checkHTTPSOnly(t, start(t, []string{"--server.ssl.bundle=web", b + "keystore.location=" + store.Path,
			b + "keystore.password=" + storePassword, b + "keystore.type=JKS"}, nil), store)
	})
	t.Run("pem bundle", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		certPEM, keyPEM := ca.Server(t, "pem")
		cert, _ := tls.X509KeyPair(certPEM, keyPEM)
		b := "--app.ssl.bundle.pem.web."
		checkHTTPSOnly(t, start(t, []string{"--server.ssl.bundle=web",
			b + "keystore.certificate=" + testpki.WriteFile(t, dir, "tls.crt", certPEM),
			b + "keystore.private-key=file:" + testpki.WriteFile(t, dir, "tls.key", keyPEM)}, nil),
			testpki.Store{Trust: ca.Pool(), Cert: cert.Leaf})
	})
	t.Run("jks bundle with a trust store, client-auth=need", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		store := ca.PKCS12(t, dir, "keystore.p12", storePassword, "server", false)
		trust := clientCA.TrustStore(t, dir, "truststore.jks", storePassword, "JKS")
		b := "--app.ssl.bundle.jks.mtls."
		s := start(t, []string{"--server.ssl.bundle=mtls", "--server.ssl.client-auth=need",
			b + "keystore.location=" + store.Path, b + "keystore.password=" + storePassword,
			b + "truststore.location=" + trust.Path, b + "truststore.password=" + storePassword}, nil)
		client := clientCA.ClientCertificate(t, "client")
		other := ca.ClientCertificate(t, "other")
		if resp, err := trustingClient(ca.Pool(), &client).Get(httpsURL(s) + "/hello"); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("a client certificate from the trust store's CA: %v, want 200", err)
		} else {
			resp.Body.Close()
		}
		for name, cert := range map[string]*tls.Certificate{"no client certificate": nil, "a certificate of another CA": &other} {
			if resp, err := trustingClient(ca.Pool(), cert).Get(httpsURL(s) + "/hello"); err == nil {
				resp.Body.Close()
				t.Errorf("%s: %d, want the handshake refused", name, resp.StatusCode)
			}
		}
	})
	t.Run("PKCS12 trust store, base64: key store", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		store := ca.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
		data, err := os.ReadFile(store.Path)
		if err != nil {
			t.Fatal(err)
		}
		trust := clientCA.TrustStore(t, dir, "truststore.p12", storePassword, "PKCS12")
		s := start(t, []string{"--server.ssl.key-store=base64:" + base64.StdEncoding.EncodeToString(data),
			"--server.ssl.key-store-password=" + storePassword, "--server.ssl.client-auth=need",
			"--server.ssl.trust-store=" + trust.Path, "--server.ssl.trust-store-password=" + storePassword}, nil)
		client := clientCA.ClientCertificate(t, "client")
		if resp, err := trustingClient(ca.Pool(), &client).Get(httpsURL(s) + "/hello"); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("a client certificate from the trust store's CA: %v, want 200", err)
		} else {
			resp.Body.Close()
		}
		if resp, err := trustingClient(ca.Pool(), nil).Get(httpsURL(s) + "/hello"); err == nil {
			resp.Body.Close()
			t.Errorf("no client certificate: %d, want the handshake refused", resp.StatusCode)
		}
	})
	t.Run("off", func(t *testing.T) {
		t.Parallel()
		// As Spring: server.ssl.enabled=false turns TLS off, bundle and
		// all, and the bundle is not read.
		s := start(t, []string{"--server.ssl.enabled=false", "--server.ssl.bundle=web", "--app.ssl.bundle.jks.web.keystore.location=/nonexistent.p12"}, nil)
		if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != http.StatusOK {
			t.Errorf("server.ssl.enabled=false: plain GET /hello %d, want 200", r.status)
		}
	})
}

// TestServerTLSBundleReload: with reload-on-update=true, a key store
// written over the bundle's file is served without a restart, and one
// that cannot be read (another password) is not taken; with false (the
// default), the first one stays served.
func TestServerTLSBundleReload(t *testing.T) {
	t.Parallel()
	for _, reload := range []bool{true, false} {
		t.Run(map[bool]string{true: "reload-on-update=true", false: "reload-on-update=false"}[reload], func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			first, second := testpki.NewCA(t, "first CA"), testpki.NewCA(t, "second CA")
			store := first.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
			b := "--app.ssl.bundle.jks.web."
			args := []string{"--server.ssl.bundle=web", b + "keystore.location=" + store.Path, b + "keystore.password=" + storePassword}
			if reload {
				args = append(args, b+"reload-on-update=true")
			}
			s := start(t, args, nil)
			served := func(ca *testpki.CA) bool {
				resp, err := trustingClient(ca.Pool(), nil).Get(httpsURL(s) + "/hello")
				if err != nil {
					return false
				}
				resp.Body.Close()
				return resp.StatusCode == http.StatusOK
			}
			if !served(first) {
				t.Fatal("the first key store is not served")
			}
			if reload {
				// A store its password does not open (a store half
				// written, say) is not taken: the old one stays served.
				second.EncodePKCS12(t, dir, "keystore.p12", "another-password", "server", false)
				touchLater(t, store.Path)
				time.Sleep(1500 * time.Millisecond) // past the reload check
				if !served(first) {
					t.Fatal("a key store that cannot be read replaced the one served")
				}
			}
			second.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
			touchLater(t, store.Path)
			if reload {
				boottest.WaitFor(t, "the new key store to be served", func() bool { return served(second) })
				if served(first) {
					t.Error("the old certificate is still served after the new one")
				}
				return
			}
			// Past the reload check, the new store would have been read.
			time.Sleep(1500 * time.Millisecond)
			if !served(first) || served(second) {
				t.Error("reload-on-update=false: the key store was read again")
			}
		})
	}
}

// TestServerTLSKeyStoreRefused: a key store or bundle that cannot be
// served stops start-up, the report naming the setting as written, its
// origin and why, and never showing a password.
func TestServerTLSKeyStoreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	p12 := ca.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
	jks := ca.JKSEntries(t, dir, "keys.jks", storePassword, []string{"one", "two"}, []string{"ca"})
	oneKey := ca.JKS(t, dir, "one.jks", storePassword, "server", "")
	named := ca.PKCS12(t, dir, "named.p12", storePassword, "server", false)
	namedReason := `no key of this alias: its key is "server"`
	if named.By != "openssl" { // go-pkcs12 names no key
		namedReason = "has no alias"
	}
	trustOnly := ca.TrustStore(t, dir, "trust.p12", storePassword, "PKCS12")
	certPEM, keyPEM := ca.Server(t, "pem")
	certFile, keyFile := testpki.WriteFile(t, dir, "tls.crt", certPEM), testpki.WriteFile(t, dir, "tls.key", keyPEM)
	missing := filepath.Join(dir, "missing.p12")
	ks := func(path string, more ...string) []string {
		return append([]string{"--server.ssl.key-store=" + path, "--server.ssl.key-store-password=" + storePassword}, more...)
	}
	jksBundle := "--app.ssl.bundle.jks.web."
	const origin = "Origin: command-line argument --"
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"missing file", ks(missing), []string{"Property: server.ssl.key-store", missing, "no such file", origin + "server.ssl.key-store="}},
		{"wrong password", []string{"--server.ssl.key-store=" + p12.Path, "--server.ssl.key-store-password=wrong-" + storePassword},
			[]string{"Property: server.ssl.key-store-password", `Value: "******"`, origin + "server.ssl.key-store-password\n", "wrong password"}},
		{"wrong JKS password", []string{"--server.ssl.key-store=" + oneKey.Path, "--server.ssl.key-store-password=wrong-" + storePassword},
			[]string{"Property: server.ssl.key-store-password", "wrong password"}},
		{"no password", []string{"--server.ssl.key-store=" + p12.Path}, []string{"Property: server.ssl.key-store", "needs a password: set server.ssl.key-store-password"}},
		{"no such alias, JKS", ks(jks.Path, "--server.ssl.key-alias=three"), []string{"Property: server.ssl.key-alias", `Value: "three"`, "no entry of this alias; its keys: one, two"}},
		{"alias of a trusted certificate", ks(jks.Path, "--server.ssl.key-alias=ca"), []string{"Property: server.ssl.key-alias", "a trusted certificate, without a private key"}},
		{"no such alias, PKCS12", ks(named.Path, "--server.ssl.key-alias=tomcat"), []string{"Property: server.ssl.key-alias", namedReason}},
		{"an alias for a key without one", ks(p12.Path, "--server.ssl.key-alias=tomcat"), []string{"Property: server.ssl.key-alias", "has no alias (no friendlyName), which Java calls 1"}},
		{"several keys, no alias", ks(jks.Path), []string{"Property: server.ssl.key-store", "several keys (one, two): set server.ssl.key-alias"}},
		{"wrong key password", ks(oneKey.Path, "--server.ssl.key-password=wrong-key-password"), []string{"Property: server.ssl.key-password", `Value: "******"`, "does not open the key server"}},
		{"PKCS12 key password of its own", ks(p12.Path, "--server.ssl.key-password=other-password"), []string{"Property: server.ssl.key-password", "read with one password"}},
		{"a trust store as key store", ks(trustOnly.Path), []string{"Property: server.ssl.key-store", "holds no private key"}},
		{"PEM as key store", ks(certFile), []string{"Property: server.ssl.key-store", "holds PEM, not a key store"}},
		{"JCEKS", ks(p12.Path, "--server.ssl.key-store-type=JCEKS"), []string{"Property: server.ssl.key-store-type", "JCEKS stores are not read"}},
		{"unsupported type", ks(p12.Path, "--server.ssl.key-store-type=BKS"), []string{"Property: server.ssl.key-store-type", `Value: "BKS"`, "want PKCS12 or JKS"}},
		{"provider", ks(p12.Path, "--server.ssl.key-store-provider=SUN"), []string{"Property: server.ssl.key-store-provider", "no JCA security providers"}},
		{"classpath:", ks("classpath:config/tls/keystore.p12"), []string{"Property: server.ssl.key-store", "a Go service has no class path"}},
		{"a password without a key store", []string{"--server.ssl.key-store-password=" + storePassword, "--server.ssl.key-store-type=PKCS12"},
			[]string{"Property: server.ssl.key-store-password", "belongs to a key store that is not set: set server.ssl.key-store"}},
		{"PEM and a key store", ks(p12.Path, "--server.ssl.certificate="+certFile, "--server.ssl.certificate-private-key="+keyFile),
			[]string{"Property: server.ssl.key-store", "server.ssl.certificate is set too"}},
		{"client-auth without a trust store", ks(p12.Path, "--server.ssl.client-auth=need"),
			[]string{"Property: server.ssl.client-auth", "server.ssl.trust-store"}},
		{"wrong trust store password", ks(p12.Path, "--server.ssl.client-auth=need", "--server.ssl.trust-store="+trustOnly.Path, "--server.ssl.trust-store-password=nope-nope"),
			[]string{"Property: server.ssl.trust-store-password", "does not open the trust store"}},
		{"unknown bundle", []string{"--server.ssl.bundle=web", "--app.ssl.bundle.jks.other.keystore.location=" + p12.Path},
			[]string{"Property: server.ssl.bundle", `Value: "web"`, "no SSL bundle web is declared", "declared: other (jks)"}},
		{"bundle of both kinds", []string{"--server.ssl.bundle=web", jksBundle + "keystore.location=" + p12.Path, "--app.ssl.bundle.pem.web.keystore.certificate=" + certFile},
			[]string{"Property: server.ssl.bundle", "declared twice"}},
		{"bundle and a key store of the port's own", ks(p12.Path, "--server.ssl.bundle=web", jksBundle+"keystore.location="+p12.Path, jksBundle+"keystore.password="+storePassword),
			[]string{"Property: server.ssl.key-store", "server.ssl.bundle names the SSL bundle"}},
		{"PEM bundle whose files do not exist", []string{"--server.ssl.bundle=web", "--app.ssl.bundle.pem.web.keystore.certificate=" + filepath.Join(dir, "no.crt"),
			"--app.ssl.bundle.pem.web.keystore.private-key=" + filepath.Join(dir, "no.key")},
			[]string{"Property: app.ssl.bundle.pem.web.keystore.certificate", "no such file", "Property: app.ssl.bundle.pem.web.keystore.private-key"}},
		{"bundle wrong password, spring. key", []string{"--server.ssl.bundle=web", "--spring.ssl.bundle.jks.web.keystore.location=" + p12.Path,
			"--spring.ssl.bundle.jks.web.keystore.password=wrong-" + storePassword},
			[]string{"Property: spring.ssl.bundle.jks.web.keystore.password", origin + "spring.ssl.bundle.jks.web.keystore.password\n", "wrong password"}},
		{"bundle without a key store", []string{"--server.ssl.bundle=web", jksBundle + "truststore.location=" + trustOnly.Path, jksBundle + "truststore.password=" + storePassword},
			[]string{"Property: server.ssl.bundle", "has no key store"}},
		{"bundle without a trust store, client-auth=need", []string{"--server.ssl.bundle=web", "--server.ssl.client-auth=need",
			jksBundle + "keystore.location=" + p12.Path, jksBundle + "keystore.password=" + storePassword},
			[]string{"Property: server.ssl.client-auth", "the SSL bundle web has no trust store"}},
		{"reload-on-update of base64: content", []string{"--server.ssl.bundle=web", jksBundle + "reload-on-update=true",
			jksBundle + "keystore.location=base64:AAAA", jksBundle + "keystore.password=" + storePassword},
			[]string{"Property: app.ssl.bundle.jks.web.reload-on-update", "keystore.location is not a file"}},
		{"TLS on without a certificate", []string{"--server.ssl.client-auth=want"},
			[]string{"Property: server.ssl.client-auth", "TLS needs the server's certificate", "server.ssl.key-store", "server.ssl.bundle"}},
		{"TLSv1.1", ks(p12.Path, "--server.ssl.enabled-protocols=TLSv1.1,TLSv1.2"), []string{"Property: server.ssl.enabled-protocols", "TLSv1.1 is not offered"}},
		{"no cipher suite Go offers", ks(p12.Path, "--server.ssl.ciphers=TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"), []string{"Property: server.ssl.ciphers", "none of these suites"}},
	} {
		stderr, refused := expectRefused(t, c.name, c.args, c.want)
		if refused && strings.Contains(stderr, storePassword) {
			t.Errorf("%s: the report shows the password:\n%s", c.name, stderr)
		}
	}
}

// TestServerTLSOptions: enabled-protocols and ciphers as Spring's
// Ssl binds them: TLSv1.3 alone refuses a TLS 1.2 client; JHipster's
// list of ciphers (TLS 1.2 suites only, some Go does not implement)
// serves TLS 1.2 with the suites Go has, TLS 1.3 off as in Java, and
// warns about the ones left out, naming the setting and its origin.
func TestServerTLSOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	store := ca.EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
	ks := []string{"--server.ssl.key-store=" + store.Path, "--server.ssl.key-store-password=" + storePassword}
	get := func(s *boottest.Instance, cfg *tls.Config) (*http.Response, error) {
		cfg.RootCAs = ca.Pool()
		c := &http.Client{Timeout: boottest.Timeout, Transport: &http.Transport{TLSClientConfig: cfg}}
		defer c.CloseIdleConnections()
		resp, err := c.Get(httpsURL(s) + "/hello")
		if err == nil {
			resp.Body.Close()
		}
		return resp, err
	}

	tls13 := start(t, append(ks, "--server.ssl.enabled-protocols=TLSv1.3"), nil)
	if _, err := get(tls13, &tls.Config{MaxVersion: tls.VersionTLS12}); err == nil {
		t.Error("enabled-protocols=TLSv1.3: a TLS 1.2 client was served")
	}
	if resp, err := get(tls13, &tls.Config{}); err != nil || resp.TLS.Version != tls.VersionTLS13 {
		t.Errorf("enabled-protocols=TLSv1.3: %v, want served over TLS 1.3", err)
	}

	jhipster := "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"
	s := start(t, append(ks, "--server.ssl.enabled-protocols=TLSv1.2", "--server.ssl.ciphers="+jhipster), nil)
	resp, err := get(s, &tls.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.TLS.Version != tls.VersionTLS12 || tls.CipherSuiteName(resp.TLS.CipherSuite) != "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384" &&
		tls.CipherSuiteName(resp.TLS.CipherSuite) != "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256" {
		t.Errorf("served with %s over %x, want a listed suite over TLS 1.2", tls.CipherSuiteName(resp.TLS.CipherSuite), resp.TLS.Version)
	}
	if _, err := get(s, &tls.Config{CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256}, MaxVersion: tls.VersionTLS12}); err == nil {
		t.Error("a suite not listed was served")
	}
	s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="cipher suites that Go's TLS does not offer are left out: TLS_DHE_RSA_WITH_AES_128_GCM_SHA256" key=server.ssl.ciphers origin="command-line argument --server.ssl.ciphers=`))

	noTLS13 := start(t, append(ks, "--server.ssl.ciphers=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"), nil)
	if resp, err := get(noTLS13, &tls.Config{}); err != nil || resp.TLS.Version != tls.VersionTLS12 {
		t.Errorf("ciphers without a TLS 1.3 suite: %v, want served over TLS 1.2 (TLS 1.3 off, as in Java)", err)
	}
}

// TestManagementTLSBundle: management.server.ssl.bundle serves the
// management port of its own with a bundle of its own, and server.port
// with server.ssl's.
func TestManagementTLSBundle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	serverCA, managementCA := testpki.NewCA(t, "server CA"), testpki.NewCA(t, "management CA")
	server := serverCA.EncodePKCS12(t, dir, "server.p12", storePassword, "server", false)
	management := managementCA.JKS(t, dir, "management.jks", storePassword, "management", "")
	s := start(t, []string{"--management.server.port=0",
		"--server.ssl.key-store=" + server.Path, "--server.ssl.key-store-password=" + storePassword,
		"--management.server.ssl.bundle=admin", "--app.ssl.bundle.jks.admin.keystore.location=" + management.Path,
		"--app.ssl.bundle.jks.admin.keystore.password=" + storePassword}, nil)
	if got := servedCertificate(t, server.Trust, s.URL); !got.Equal(server.Cert) {
		t.Errorf("server.port served %s, want server.ssl.key-store's", got.Subject)
	}
	resp, err := trustingClient(management.Trust, nil).Get(https(s.ManagementURL) + "/actuator/health")
	if err != nil {
		t.Fatalf("GET https /actuator/health on the management port: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !resp.TLS.PeerCertificates[0].Equal(management.Cert) {
		t.Errorf("the management port: %d with %s, want 200 with the bundle's certificate", resp.StatusCode, resp.TLS.PeerCertificates[0].Subject)
	}
	if r := send(t, nil, "GET", s.ManagementURL+"/actuator/health", ""); r.status != http.StatusBadRequest {
		t.Errorf("plain GET to the management port: %d, want 400", r.status)
	}
	expectRefused(t, "management bundle unknown", []string{"--management.server.port=0", "--management.server.ssl.bundle=nope"},
		[]string{"Property: management.server.ssl.bundle", "no SSL bundle nope is declared"})
}

// TestSSLBundleKeysUnread: the keys of a bundle that nothing names are
// warned about as any key nothing reads; the keys of the bundle that
// server.ssl.bundle names are read, and not warned about.
func TestSSLBundleKeysUnread(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := testpki.NewCA(t, "CA").EncodePKCS12(t, dir, "keystore.p12", storePassword, "server", false)
	s := start(t, []string{"--server.ssl.bundle=web",
		"--app.ssl.bundle.jks.web.keystore.location=" + store.Path, "--app.ssl.bundle.jks.web.keystore.password=" + storePassword,
		"--app.ssl.bundle.jks.foo.keystore.location=/etc/foo.p12", "--spring.ssl.bundle.pem.bar.keystore.certificate=/etc/bar.crt"}, nil)
	got := warnings(s.Stdout.String())
	for _, key := range []string{"app.ssl.bundle.jks.foo.keystore.location", "spring.ssl.bundle.pem.bar.keystore.certificate"} {
		if !slicesContainsSubstring(got, "key="+key+" ") {
			t.Errorf("no warning about %s, which nothing reads:\n%s", key, strings.Join(got, "\n"))
		}
	}
	if slicesContainsSubstring(got, "key=app.ssl.bundle.jks.web.") {
		t.Errorf("a key of the bundle served is warned about:\n%s", strings.Join(got, "\n"))
	}
}

func slicesContainsSubstring(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// TestSSLPasswordsMasked: the stores' passwords are shown as ******
// by /actuator/env and /actuator/configprops, even with
// show-values=always, under every key that holds one.
func TestSSLPasswordsMasked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	store := ca.JKS(t, dir, "keystore.jks", storePassword, "server", "")
	trust := ca.TrustStore(t, dir, "truststore.p12", storePassword, "PKCS12")
	mgmt := ca.EncodePKCS12(t, dir, "management.p12", storePassword, "management", false)
	s := start(t, []string{"--management.endpoints.web.exposure.include=env,configprops",
		"--management.endpoint.env.show-values=always", "--management.endpoint.configprops.show-values=always",
		"--server.ssl.key-store=" + store.Path, "--server.ssl.key-store-password=" + storePassword,
		"--server.ssl.key-password=" + storePassword, "--server.ssl.trust-store=" + trust.Path,
		"--server.ssl.trust-store-password=" + storePassword,
		"--management.server.port=0", "--management.server.ssl.bundle=m",
		"--spring.ssl.bundle.jks.m.keystore.location=" + mgmt.Path, "--spring.ssl.bundle.jks.m.keystore.password=" + storePassword,
		"--spring.ssl.bundle.jks.m.key.password=" + storePassword}, nil)
	c := trustingClient(ca.Pool(), nil)
	for _, path := range []string{"/actuator/env", "/actuator/configprops", "/actuator/env/server.ssl.key-store-password",
		"/actuator/env/spring.ssl.bundle.jks.m.keystore.password", "/actuator/env/app.ssl.bundle.jks.m.key.password"} {
		r := send(t, c, "GET", https(s.ManagementURL)+path, "")
		if r.status != http.StatusOK || strings.Contains(r.body, storePassword) {
			t.Errorf("%s: %d, and the body shows a password:\n%s", path, r.status, r.body)
		}
		if strings.HasSuffix(path, "password") && !strings.Contains(r.body, "******") {
			t.Errorf("%s: %s, want the value masked", path, r.body)
		}
	}
	r := send(t, c, "GET", https(s.ManagementURL)+"/actuator/configprops", "")
	for _, key := range []string{"key-store-password", "trust-store-password", "key-password"} {
		if !strings.Contains(r.body, `"`+key+`":"******"`) {
			t.Errorf("configprops does not list %s masked:\n%s", key, r.body)
		}
	}
}

// TestServerTLSEncryptedPEMBundle: a PEM bundle's private key encrypted
// as PKCS#8 (openssl pkcs8 -topk8 -v2 aes-256-cbc) is served with its
// keystore.private-key-password; a wrong password is refused under that
// setting, and server.ssl.certificate-private-key, which has no password
// setting in Spring, refuses an encrypted key saying so.
func TestServerTLSEncryptedPEMBundle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	certPEM, keyPEM := ca.Server(t, "server")
	pair, _ := tls.X509KeyPair(certPEM, keyPEM)
	certFile := testpki.WriteFile(t, dir, "tls.crt", certPEM)
	keyFile := testpki.WriteFile(t, dir, "tls.key", testpki.EncryptedKey(t, dir, keyPEM, storePassword))
	b := "--app.ssl.bundle.pem.web."
	bundle := []string{"--server.ssl.bundle=web", b + "keystore.certificate=" + certFile, b + "keystore.private-key=" + keyFile}
	checkHTTPSOnly(t, start(t, append(bundle, b+"keystore.private-key-password="+storePassword), nil),
		testpki.Store{Trust: ca.Pool(), Cert: pair.Leaf})
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"wrong password", append(bundle, b+"keystore.private-key-password=wrong-"+storePassword),
			[]string{"Property: app.ssl.bundle.pem.web.keystore.private-key-password", "does not decrypt the private key"}},
		{"no password", bundle, []string{"Property: app.ssl.bundle.pem.web.keystore.private-key", "set its password, app.ssl.bundle.pem.web.keystore.private-key-password"}},
		{"server.ssl", []string{"--server.ssl.certificate=" + certFile, "--server.ssl.certificate-private-key=" + keyFile},
			[]string{"Property: server.ssl.certificate-private-key", "the key is encrypted"}},
	} {
		if stderr, refused := expectRefused(t, c.name, c.args, c.want); refused && strings.Contains(stderr, storePassword) {
			t.Errorf("%s: the report shows the password:\n%s", c.name, stderr)
		}
	}
}

// TestUnservedTLSKeysRefused: a key under server.ssl. or
// management.server.ssl. that this server does not serve (Spring's SNI
// bundles) stops start-up, naming it, rather than being warned about as a
// typo is; the keys it serves are read in any form (keyStorePassword).
func TestUnservedTLSKeysRefused(t *testing.T) {
	t.Parallel()
	store := testpki.NewCA(t, "test CA").EncodePKCS12(t, t.TempDir(), "keystore.p12", storePassword, "server", false)
	stores := []string{"--server.ssl.keyStore=" + store.Path, "--server.ssl.keyStorePassword=" + storePassword}
	for _, key := range []string{"server.ssl.server-name-bundles[0].server-name", "management.server.ssl.serverNameBundles[0].bundle"} {
		stderr, err := boottest.FailToStart(t, tester(), append([]string{"--server.port=0", "--management.server.port=0", "--" + key + "=a.example"}, stores...), nil)
		if err == nil {
			t.Errorf("--%s: started, the key ignored", key)
			continue
		}
		for _, want := range []string{"Property: " + key, "Origin: command-line argument --" + key, "does not serve"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("--%s: the report does not say %q:\n%s", key, want, stderr)
			}
		}
		if strings.Contains(stderr, "keyStore") {
			t.Errorf("--%s: the report refuses a key it serves, in another form:\n%s", key, stderr)
		}
	}
	checkHTTPSOnly(t, start(t, stores, nil), store)
}
