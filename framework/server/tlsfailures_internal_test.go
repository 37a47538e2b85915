package server

import (
	"bytes"
	"crypto/tls"
	"log/slog"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/ssl"
)

// TestHandshakeReason: the errors crypto/tls and net/http give a failed
// handshake are read into the fixed reasons.
func TestHandshakeReason(t *testing.T) {
	for err, want := range map[string]string{
		"EOF": reasonEOF,
		"read tcp 127.0.0.1:8443->127.0.0.1:5555: read: connection reset by peer":          reasonEOF,
		"client sent an HTTP request to an HTTPS server":                                   reasonHTTPToHTTPS,
		"tls: first record does not look like a TLS handshake":                             reasonNotTLS,
		"read tcp 127.0.0.1:8443->127.0.0.1:5555: i/o timeout":                             reasonTimeout,
		"tls: client didn't provide a certificate":                                         reasonNoClientCertificate,
		"tls: failed to verify certificate: x509: certificate signed by unknown authority": reasonBadCertificate,
		"remote error: tls: bad certificate":                                               reasonBadCertificate,
		"remote error: tls: unknown certificate authority":                                 reasonBadCertificate,
		"tls: client offered only unsupported versions: [302 301]":                         reasonProtocolVersion,
		"tls: unsupported SSLv2 handshake received":                                        reasonProtocolVersion,
		"tls: no cipher suite supported by both client and server; client offered: [a]":    reasonCipher,
		"tls: no ECDHE curve supported by both client and server":                          reasonCipher,
		"tls: client requested unsupported application protocols ([\"h3\"])":               reasonOther,
	} {
		if got := handshakeReason(err); got != want {
			t.Errorf("handshakeReason(%q) = %s, want %s", err, got, want)
		}
	}
}

// TestHandshakeLogPassesOtherLines: ErrorLog lines other than a failed
// handshake are written at WARN as before; a failed handshake is
// counted, and not written at INFO.
func TestHandshakeLogPassesOtherLines(t *testing.T) {
	var out bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelInfo}))
	f := &TLS{options: ssl.Options{MinVersion: tls.VersionTLS13, Keys: ssl.OptionKeys{EnabledProtocols: "server.ssl.enabled-protocols"}}}
	l := errorLog(logger, f)
	l.Printf("http: TLS handshake error from 127.0.0.1:5555: EOF")
	l.Printf("http: TLS handshake error from [::1]:5555: tls: client offered only unsupported versions: [302 301]")
	l.Printf("http2: server: error reading preface from client 127.0.0.1:5555: bogus greeting")
	if got := f.HandshakeFailures(); got[reasonEOF] != 1 || got[reasonProtocolVersion] != 1 {
		t.Errorf("counted %v, want one eof and one protocol_version", got)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "bogus greeting") {
		t.Errorf("written: %q, want the http2 line alone, at WARN (TLS 1.0 and 1.1 are never served: not the settings' doing)", lines)
	}
	l.Printf("http: TLS handshake error from 127.0.0.1:5556: tls: client offered only unsupported versions: [303]")
	l.Printf("http: TLS handshake error from 127.0.0.1:5557: tls: client offered only unsupported versions: [303]")
	if n := strings.Count(out.String(), "key=server.ssl.enabled-protocols"); n != 1 {
		t.Errorf("%d warnings naming the setting for two TLS 1.2 clients within a minute, want 1:\n%s", n, out.String())
	}
}
