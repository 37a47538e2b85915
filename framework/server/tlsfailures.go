package server

// Failed TLS handshakes, counted rather than shouted. net/http reports
// each on the server's ErrorLog as "http: TLS handshake error from ADDR:
// ERR", which the server's logger wrote at WARN: a load balancer's TCP
// check, a port scanner, a client that speaks HTTP to the HTTPS port or
// one refused by client-auth=need each wrote a line, 3,000 lines in a
// tenth of a second under a flood. Tomcat logs them at DEBUG. Here each
// is counted by reason (tls.handshake.failures, a fixed set of reasons
// read from the error: never the error itself as a label) and logged at
// DEBUG on the server's logger (logging.level.<service>.server=debug
// shows them). WARN is kept for failures that this port's own settings
// cause: a client refused because server.ssl.enabled-protocols or
// ciphers (or a bundle's options) leave out the TLS 1.2 or 1.3 it
// offered, or every suite it offered: at most one line a minute, with
// the count since the last. Clients offering only what Go's TLS never
// serves (TLS 1.0, SSLv3) are not our configuration and stay at DEBUG;
// and there is no "no certificate for the client's SNI" case, as a port
// serves its one certificate whatever name the client asks for. Every
// other ErrorLog line is written as before, at WARN.

import (
	"crypto/tls"
	"io"
	"log"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The reasons a handshake failed, the values of the reason tag.
const (
	reasonEOF                 = "eof"                   // the client closed (or reset) the connection: a TCP check, a scanner
	reasonNotTLS              = "not_tls"               // the first bytes were not a TLS handshake
	reasonHTTPToHTTPS         = "http_to_https"         // plain HTTP sent to the HTTPS port (answered 400 by net/http)
	reasonBadCertificate      = "bad_certificate"       // a certificate refused: the client's by us, or ours by the client
	reasonNoClientCertificate = "no_client_certificate" // client-auth=need, and the client sent none
	reasonProtocolVersion     = "protocol_version"      // no TLS version in common
	reasonCipher              = "cipher"                // no cipher suite, curve or key exchange in common
	reasonTimeout             = "timeout"               // the handshake did not finish within the server's timeouts
	reasonOther               = "other"
)

// HandshakeReasons are the values of tls.handshake.failures' reason tag,
// every one of them, so that a series exists (at 0) before its first
// failure.
var HandshakeReasons = []string{reasonEOF, reasonNotTLS, reasonHTTPToHTTPS, reasonBadCertificate, reasonNoClientCertificate,
	reasonProtocolVersion, reasonCipher, reasonTimeout, reasonOther}

// handshakeReason classifies the error net/http logged for a failed
// handshake, by crypto/tls's and net's own messages.
func handshakeReason(err string) string {
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(err, p) {
				return true
			}
		}
		return false
	}
	switch {
	case err == "EOF" || has("unexpected EOF", "connection reset by peer", "broken pipe"):
		return reasonEOF
	case has("client sent an HTTP request to an HTTPS server"):
		return reasonHTTPToHTTPS
	case has("i/o timeout", "deadline exceeded"):
		return reasonTimeout
	case has("first record does not look like a TLS handshake", "oversized record received"):
		return reasonNotTLS
	case has("client didn't provide a certificate"):
		return reasonNoClientCertificate
	case has("failed to verify certificate", "bad certificate", "unknown certificate authority", "expired certificate",
		"unsupported certificate", "certificate revoked", "certificate unknown", "failed to parse client certificate",
		"invalid signature by the client certificate", "client certificate"):
		return reasonBadCertificate
	case has("unsupported versions", "unsupported SSLv2 handshake", "protocol version not supported",
		"inappropriate protocol fallback", "older than TLS 1.3"):
		return reasonProtocolVersion
	case has("no cipher suite supported", "no ECDHE curve", "no key exchanges supported", "insufficient security"):
		return reasonCipher
	}
	return reasonOther
}

// handshakeFailures counts one port's (or shared TLS's) failed
// handshakes by reason, and spaces out the warnings of those its
// settings cause.
type handshakeFailures struct {
	counts [9]atomic.Uint64 // by index in HandshakeReasons

	mu       sync.Mutex
	warned   time.Time // when the last warning was written
	unwarned int       // failures of our settings since then
}

