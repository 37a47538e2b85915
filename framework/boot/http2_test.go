package boot_test

// server.http2.enabled: HTTP/2 beside HTTP/1.1, by ALPN over TLS and as
// h2c (prior knowledge) without; off, HTTP/1.1 alone. The tester's GET
// /protocol answers the protocol the server read the request in.

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// onlyHTTP2 is a client that speaks HTTP/2 alone: over TLS it offers h2
// alone by ALPN; to an http:// URL it speaks h2c from the first byte.
func onlyHTTP2(ca *testpki.CA) *http.Client {
	var p http.Protocols
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	tr := &http.Transport{Protocols: &p}
	if ca != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: ca.Pool()}
	}
	return &http.Client{Timeout: boottest.Timeout, Transport: tr}
}

// onlyHTTP1 is a client that speaks HTTP/1.1 alone, trusting ca when
// given.
func onlyHTTP1(ca *testpki.CA) *http.Client {
	tr := &http.Transport{}
	if ca != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: ca.Pool()}
	}
	return &http.Client{Timeout: boottest.Timeout, Transport: tr}
}

// exchange sends GET url with client, and returns the protocol of the
// answer, the protocol ALPN negotiated ("" for none) and the body: from
// the tester's GET /protocol, the protocol the server read the request in.
func exchange(client *http.Client, url string) (proto, alpn, body string, err error) {
	defer client.CloseIdleConnections()
	resp, err := client.Get(url)
	if err != nil {
		return "", "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.TLS != nil {
		alpn = resp.TLS.NegotiatedProtocol
	}
	return resp.Proto, alpn, string(b), err
}

// TestHTTP2Cleartext: with server.http2.enabled, a client speaking h2c
// from the first byte is served over HTTP/2 on server.port and on the
// management port of its own, and an HTTP/1.1 client still over HTTP/1.1;
// off (the default), the h2c client gets nothing.
func TestHTTP2Cleartext(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.http2.enabled=true", "--management.server.port=0"}, nil)
	if proto, _, read, err := exchange(onlyHTTP2(nil), s.URL+"/protocol"); err != nil || proto != "HTTP/2.0" || read != "HTTP/2.0" {
		t.Errorf("h2c: answered in %q, read as %q, %v; want HTTP/2.0", proto, read, err)
	}
	if proto, _, body, err := exchange(onlyHTTP2(nil), s.ManagementURL+"/actuator/health"); err != nil || proto != "HTTP/2.0" || !strings.Contains(body, `"UP"`) {
		t.Errorf("h2c to the management port: answered in %q, %v: %s; want HTTP/2.0 and the health", proto, err, body)
	}
	if proto, _, read, err := exchange(onlyHTTP1(nil), s.URL+"/protocol"); err != nil || proto != "HTTP/1.1" || read != "HTTP/1.1" {
		t.Errorf("HTTP/1.1 beside h2c: answered in %q, read as %q, %v; want HTTP/1.1", proto, read, err)
	}

	off := start(t, []string{"--management.server.port=0"}, nil)
	for _, url := range []string{off.URL + "/protocol", off.ManagementURL + "/actuator/health"} {
		if proto, _, _, err := exchange(onlyHTTP2(nil), url); err == nil {
			t.Errorf("h2c to %s with server.http2.enabled unset: answered in %s, want no HTTP/2", url, proto)
		}
	}
}

// TestHTTP2OverTLS: with server.http2.enabled and TLS, ALPN negotiates
// h2 with a client that offers it, on server.port and on the management
// port of its own, which takes server.ssl's TLS; a client without HTTP/2
// gets HTTP/1.1. Set false, a client offering h2 and http/1.1 is given
// http/1.1, and one offering h2 alone is refused.
func TestHTTP2OverTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "test CA")
	certPEM, keyPEM := ca.Server(t, "server")
	tlsArgs := []string{"--server.ssl.certificate=" + testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key=" + testpki.WriteFile(t, dir, "server.key", keyPEM),
		"--management.server.port=0"}

	on := start(t, append(tlsArgs, "--server.http2.enabled=true"), nil)
	urls := []string{https(on.URL) + "/protocol", https(on.ManagementURL) + "/actuator/health"}
	for _, url := range urls {
		if proto, alpn, _, err := exchange(httpsClient(ca, nil), url); err != nil || proto != "HTTP/2.0" || alpn != "h2" {
			t.Errorf("%s, a client offering h2: answered in %q, ALPN %q, %v; want HTTP/2.0 by h2", url, proto, alpn, err)
		}
	}
	if _, _, read, err := exchange(httpsClient(ca, nil), urls[0]); read != "HTTP/2.0" {
		t.Errorf("over h2 the server read the request as %q, %v; want HTTP/2.0", read, err)
	}
	if proto, alpn, read, err := exchange(onlyHTTP1(ca), urls[0]); err != nil || read != "HTTP/1.1" || alpn != "" {
		t.Errorf("a client without HTTP/2: answered in %q, read as %q, ALPN %q, %v; want HTTP/1.1", proto, read, alpn, err)
	}

	off := start(t, append(tlsArgs, "--server.http2.enabled=false"), nil)
	for _, url := range []string{https(off.URL) + "/protocol", https(off.ManagementURL) + "/actuator/health"} {
		if proto, alpn, _, err := exchange(httpsClient(ca, nil), url); err != nil || proto != "HTTP/1.1" || alpn != "http/1.1" {
			t.Errorf("%s with server.http2.enabled=false: answered in %q, ALPN %q, %v; want HTTP/1.1 by http/1.1", url, proto, alpn, err)
		}
		if proto, _, _, err := exchange(onlyHTTP2(ca), url); err == nil {
			t.Errorf("%s with server.http2.enabled=false, a client speaking h2 alone: answered in %s, want refused", url, proto)
		}
	}
}

// TestHTTP2StreamsPerConnection: an h2c connection is told it may open
// server.http2.max-concurrent-streams streams, 100 by default as
// Tomcat's maxConcurrentStreams, not Go's 250.
func TestHTTP2StreamsPerConnection(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want uint32
	}{{nil, 100}, {[]string{"--server.http2.max-concurrent-streams=7"}, 7}} {
		s := start(t, append([]string{"--server.http2.enabled=true"}, c.args...), nil)
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(boottest.Timeout))
		io.WriteString(conn, http2.ClientPreface)
		fr := http2.NewFramer(conn, conn)
		fr.WriteSettings()
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		settings, ok := f.(*http2.SettingsFrame)
		if !ok {
			t.Fatalf("the first frame is %v; want SETTINGS", f)
		}
		if v, ok := settings.Value(http2.SettingMaxConcurrentStreams); !ok || v != c.want {
			t.Errorf("%v: MAX_CONCURRENT_STREAMS %d (sent: %v); want %d", c.args, v, ok, c.want)
		}
	}
}
