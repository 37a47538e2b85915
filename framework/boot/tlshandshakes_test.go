package boot_test

// Failed TLS handshakes: counted by reason in tls.handshake.failures and
// logged at DEBUG, not one WARN line each; WARN once a minute for those
// the port's own settings cause.

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// pemTLS are the arguments of server.ssl from a new CA's server
// certificate, written under a temporary folder.
func pemTLS(t *testing.T) ([]string, *testpki.CA) {
	t.Helper()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	certPEM, keyPEM := ca.Server(t, "server")
	return []string{"--server.ssl.certificate=" + testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM)}, ca
}

// promValue is the value of series (name{labels} as the text format
// writes it) in an /actuator/prometheus answer, and whether it is there.
func promValue(body, series string) (float64, bool) {
	for line := range strings.Lines(body) {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v, err == nil
		}
	}
	return 0, false
}

// failures is tls_handshake_failures_total{reason} of s, read from
// /actuator/prometheus over HTTPS (client trusts its CA).
func failures(t *testing.T, s *boottest.Instance, client *http.Client, reason string) float64 {
	t.Helper()
	body := send(t, client, "GET", httpsURL(s)+"/actuator/prometheus", "").body
	v, ok := promValue(body, `tls_handshake_failures_total{reason="`+reason+`"}`)
	if !ok {
		t.Fatalf("/actuator/prometheus has no tls_handshake_failures_total{reason=%q}:\n%s", reason, grepLines(body, "tls_"))
	}
	return v
}

var warnLine = regexp.MustCompile(`(?m)^.*level=WARN.*$`)

// TestTLSHandshakeFloodIsCounted: 3,000 bare TCP connections closed
// before any handshake (a load balancer's check, a scanner) write no
// WARN line and no line at all at the default level, and
// tls_handshake_failures_total counts them as eof; a plain HTTP request
// to the port counts as http_to_https, a client that does not trust the
// server as bad_certificate; /actuator/metrics names the meter
// tls.handshake.failures.
func TestTLSHandshakeFloodIsCounted(t *testing.T) {
	t.Parallel()
	args, ca := pemTLS(t)
	s := start(t, append(args, exposeAll), nil)
	client := httpsClient(ca, nil)
	before := len(strings.Split(s.Stdout.String(), "\n"))

	const flood = 3000
	for range flood {
		c, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatalf("dial %d: %v", flood, err)
		}
		c.Close()
	}
	boottest.WaitFor(t, fmt.Sprintf("%d failures counted as eof", flood), func() bool { return failures(t, s, client, "eof") >= flood })
	if got := failures(t, s, client, "eof"); got != flood {
		t.Errorf("tls_handshake_failures_total{reason=\"eof\"} = %v, want %d", got, flood)
	}
	out := s.Stdout.String()
	if w := warnLine.FindAllString(out, -1); len(w) > 0 {
		t.Errorf("%d WARN lines after %d bare connections, want none; the first: %s", len(w), flood, w[0])
	}
	// At the default level, nothing of them: what was written since is
	// at most the requests' own lines (none at INFO without the access
	// log) and a few of start-up's finishing.
	if lines := len(strings.Split(out, "\n")) - before; lines > 10 {
		t.Errorf("%d log lines after %d bare connections, want a bounded few:\n%s", lines, flood, boottest.Tail(out, 20))
	}

	// Plain HTTP to the HTTPS port.
	if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != 400 {
		t.Errorf("plain GET to the TLS port: %d, want net/http's 400", r.status)
	}
	boottest.WaitFor(t, "the plain request counted as http_to_https", func() bool { return failures(t, s, client, "http_to_https") == 1 })

	// A client that refuses the server's certificate.
	if _, err := httpsClient(testpki.NewCA(t, "other CA"), nil).Get(httpsURL(s) + "/hello"); err == nil {
		t.Fatal("a client trusting another CA got an answer")
	}
	boottest.WaitFor(t, "the refused certificate counted as bad_certificate", func() bool { return failures(t, s, client, "bad_certificate") == 1 })

	r := send(t, client, "GET", httpsURL(s)+"/actuator/metrics/tls.handshake.failures", "")
	if r.status != 200 || !strings.Contains(r.body, `"reason"`) || !strings.Contains(r.body, `"eof"`) {
		t.Errorf("GET /actuator/metrics/tls.handshake.failures: %d %s, want the meter with its reason tag", r.status, r.body)
	}
	if w := warnLine.FindAllString(s.Stdout.String(), -1); len(w) > 0 {
		t.Errorf("WARN lines for clients' failures, want none: %s", strings.Join(w, "\n"))
	}
}

