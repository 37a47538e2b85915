package redistest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// ping tries one PING with conf (nil for plain TCP), without retries.
func ping(addr string, conf *tls.Config) error {
	c := redis.NewClient(&redis.Options{
		Addr: addr, TLSConfig: conf, MaxRetries: -1,
		DialTimeout: 2 * time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second,
	})
	defer c.Close()
	return c.Ping(context.Background()).Err()
}

// refusal is what a TLS client given conf reads first from addr, once
// its handshake is done: a server that refuses the client's certificate
// says so with an alert, which TLS 1.3 delivers after the client's side
// of the handshake. Read before anything is written, the alert is there
// to be read, where a client's command (go-redis's, which may also dial
// again) can meet the connection already reset instead. nil when the
// server sent no alert within two seconds.
func refusal(addr string, conf *tls.Config) error {
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 2 * time.Second}, "tcp", addr, conf)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	return nil
}

func TestTLSServerAcceptsClientsThatTrustItsCA(t *testing.T) {
	t.Parallel()
	s := TLS(t)
	if s.RequiresClientCert {
		t.Error("TLS says it requires a client certificate")
	}
	withCA, err := s.ClientConfig(false)
	if err != nil {
		t.Fatal(err)
	}
	if err := ping(s.Addr, withCA); err != nil {
		t.Errorf("a client trusting the CA, without a certificate: %v", err)
	}
	withCert, err := s.ClientConfig(true)
	if err != nil {
		t.Fatal(err)
	}
	if err := ping(s.Addr, withCert); err != nil {
		t.Errorf("a client trusting the CA, with the client certificate: %v", err)
	}
	// The system's roots do not include the test's CA.
	err = ping(s.Addr, &tls.Config{MinVersion: tls.VersionTLS12})
	if !errors.As(err, new(x509.UnknownAuthorityError)) {
		t.Errorf("a client that does not trust the CA: %v, want x509.UnknownAuthorityError", err)
	}
	// The right CA but another name: the certificate is for 127.0.0.1.
	other := withCA.Clone()
	other.ServerName = "redis.example.com"
	err = ping(s.Addr, other)
	if !errors.As(err, new(x509.HostnameError)) {
		t.Errorf("a client expecting redis.example.com: %v, want x509.HostnameError", err)
	}
	if err := ping(s.Addr, nil); err == nil {
		t.Error("a plain TCP client was answered on the TLS port")
	}
}

func TestMutualTLSServerRefusesClientsWithoutACertificate(t *testing.T) {
	t.Parallel()
	s := MutualTLS(t)
	if !s.RequiresClientCert {
		t.Error("MutualTLS says it does not require a client certificate")
	}
	withCert, err := s.ClientConfig(true)
	if err != nil {
		t.Fatal(err)
	}
	if err := ping(s.Addr, withCert); err != nil {
		t.Errorf("a client with the CA's client certificate: %v", err)
	}
	withoutCert, err := s.ClientConfig(false)
	if err != nil {
		t.Fatal(err)
	}
	// TLS 1.3 reports the server's refusal at the first read, as an
	// alert: "certificate required".
	if err := refusal(s.Addr, withoutCert); err == nil || !strings.Contains(err.Error(), "certificate required") {
		t.Errorf("a client without a certificate: %v, want the server's certificate required alert", err)
	}
	// A certificate the CA did not sign is refused too.
	stranger := newPKI(t, t.TempDir())
	strangerConf, err := stranger.ClientConfig(true)
	if err != nil {
		t.Fatal(err)
	}
	strangerConf.RootCAs = withCert.RootCAs
	if err := refusal(s.Addr, strangerConf); err == nil || !strings.Contains(err.Error(), "unknown certificate authority") {
		t.Errorf("a client with a certificate from another CA: %v, want the server's unknown certificate authority alert", err)
	}
}

func TestServersAreGoneWhenTheTestEnds(t *testing.T) {
	t.Parallel()
	requireBinaries(t)
	var addr, caFile string
	var pid int
	t.Run("use", func(t *testing.T) {
		s := TLS(t)
		addr = s.Addr
		caFile = s.CAFile
		conf, err := s.ClientConfig(true)
		if err != nil {
			t.Fatal(err)
		}
		if err := ping(addr, conf); err != nil {
			t.Fatal(err)
		}
		c := redis.NewClient(&redis.Options{Addr: addr, TLSConfig: conf})
		defer c.Close()
		info, err := c.Info(context.Background(), "server").Result()
		if err != nil {
			t.Fatal(err)
		}
		if pid, err = strconv.Atoi(infoField(info, "process_id")); err != nil {
			t.Fatalf("INFO server gives no process_id: %v", err)
		}
	})
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after the test", addr)
	}
	// Signal 0 checks that the process exists without signalling it.
	if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.Signal(0)) == nil {
		t.Errorf("redis-server %d still runs after the test", pid)
	}
	if _, err := os.Stat(caFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is still there after the test (%v)", caFile, err)
	}
}
