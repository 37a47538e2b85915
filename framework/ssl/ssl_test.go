package ssl_test

import (
	"crypto/tls"
	"crypto/x509"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
	// PKCS#12 stores are read by their starter, as in a service that names it.
	_ "github.com/springport/greeter/framework/starter/pkcs12"
	"github.com/springport/greeter/framework/testing/testpki"
)

// binder loads args alone (no files, no environment) into a Binder.
func binder(t *testing.T, args ...string) *config.Binder {
	t.Helper()
	env, err := config.Load(config.Options{Args: args, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return config.NewBinder(env)
}

// TestBindClientJKS: a JKS bundle named by a client setting (Redis's
// app.data.redis.ssl.bundle) gives the client its trust store's CA, to
// verify the server with, and its key store's certificate, to present.
func TestBindClientJKS(t *testing.T) {
	dir := t.TempDir()
	serverCA, clientCA := testpki.NewCA(t, "server CA"), testpki.NewCA(t, "client CA")
	trust := serverCA.TrustStore(t, dir, "trust.jks", "changeit", "JKS")
	key := clientCA.JKS(t, dir, "client.jks", "changeit", "client", "")
	p := "--spring.ssl.bundle.jks.redis."
	b := binder(t, p+"truststore.location="+trust.Path, p+"truststore.password=changeit",
		p+"keystore.location="+key.Path, p+"keystore.password=changeit", p+"options.enabled-protocols=TLSv1.3")
	cfg := ssl.BindClient(b, "app.data.redis.ssl.bundle", "redis")
	if err := b.Err(); err != nil || cfg == nil {
		t.Fatalf("BindClient: %v", err)
	}
	server, err := tls.X509KeyPair(serverCA.Server(t, "redis"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.Leaf.Verify(x509.VerifyOptions{Roots: cfg.RootCAs}); err != nil {
		t.Errorf("the server's certificate does not verify against the trust store: %v", err)
	}
	if len(cfg.Certificates) != 1 || !cfg.Certificates[0].Leaf.Equal(key.Cert) {
		t.Errorf("the client certificate is not the key store's: %+v", cfg.Certificates)
	}
	if cfg.MinVersion != tls.VersionTLS13 {
		t.Errorf("MinVersion %x, want TLS 1.3 from options.enabled-protocols", cfg.MinVersion)
	}
}

// TestBindClientRefused: an unknown bundle and a trust store that its
// password does not open are refused, the password never in the reason.
func TestBindClientRefused(t *testing.T) {
	dir := t.TempDir()
	trust := testpki.NewCA(t, "CA").TrustStore(t, dir, "trust.p12", "changeit", "PKCS12")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no SSL bundle redis is declared"},
		{[]string{"--app.ssl.bundle.jks.redis.truststore.location=" + trust.Path, "--app.ssl.bundle.jks.redis.truststore.password=hunter22"},
			"app.ssl.bundle.jks.redis.truststore.password=\"******\""},
	} {
		b := binder(t, c.args...)
		if cfg := ssl.BindClient(b, "app.data.redis.ssl.bundle", "redis"); cfg != nil {
			t.Errorf("%v: a configuration, want none", c.args)
		}
		err := b.Err()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter22") {
			t.Errorf("%v: %v, want %q and no password", c.args, err, c.want)
		}
	}
}