// warnEvery spaces the warnings of handshakes that the port's settings
// refuse: an operator learns of them within a minute, and a flood of
// old clients writes one line a minute.
const warnEvery = time.Minute

func (h *handshakeFailures) add(reason string) {
	for i, r := range HandshakeReasons {
		if r == reason {
			h.counts[i].Add(1)
			return
		}
	}
}

// HandshakeFailures are the failed handshakes counted so far, by reason
// (every reason of HandshakeReasons, 0 included).
func (f *TLS) HandshakeFailures() map[string]uint64 {
	out := make(map[string]uint64, len(HandshakeReasons))
	for i, r := range HandshakeReasons {
		out[r] = f.failures.counts[i].Load()
	}
	return out
}

// handshakeFailed counts the failure of a handshake from addr, and logs
// it at DEBUG, or at WARN (spaced out) when the port's settings refused
// the client.
func (f *TLS) handshakeFailed(logger *slog.Logger, addr, err string) {
	reason := handshakeReason(err)
	f.failures.add(reason)
	logger.Debug("TLS handshake failed", "remote", addr, "reason", reason, "error", err)
	key := f.refusingSetting(reason, err)
	if key == "" {
		return
	}
	h := &f.failures
	h.mu.Lock()
	h.unwarned++
	now := time.Now()
	if !h.warned.IsZero() && now.Sub(h.warned) < warnEvery {
		h.mu.Unlock()
		return
	}
	count := h.unwarned
	h.warned, h.unwarned = now, 0
	h.mu.Unlock()
	logger.Warn("TLS handshakes refused because of this port's settings: clients offer what the setting leaves out",
		"key", key, "reason", reason, "failures", count, "since", "the last warning, at most a minute ago", "error", err)
}

// refusingSetting is the setting that made a handshake fail for reason,
// when it is one of the port's own: enabled-protocols leaving out a
// version the client offered and Go serves, or ciphers leaving out
// every suite it offered. "" when the failure is the client's.
func (f *TLS) refusingSetting(reason, err string) string {
	o := f.options
	switch reason {
	case reasonProtocolVersion:
		narrowed := o.MinVersion == tls.VersionTLS13 || o.MaxVersion == tls.VersionTLS12
		// "client offered only unsupported versions: [303 302]" (hex):
		// TLS 1.2 is 303, TLS 1.3 304.
		served := strings.Contains(err, "303") || strings.Contains(err, "304") || strings.Contains(err, "older than TLS 1.3")
		if narrowed && served {
			return o.Keys.EnabledProtocols
		}
	case reasonCipher:
		if o.CipherSuites != nil && strings.Contains(err, "no cipher suite") {
			return o.Keys.Ciphers
		}
	}
	return ""
}

// errorLog is the http.Server's ErrorLog for a port: its lines at WARN
// on logger, as before, but for failed TLS handshakes (t's, when the
// port serves TLS), which are counted instead.
func errorLog(logger *slog.Logger, t *TLS) *log.Logger {
	plain := slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	if t == nil {
		return plain
	}
	return log.New(handshakeLog{next: plain.Writer(), logger: logger, tls: t}, "", 0)
}

// handshakeLog takes net/http's "TLS handshake error" lines out of its
// error log, and passes the others on.
type handshakeLog struct {
	next   io.Writer
	logger *slog.Logger
	tls    *TLS
}

// handshakeError starts the line net/http writes for a failed handshake
// (net/http's conn.serve).
const handshakeError = "http: TLS handshake error from "

func (w handshakeLog) Write(p []byte) (int, error) {
	line := strings.TrimSuffix(string(p), "\n")
	rest, ok := strings.CutPrefix(line, handshakeError)
	if !ok {
		return w.next.Write(p)
	}
	// ADDR: ERR, where ADDR is host:port, and an IPv6 host is in
	// brackets: the first ": " ends it.
	addr, err, _ := strings.Cut(rest, ": ")
	w.tls.handshakeFailed(w.logger, addr, err)
	return len(p), nil
}
