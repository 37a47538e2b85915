package boot_test

// A reload that fails is logged: one WARN per change of the files,
// naming the setting and why, never their content; the certificate read
// before is still served; a good file is then picked up, with an INFO.

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

var (
	reloadFailed = regexp.MustCompile(`(?m)^.*level=WARN msg="the TLS files changed but cannot be read.*$`)
	reloaded     = regexp.MustCompile(`(?m)^.*level=INFO msg="the TLS files changed and were read again.*$`)
)

// servedBy reports whether s serves a certificate that a client
// trusting ca accepts, on a new connection.
func servedBy(s *boottest.Instance, ca *testpki.CA) bool {
	c := httpsClient(ca, nil)
	defer c.CloseIdleConnections()
	resp, err := c.Get(httpsURL(s) + "/hello")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// keepChecking makes handshakes with the first certificate for a little
// over two reload checks (a check is made at most once a second), each
// of which must still be served it: the checks after the one that
// warned, which must not warn again.
func keepChecking(t *testing.T, s *boottest.Instance, ca *testpki.CA) {
	t.Helper()
	for end := time.Now().Add(2200 * time.Millisecond); time.Now().Before(end); {
		if !servedBy(s, ca) {
			t.Fatal("the certificate read before is no longer served")
		}
		time.Sleep(100 * time.Millisecond) // pace the handshakes, not a wait for an event
	}
}

// TestTLSReloadFailureWarnsOncePerChange: each file change the issue
// lists (garbage, a half-written PEM, a key that does not match, the
// files deleted) gives exactly one WARN naming the setting and why,
// whatever the handshakes after it; the old certificate keeps being
// served; then a good certificate is served, and an INFO says so.
func TestTLSReloadFailureWarnsOncePerChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, second := testpki.NewCA(t, "first CA"), testpki.NewCA(t, "second CA")
	certPEM, keyPEM := first.Server(t, "server")
	certPath, keyPath := testpki.WriteFile(t, dir, "server.crt", certPEM), testpki.WriteFile(t, dir, "server.key", keyPEM)
	s := start(t, []string{"--server.ssl.certificate=" + certPath, "--server.ssl.certificate-private-key=" + keyPath}, nil)
	if !servedBy(s, first) {
		t.Fatal("the first certificate is not served")
	}
	_, otherKey := first.Server(t, "other")
	cases := []struct {
		name   string
		change func()
		want   []string // in the WARN line
	}{
		{"garbage", func() { testpki.WriteFile(t, dir, "server.crt", []byte("garbage\x00\x01 not a certificate")) },
			[]string{"key=server.ssl.certificate", "reason="}},
		{"half-written PEM", func() { testpki.WriteFile(t, dir, "server.crt", certPEM[:len(certPEM)/2]) },
			[]string{"key=server.ssl.certificate", "reason="}},
		{"mismatched key", func() {
			testpki.WriteFile(t, dir, "server.crt", certPEM)
			testpki.WriteFile(t, dir, "server.key", otherKey)
		}, []string{"key=server.ssl.certificate", "private key does not match"}},
		{"deleted files", func() {
			for _, p := range []string{certPath, keyPath} {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}
		}, []string{"server.ssl.certificate", "server.ssl.certificate-private-key", "no such file"}},
	}
	later := time.Now()
	for i, c := range cases {
		c.change()
		later = later.Add(time.Minute)
		for _, p := range []string{certPath, keyPath} {
			os.Chtimes(p, later, later) // a deleted file has none: its absence is the change
		}
		boottest.WaitFor(t, c.name+": a WARN", func() bool {
			servedBy(s, first)
			return len(reloadFailed.FindAllString(s.Stdout.String(), -1)) > i
		})
		keepChecking(t, s, first)
		warns := reloadFailed.FindAllString(s.Stdout.String(), -1)
		if len(warns) != i+1 {
			t.Fatalf("%s: %d reload WARN lines in all, want %d:\n%s", c.name, len(warns), i+1, strings.Join(warns, "\n"))
		}
		for _, w := range c.want {
			if !strings.Contains(warns[i], w) {
				t.Errorf("%s: the WARN does not say %q: %s", c.name, w, warns[i])
			}
		}
		if strings.Contains(warns[i], "BEGIN") || strings.Contains(warns[i], "garbage") || strings.Contains(warns[i], string(keyPEM[40:70])) {
			t.Errorf("%s: the WARN shows the files' content: %s", c.name, warns[i])
		}
	}
	if reloaded.MatchString(s.Stdout.String()) {
		t.Error("an INFO says the files were read again, while none could be")
	}

	certPEM, keyPEM = second.Server(t, "server")
	testpki.WriteFile(t, dir, "server.key", keyPEM)
	testpki.WriteFile(t, dir, "server.crt", certPEM)
	touchLater(t, certPath, keyPath)
	boottest.WaitFor(t, "the good certificate to be served", func() bool { return servedBy(s, second) })
	if line := reloaded.FindString(s.Stdout.String()); !strings.Contains(line, "tls=server.ssl") || !strings.Contains(line, `subject="CN=server"`) {
		t.Errorf("the INFO of the reload: %q, want one naming server.ssl and the certificate's subject", line)
	}
}

// TestTLSBundleReloadFailureWarns: a PEM bundle with reload-on-update
// names its own setting when its certificate cannot be read again.
func TestTLSBundleReloadFailureWarns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	certPEM, keyPEM := ca.Server(t, "server")
	certPath := testpki.WriteFile(t, dir, "server.crt", certPEM)
	const bundle = "app.ssl.bundle.pem.web."
	s := start(t, []string{"--server.ssl.bundle=web", "--" + bundle + "reload-on-update=true",
		"--" + bundle + "keystore.certificate=" + certPath,
		"--" + bundle + "keystore.private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM)}, nil)
	testpki.WriteFile(t, dir, "server.crt", []byte("-----BEGIN CERTIFICATE-----\nMIIB"))
	touchLater(t, certPath)
	boottest.WaitFor(t, "a WARN", func() bool { servedBy(s, ca); return reloadFailed.MatchString(s.Stdout.String()) })
	if w := reloadFailed.FindString(s.Stdout.String()); !strings.Contains(w, "key="+bundle+"keystore.certificate") || strings.Contains(w, "MIIB") {
		t.Errorf("the WARN: %s, want it to name %skeystore.certificate, without the file's content", w, bundle)
	}
}
