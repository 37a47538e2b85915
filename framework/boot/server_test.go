package boot_test

// The server: its port and address, its limits and timeouts on what
// clients send, and its graceful shutdown.

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

func TestPortFromEnvironment(t *testing.T) {
	t.Parallel()
	// SERVER_PORT=0 must win over the default 8080; Launch passes no
	// --server.port, so the environment alone chooses.
	s := boottest.Launch(t, tester(), nil, map[string]string{"SERVER_PORT": "0"})
	if strings.HasSuffix(s.URL, ":8080") {
		t.Errorf("with SERVER_PORT=0 the service listens on %s; want a free port other than 8080", s.URL)
	}
}

func TestPortInUse(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if _, err := boottest.FailToStart(t, tester(), []string{fmt.Sprintf("--server.port=%d", port)}, nil); err == nil || !strings.Contains(err.Error(), "server.port") {
		t.Errorf("run on a taken port returned %v, want an error naming server.port", err)
	}
}

// TestMaxRequestSize: a body past server.max-request-size is refused with
// 413, saying the limit; one under it is read.
func TestMaxRequestSize(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.max-request-size=16B"}, nil)
	if r := send(t, nil, "POST", s.URL+"/notes", `{"text":"0123456789"}`, "Content-Type: application/json"); r.status != 413 || !strings.Contains(r.body, "limit of 16 bytes") {
		t.Errorf("a 21-byte body over a 16-byte limit: %d %s", r.status, r.body)
	}
	if r := send(t, nil, "POST", s.URL+"/notes", `{"text":"0"}`, "Content-Type: application/json"); r.status != 201 || r.body != `{"text":"0"}` {
		t.Errorf("a 12-byte body under a 16-byte limit: %d %s", r.status, r.body)
	}
}

// TestStalledHeadersAreDropped opens a connection that never finishes its
// headers: the server must close it once the read-header timeout passes,
// the one set (200ms), not the default (5s). The baseline is the same
// stall, begun first, on an instance with the default: when the first
// closes, that one must still be open. No bound on the clock: a busy
// machine delays both instances alike.
func TestStalledHeadersAreDropped(t *testing.T) {
	t.Parallel()
	const timeout = 200 * time.Millisecond
	s := start(t, []string{"--server.read-header-timeout=" + timeout.String()}, nil)
	baseline := start(t, nil, nil)
	stall := func(addr string) net.Conn {
		conn, err := net.DialTimeout("tcp", addr, boottest.Timeout)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := conn.Write([]byte("GET /hello HTTP/1.1\r\nHost: x\r\n")); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	defaultStalled := stall(baseline.Addr())
	began := time.Now() // before the server can begin to time the headers
	conn := stall(s.Addr())
	conn.SetReadDeadline(time.Now().Add(boottest.Timeout))
	if _, err := io.ReadAll(conn); err != nil {
		t.Fatalf("the connection was not closed by the server: %v", err)
	}
	if waited := time.Since(began); waited < timeout {
		t.Errorf("the server closed the connection after %v, before the read-header timeout of %v", waited, timeout)
	}
	// Still open: a read waits for its deadline rather than seeing the
	// end of the stream.
	defaultStalled.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := defaultStalled.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the instance with the default read-header timeout (5s), stalled on first, had closed its connection (read %d bytes, %v) "+
			"when the one with %v closed its own: the setting is not what decides", n, err, timeout)
	}
}

// TestSlowBodyTimesOut sends 10 of a declared 100 body bytes and stalls:
// the server's read timeout ends the request with 408, not with a 400 that
// blames a body the client was still sending; and the OpenAPI document
// gives the route that answer.
func TestSlowBodyTimesOut(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.read-timeout=300ms"}, nil)
	const sent = `{"text":"a`
	began := time.Now()
	r, err := boottest.RawExchange(s.Addr(), []byte("POST /notes HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"+sent), nil, boottest.Timeout)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	p, err := boottest.CheckProblem(r.Status, r.Header, r.Body)
	if r.Status != http.StatusRequestTimeout || err != nil || !strings.Contains(p.Detail, "read timeout") {
		t.Errorf("after %v:\ngot  %d %s (%v)\nwant 408 naming the read timeout", time.Since(began), r.Status, r.Body, err)
	}
	_, body := get(t, s.URL+"/v3/api-docs")
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("/v3/api-docs: %v", err)
	}
	if _, ok := doc.Paths["/notes"]["post"].Responses["408"]; !ok {
		t.Errorf("the OpenAPI document does not give POST /notes the 408 it answers: %s", body)
	}
}

