package boot_test

// management.server.ssl: the TLS of a management port of its own. As in
// Spring Boot, it takes server.ssl's until one of management.server.ssl.*
// is set, and then comes from those alone.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/testing/testpki"
)

// TestManagementTLS: the management port of its own serves HTTPS with
// server.ssl's certificate when management.server.ssl is unset, its own
// certificate when management.server.ssl.certificate is set, and plain
// HTTP with management.server.ssl.enabled=false; its actuator links say
// the scheme it is served with.
func TestManagementTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	serverCA, managementCA := testpki.NewCA(t, "server CA"), testpki.NewCA(t, "management CA")
	serverCert, serverKey := serverCA.Server(t, "server")
	managementCert, managementKey := managementCA.Server(t, "management")
	serverTLS := []string{"--management.server.port=0",
		"--server.ssl.certificate=" + testpki.WriteFile(t, dir, "server.crt", serverCert),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", serverKey)}
	ownTLS := []string{"--management.server.ssl.certificate=" + testpki.WriteFile(t, dir, "management.crt", managementCert),
		"--management.server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "management.key", managementKey)}
	// healthLink checks that the management port answers /actuator to a
	// client trusting ca over root (http:// or https://...), with a link
	// to its health under the same root.
	healthLink := func(name string, client *http.Client, root string) {
		t.Helper()
		r := send(t, client, "GET", root+"/actuator", "")
		if want := `"href":"` + root + `/actuator/health"`; r.status != http.StatusOK || !strings.Contains(r.body, want) {
			t.Errorf("%s: GET %s/actuator: %d %s, want a link %s", name, root, r.status, r.body, want)
		}
	}

	t.Run("inherited", func(t *testing.T) {
		t.Parallel()
		s := start(t, serverTLS, nil)
		healthLink("server.ssl alone", httpsClient(serverCA, nil), https(s.ManagementURL))
	})
	t.Run("its own certificate", func(t *testing.T) {
		t.Parallel()
		s := start(t, append(serverTLS, ownTLS...), nil)
		healthLink("management.server.ssl.certificate", httpsClient(managementCA, nil), https(s.ManagementURL))
		if _, err := httpsClient(serverCA, nil).Get(https(s.ManagementURL) + "/actuator/health"); err == nil {
			t.Error("the management port served server.ssl's certificate, want management.server.ssl's")
		}
		if r := send(t, httpsClient(serverCA, nil), "GET", httpsURL(s)+"/hello", ""); r.status != http.StatusOK {
			t.Errorf("server.port with server.ssl's certificate: %d, want 200", r.status)
		}
	})
	t.Run("off beside a service on HTTPS", func(t *testing.T) {
		t.Parallel()
		s := start(t, append(serverTLS, "--management.server.ssl.enabled=false"), nil)
		healthLink("management.server.ssl.enabled=false", nil, s.ManagementURL)
		if r := send(t, httpsClient(serverCA, nil), "GET", httpsURL(s)+"/hello", ""); r.status != http.StatusOK {
			t.Errorf("server.port with server.ssl's certificate: %d, want 200", r.status)
		}
	})
	t.Run("on beside a service on HTTP", func(t *testing.T) {
		t.Parallel()
		s := start(t, append([]string{"--management.server.port=0"}, ownTLS...), nil)
		healthLink("management.server.ssl alone", httpsClient(managementCA, nil), https(s.ManagementURL))
		if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != http.StatusOK {
			t.Errorf("server.port over plain HTTP: %d, want 200", r.status)
		}
	})
}

// TestManagementTLSRefused: bad management.server.ssl settings stop
// start-up naming the management setting; sharing server.port, they are
// not read at all, as Spring ignores them then.
func TestManagementTLSRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"enabled without a certificate", []string{"--management.server.ssl.enabled=true"}, []string{"management.server.ssl.enabled", "management.server.ssl.certificate"}},
		{"certificate without a key", []string{"--management.server.ssl.certificate=/nonexistent.crt"}, []string{"management.server.ssl.certificate", "management.server.ssl.certificate-private-key"}},
		{"bad client-auth", []string{"--management.server.ssl.client-auth=always"}, []string{"management.server.ssl.client-auth", "always"}},
	} {
		expectRefused(t, c.name, append([]string{"--server.port=0", "--management.server.port=0"}, c.args...), c.want)
	}
	s := start(t, []string{"--management.server.ssl.enabled=true"}, nil)
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != http.StatusOK {
		t.Errorf("management.server.ssl.enabled=true sharing server.port: GET /actuator/health %d, want 200 over plain HTTP", r.status)
	}
}
