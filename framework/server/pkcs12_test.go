package server_test

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/server"
	"github.com/springport/greeter/framework/ssl"
	"github.com/springport/greeter/framework/testing/testpki"
)

// TestPKCS12WithoutItsStarter: in a service that does not name the PKCS#12
// starter (this test binary imports none), a PKCS#12 key store asked for
// stops start-up, naming the setting and the starter to add: TLS asked
// for is served or refused, never ignored. A JKS store needs no starter.
func TestPKCS12WithoutItsStarter(t *testing.T) {
	t.Parallel()
	ca := testpki.NewCA(t, "test CA")
	const password = "changeit"
	for _, c := range []struct {
		store   testpki.Store
		refused bool
	}{
		{ca.EncodePKCS12(t, t.TempDir(), "keystore.p12", password, "server", false), true},
		{ca.JKS(t, t.TempDir(), "keystore.jks", password, "server", ""), false},
	} {
		env, err := config.Load(config.Options{Args: []string{"--server.ssl.key-store=" + c.store.Path, "--server.ssl.key-store-password=" + password}})
		if err != nil {
			t.Fatal(err)
		}
		b := config.NewBinder(env)
		s := server.Bind(b)
		err = b.Err()
		switch {
		case c.refused && err == nil:
			t.Errorf("%s: bound without the PKCS#12 starter", c.store.Path)
		case c.refused && (!strings.Contains(err.Error(), ssl.PKCS12Starter) || !strings.Contains(err.Error(), "server.ssl.key-store")):
			t.Errorf("%s: the refusal does not name the setting and the starter: %v", c.store.Path, err)
		case c.refused && strings.Contains(err.Error(), password):
			t.Errorf("%s: the refusal shows the password: %v", c.store.Path, err)
		case !c.refused && (err != nil || s.TLS == nil):
			t.Errorf("%s: a JKS store without the starter: TLS %v, %v; want it served", c.store.Path, s.TLS != nil, err)
		}
	}
}