// TestTLSHandshakeFailuresAtDebug: logging.level.<service>.server=debug
// shows each failed handshake, with its reason and the client's address.
func TestTLSHandshakeFailuresAtDebug(t *testing.T) {
	t.Parallel()
	args, _ := pemTLS(t)
	s := start(t, append(args, "--logging.level.tester.server=debug"), nil)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	local := c.LocalAddr().String()
	c.Close()
	line := s.WaitForLog(t, regexp.MustCompile(`level=DEBUG msg="TLS handshake failed" remote=`+regexp.QuoteMeta(local)+` reason=eof`))
	if len(line) == 0 {
		t.Fatal("no DEBUG line for the failed handshake")
	}
}

// TestTLSClientAuthRefusalCounted: with client-auth=need, a client
// without a certificate is counted as no_client_certificate, and logged
// at no WARN.
func TestTLSClientAuthRefusalCounted(t *testing.T) {
	t.Parallel()
	args, ca := pemTLS(t)
	dir := t.TempDir()
	clientCA := testpki.NewCA(t, "client CA")
	s := start(t, append(args, exposeAll, "--server.ssl.client-auth=need",
		"--server.ssl.trust-certificate="+testpki.WriteFile(t, dir, "clients.crt", clientCA.PEM)), nil)
	for range 3 {
		c := httpsClient(ca, nil)
		if _, err := c.Get(httpsURL(s) + "/hello"); err == nil {
			t.Fatal("a client without a certificate was served under client-auth=need")
		}
		c.CloseIdleConnections()
	}
	pair := clientCA.ClientCertificate(t, "client")
	client := httpsClient(ca, &pair)
	boottest.WaitFor(t, "3 no_client_certificate", func() bool { return failures(t, s, client, "no_client_certificate") == 3 })
	if w := warnLine.FindAllString(s.Stdout.String(), -1); len(w) > 0 {
		t.Errorf("WARN lines for refused clients, want none: %s", strings.Join(w, "\n"))
	}
}

// TestTLSSettingsRefusingClientsWarnOnce: with
// server.ssl.enabled-protocols=TLSv1.3, clients offering TLS 1.2 alone
// are refused because of the port's settings: one WARN names the
// setting, and the next within a minute write none; all are counted as
// protocol_version.
func TestTLSSettingsRefusingClientsWarnOnce(t *testing.T) {
	t.Parallel()
	args, ca := pemTLS(t)
	s := start(t, append(args, exposeAll, "--server.ssl.enabled-protocols=TLSv1.3"), nil)
	const refused = 5
	for range refused {
		c, err := tls.Dial("tcp", s.Addr(), &tls.Config{RootCAs: ca.Pool(), MaxVersion: tls.VersionTLS12})
		if err == nil {
			c.Close()
			t.Fatal("a TLS 1.2 client was served with enabled-protocols=TLSv1.3")
		}
	}
	client := httpsClient(ca, nil)
	boottest.WaitFor(t, "the refused clients counted", func() bool { return failures(t, s, client, "protocol_version") == refused })
	w := warnLine.FindAllString(s.Stdout.String(), -1)
	if len(w) != 1 || !strings.Contains(w[0], "key=server.ssl.enabled-protocols") || !strings.Contains(w[0], "failures=1") {
		t.Errorf("WARN lines: %q, want one naming server.ssl.enabled-protocols", w)
	}
}