// TestGracefulShutdown starts a request, stops the service while the
// request's body is still arriving, and checks that new connections are
// refused while the request is in flight, and that it still completes.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	const body = `{"text":"in flight"}`
	conn, err := net.DialTimeout("tcp", s.Addr(), boottest.Timeout)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(boottest.Timeout))
	br := bufio.NewReader(conn)
	// The server's 100 Continue is how the test knows, without waiting for
	// a time to pass, that a handler is reading the request: it is in
	// flight.
	fmt.Fprintf(conn, "POST /notes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", len(body))
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("the server answered the headers with %v %v, want 100 Continue", resp, err)
	}
	if _, err := io.WriteString(conn, body[:5]); err != nil {
		t.Fatal(err)
	}

	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop() }()
	boottest.WaitRefused(t, s.Addr())
	if _, err := io.WriteString(conn, body[5:]); err != nil {
		t.Fatalf("the rest of the body: %v", err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("the in-flight request got no answer: %v", err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 201 || string(got) != body {
		t.Errorf("the in-flight request got %d %s (%v), want 201 %s", resp.StatusCode, got, err, body)
	}
	if err := <-stopped; err != nil {
		t.Errorf("run returned %v after a graceful shutdown", err)
	}
}

// otherLocalAddr is an address of this machine that is not loopback, or
// nil when it has none: a listener bound to loopback must refuse it.
func otherLocalAddr(t *testing.T) net.IP {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.IsGlobalUnicast() && !n.IP.IsLoopback() {
			return n.IP
		}
	}
	return nil
}

// listenerOf is the address Run reported for the listener that setting
// chose, through boot.Process.Listening.
func listenerOf(t *testing.T, s *boottest.Instance, setting string) *net.TCPAddr {
	t.Helper()
	for _, a := range s.Addresses {
		if a.Setting == setting {
			return a.Addr.(*net.TCPAddr)
		}
	}
	t.Fatalf("Run reported no listener for %s: %v", setting, s.Addresses)
	return nil
}

// checkBound checks that the listener setting chose is bound to want
// (nil: every interface), that it answers path there, and that another
// address of the machine reaches it only when it listens everywhere.
func checkBound(t *testing.T, s *boottest.Instance, setting string, want net.IP, path string) {
	t.Helper()
	got := listenerOf(t, s, setting)
	if (want == nil && !got.IP.IsUnspecified()) || (want != nil && !got.IP.Equal(want)) {
		t.Errorf("%s listens on %s, want %v", setting, got, cmp.Or(want.String(), "every interface"))
	}
	host := "127.0.0.1"
	if want != nil {
		host = want.String()
	}
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(got.Port)) + path
	if status, body := get(t, url); status != http.StatusOK {
		t.Errorf("GET %s: %d %s", url, status, body)
	}
	other := otherLocalAddr(t)
	if other == nil {
		t.Logf("the machine has no address but loopback: not checking that %s refuses another", setting)
		return
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(other.String(), strconv.Itoa(got.Port)), boottest.Timeout)
	if err == nil {
		c.Close()
	}
	switch {
	case want == nil && err != nil:
		t.Errorf("%s listens everywhere, yet %s refuses it: %v", setting, other, err)
	case want != nil && !boottest.IsConnRefused(err):
		t.Errorf("%s is bound to %s, yet dialling %s gave %v, want the connection refused", setting, want, other, err)
	}
}

// TestBindAddress: server.address binds the service's port to one
// interface, and the management port to it too unless
// management.server.address says another, as in Spring Boot.
func TestBindAddress(t *testing.T) {
	t.Parallel()
	loopback := net.ParseIP("127.0.0.1")
	t.Run("server.address", func(t *testing.T) {
		t.Parallel()
		s := start(t, []string{"--server.address=127.0.0.1", "--management.server.port=0"}, nil)
		checkBound(t, s, "server.port", loopback, "/hello")
		checkBound(t, s, "management.server.port", loopback, "/actuator/health")
	})
	t.Run("management.server.address", func(t *testing.T) {
		t.Parallel()
		s := start(t, []string{"--management.server.port=0", "--management.server.address=127.0.0.1"}, nil)
		checkBound(t, s, "server.port", nil, "/hello")
		checkBound(t, s, "management.server.port", loopback, "/actuator/health")
	})
	t.Run("host name", func(t *testing.T) {
		t.Parallel()
		// localhost resolves through /etc/hosts, without a DNS server.
		addrs, err := net.LookupIP("localhost")
		if err != nil || len(addrs) == 0 {
			t.Skipf("localhost does not resolve here: %v", err)
		}
		s := start(t, []string{"--server.address=localhost"}, nil)
		if got := listenerOf(t, s, "server.port"); !got.IP.IsLoopback() {
			t.Errorf("server.address=localhost listens on %s, want a loopback address", got)
		}
	})
	t.Run("IPv6 in brackets", func(t *testing.T) {
		t.Parallel()
		if ln, err := net.Listen("tcp", "[::1]:0"); err != nil {
			t.Skipf("no IPv6 loopback here: %v", err)
		} else {
			ln.Close()
		}
		s := start(t, []string{"--server.address=[::1]"}, nil)
		checkBound(t, s, "server.port", net.IPv6loopback, "/hello")
	})
}

// TestBadBindAddress: an address that is not one, or does not resolve,
// stops start-up with the report naming the setting, its value, its origin
// and why.
func TestBadBindAddress(t *testing.T) {
	t.Parallel()
	tests := []struct{ arg, reason string }{
		{"--server.address=127.0.0.1:8080", "want an address without a port"},
		// .invalid never resolves (RFC 2606).
		{"--server.address=no-such-host.invalid", "want an IP address or a host name that resolves"},
		{"--management.server.address=not an address", "want an IP address or a host name that resolves"},
	}
	for _, tt := range tests {
		key, value, _ := strings.Cut(strings.TrimPrefix(tt.arg, "--"), "=")
		stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--management.server.port=0", tt.arg}, nil)
		for _, w := range []string{"Property: " + key, "Value: " + strconv.Quote(value), "Origin: command-line argument " + tt.arg, tt.reason} {
			if err == nil || !strings.Contains(stderr, w) {
				t.Errorf("%s: the report lacks %q:\n%s", tt.arg, w, stderr)
			}
		}
	}
}

// TestBindAddressNotLocal: an IP address that is no interface of the
// machine parses, but cannot be listened on; the failure names both
// settings.
func TestBindAddressNotLocal(t *testing.T) {
	t.Parallel()
	// 203.0.113.0/24 is for documentation (RFC 5737): no machine has it.
	_, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--server.address=203.0.113.7"}, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot listen on server.port=0 on server.address=203.0.113.7") {
		t.Errorf("run on an address that is not the machine's returned %v, want an error naming server.port and server.address", err)
	}
}
