package boot_test

// The served certificates' validity, as Spring Boot publishes it: the
// ssl health component (SslHealthIndicator), /actuator/info's ssl
// (SslInfoContributor, with management.info.ssl.enabled) and the gauges
// ssl.chain.expiry and ssl.chains (SslMeterBinder).

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// sslHealth is /actuator/health's status and its ssl component.
type sslHealth struct {
	Status     string
	Components map[string]sslComponent
}

type sslComponent struct {
	Status  string                 `json:"status"`
	Details map[string][]chainJSON `json:"details"`
}

type chainJSON struct {
	Alias        string `json:"alias"`
	Certificates []struct {
		Subject                string `json:"subject"`
		Issuer                 string `json:"issuer"`
		SerialNumber           string `json:"serialNumber"`
		Version                string `json:"version"`
		SignatureAlgorithmName string `json:"signatureAlgorithmName"`
		ValidityStarts         string `json:"validityStarts"`
		ValidityEnds           string `json:"validityEnds"`
		Validity               struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"validity"`
	} `json:"certificates"`
}

// leafOf is the certificate of certPEM.
func leafOf(t *testing.T, certPEM []byte) *x509.Certificate {
	t.Helper()
	block, _ := pem.Decode(certPEM)
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// healthOf reads /actuator/health of s over client, with its status.
func healthOf(t *testing.T, client *http.Client, url string) (int, sslHealth) {
	t.Helper()
	r := send(t, client, "GET", url+"/actuator/health", "")
	all := decode[struct {
		Status     string                     `json:"status"`
		Components map[string]json.RawMessage `json:"components"`
	}](t, r)
	var c sslComponent
	if err := json.Unmarshal(all.Components["ssl"], &c); err != nil {
		t.Fatalf("GET %s/actuator/health: the ssl component: %v\n%s", url, err, r.body)
	}
	return r.status, sslHealth{Status: all.Status, Components: map[string]sslComponent{"ssl": c}}
}

// TestSSLCertificateExpiringSoon: a certificate that ends in 3 days is
// WILL_EXPIRE_SOON in the ssl health component, which stays UP with the
// chain under validChains (and Boot 4's expiringChains); /actuator/info
// shows it under ssl with management.info.ssl.enabled=true, in
// SslInfo's shape; ssl_chain_expiry_seconds is the seconds it has left,
// and ssl_chains counts it as will-expire-soon.
func TestSSLCertificateExpiringSoon(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	now := time.Now()
	certPEM, keyPEM := ca.ServerValid(t, "soon", now.Add(-time.Hour), now.Add(72*time.Hour))
	leaf := leafOf(t, certPEM)
	s := start(t, []string{exposeAll, "--management.endpoint.health.show-details=always", "--management.info.ssl.enabled=true",
		"--server.ssl.certificate=" + testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM)}, nil)
	client := httpsClient(ca, nil)

	status, h := healthOf(t, client, httpsURL(s))
	c := h.Components["ssl"]
	if status != http.StatusOK || h.Status != "UP" || c.Status != "UP" {
		t.Fatalf("/actuator/health: %d %s, ssl %s, want 200 UP with ssl UP", status, h.Status, c.Status)
	}
	valid := c.Details["validChains"]
	if len(valid) != 1 || len(c.Details["invalidChains"]) != 0 || len(c.Details["expiringChains"]) != 1 {
		t.Fatalf("ssl details: %+v, want one valid chain, expiring, none invalid", c.Details)
	}
	chain := valid[0]
	if chain.Alias != "ssl" || len(chain.Certificates) != 1 {
		t.Fatalf("the chain: %+v, want alias ssl (Spring's for PEM) and the one certificate", chain)
	}
	cert := chain.Certificates[0]
	if cert.Validity.Status != "WILL_EXPIRE_SOON" || !strings.HasPrefix(cert.Validity.Message, "Certificate will expire within threshold (PT336H) at ") {
		t.Errorf("validity: %+v, want WILL_EXPIRE_SOON within Spring's 14 days (PT336H)", cert.Validity)
	}
	wantEnds := leaf.NotAfter.UTC().Format(time.RFC3339)
	if cert.Subject != "CN=soon" || cert.Issuer != "CN=CA" || cert.SerialNumber != leaf.SerialNumber.Text(16) || cert.Version != "V3" ||
		cert.SignatureAlgorithmName != "SHA256withECDSA" || cert.ValidityEnds != wantEnds {
		t.Errorf("certificate: %+v, want CN=soon by CN=CA, serial %s, V3, SHA256withECDSA, ending %s", cert, leaf.SerialNumber.Text(16), wantEnds)
	}

	r := send(t, client, "GET", httpsURL(s)+"/actuator/info", "")
	info := decode[struct {
		SSL struct {
			Bundles []struct {
				Name              string      `json:"name"`
				CertificateChains []chainJSON `json:"certificateChains"`
			} `json:"bundles"`
		} `json:"ssl"`
	}](t, r)
	if b := info.SSL.Bundles; len(b) != 1 || b[0].Name != "server.ssl" || len(b[0].CertificateChains) != 1 ||
		b[0].CertificateChains[0].Certificates[0].SerialNumber != cert.SerialNumber {
		t.Errorf("/actuator/info: %s, want ssl.bundles with server.ssl's chain", r.body)
	}

	body := send(t, client, "GET", httpsURL(s)+"/actuator/prometheus", "").body
	series := `ssl_chain_expiry_seconds{bundle="server.ssl",certificate="` + leaf.SerialNumber.Text(16) + `",chain="ssl"}`
	v, ok := promValue(body, series)
	if left := time.Until(leaf.NotAfter).Seconds(); !ok || math.Abs(v-left) > 2 {
		t.Errorf("%s = %v (present %v), want the %v seconds left", series, v, ok, left)
	}
	if n, _ := promValue(body, `ssl_chains{status="will-expire-soon"}`); n != 1 {
		t.Errorf(`ssl_chains{status="will-expire-soon"} = %v, want 1`, n)
	}
	if n, _ := promValue(body, `ssl_chains{status="valid"}`); n != 0 {
		t.Errorf(`ssl_chains{status="valid"} = %v, want 0`, n)
	}
}

// TestSSLCertificateExpired: an expired certificate is served (as in
// Spring, start-up does not refuse it); the ssl component is
// OUT_OF_SERVICE with it under invalidChains, so /actuator/health is a
// 503, while readiness stays UP; the gauge is negative. A valid
// certificate written over it replaces it: health UP, the gauge its.
// Without management.info.ssl.enabled, /actuator/info has no ssl.
func TestSSLCertificateExpired(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "CA")
	now := time.Now()
	certPEM, keyPEM := ca.ServerValid(t, "expired", now.Add(-48*time.Hour), now.Add(-time.Hour))
	certPath, keyPath := testpki.WriteFile(t, dir, "server.crt", certPEM), testpki.WriteFile(t, dir, "server.key", keyPEM)
	s := start(t, []string{exposeAll, "--management.endpoint.health.show-details=always",
		"--server.ssl.certificate=" + certPath, "--server.ssl.certificate-private-key=" + keyPath}, nil)
	// The client checks nothing: the certificate has expired.
	client := &http.Client{Timeout: boottest.Timeout, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}

	status, h := healthOf(t, client, httpsURL(s))
	c := h.Components["ssl"]
	if status != http.StatusServiceUnavailable || h.Status != "OUT_OF_SERVICE" || c.Status != "OUT_OF_SERVICE" {
		t.Fatalf("/actuator/health: %d %s, ssl %s, want 503 OUT_OF_SERVICE", status, h.Status, c.Status)
	}
	invalid := c.Details["invalidChains"]
	if len(invalid) != 1 || len(c.Details["validChains"]) != 0 || invalid[0].Certificates[0].Validity.Status != "EXPIRED" ||
		!strings.HasPrefix(invalid[0].Certificates[0].Validity.Message, "Not valid after ") {
		t.Errorf("ssl details: %+v, want the chain invalid, EXPIRED", c.Details)
	}
	if r := send(t, client, "GET", httpsURL(s)+"/actuator/health/readiness", ""); r.status != http.StatusOK {
		t.Errorf("readiness: %d %s, want 200: a certificate does not take traffic away", r.status, r.body)
	}
	body := send(t, client, "GET", httpsURL(s)+"/actuator/prometheus", "").body
	old := leafOf(t, certPEM).SerialNumber.Text(16)
	if v, ok := promValue(body, `ssl_chain_expiry_seconds{bundle="server.ssl",certificate="`+old+`",chain="ssl"}`); !ok || v > -3500 {
		t.Errorf("ssl_chain_expiry_seconds of the expired certificate: %v (present %v), want about -3600", v, ok)
	}
	if n, _ := promValue(body, `ssl_chains{status="expired"}`); n != 1 {
		t.Errorf(`ssl_chains{status="expired"} = %v, want 1`, n)
	}
	if r := send(t, client, "GET", httpsURL(s)+"/actuator/info", ""); strings.Contains(r.body, `"ssl"`) {
		t.Errorf("/actuator/info without management.info.ssl.enabled: %s, want no ssl", r.body)
	}

	certPEM, keyPEM = ca.Server(t, "renewed")
	testpki.WriteFile(t, dir, "server.key", keyPEM)
	testpki.WriteFile(t, dir, "server.crt", certPEM)
	touchLater(t, certPath, keyPath)
	renewed := leafOf(t, certPEM).SerialNumber.Text(16)
	boottest.WaitFor(t, "health UP with the renewed certificate", func() bool {
		status, h := healthOf(t, client, httpsURL(s))
		return status == http.StatusOK && h.Components["ssl"].Status == "UP"
	})
	body = send(t, client, "GET", httpsURL(s)+"/actuator/prometheus", "").body
	if _, ok := promValue(body, `ssl_chain_expiry_seconds{bundle="server.ssl",certificate="`+renewed+`",chain="ssl"}`); !ok {
		t.Errorf("no ssl_chain_expiry_seconds of the renewed certificate:\n%s", grepLines(body, "ssl_"))
	}
	if strings.Contains(body, old) {
		t.Errorf("the replaced certificate is still published:\n%s", grepLines(body, "ssl_"))
	}
}

// TestSSLChainsOfEveryPort: a management port with TLS of its own (a
// JKS key store) publishes its chain beside server.port's, under
// management.server.ssl with the key's alias; without TLS the ssl
// component is UP with no chains, and there are no ssl meters.
func TestSSLChainsOfEveryPort(t *testing.T) {
	t.Parallel()
	args, ca := pemTLS(t)
	store := ca.JKS(t, t.TempDir(), "management.jks", "secret", "mgmt", "")
	s := start(t, append(args, exposeAll, "--management.endpoint.health.show-details=always", "--management.server.port=0",
		"--management.server.ssl.key-store="+store.Path, "--management.server.ssl.key-store-password=secret"), nil)
	body := send(t, httpsClient(ca, nil), "GET", https(s.ManagementURL)+"/actuator/prometheus", "").body
	for _, want := range []string{`ssl_chain_expiry_seconds{bundle="server.ssl",`, `ssl_chain_expiry_seconds{bundle="management.server.ssl",certificate="` + store.Cert.SerialNumber.Text(16) + `",chain="mgmt"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("/actuator/prometheus lacks %s:\n%s", want, grepLines(body, "ssl_"))
		}
	}

	plain := start(t, []string{exposeAll, "--management.endpoint.health.show-details=always"}, nil)
	status, h := healthOf(t, nil, plain.URL)
	if c := h.Components["ssl"]; status != http.StatusOK || c.Status != "UP" || c.Details["validChains"] == nil || len(c.Details["validChains"]) != 0 {
		t.Errorf("without TLS: %d, ssl %+v, want UP with empty chain lists, as Spring", status, c)
	}
	if _, body := get(t, plain.URL+"/actuator/prometheus"); strings.Contains(body, "ssl_") || strings.Contains(body, "tls_") {
		t.Errorf("without TLS, ssl or tls meters:\n%s", grepLines(body, "ssl_"))
	}
}
