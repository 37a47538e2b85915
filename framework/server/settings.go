package server

import (
	"errors"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
)

// Settings are server.*: how server.port listens and serves, with Spring
// Boot's names and, where they serve a request's latency, shorter
// defaults. The exported fields are what the rest of the application
// needs of them; the others only the server uses.
type Settings struct {
	Port           int
	Address        string          // the interface to listen on; "" for all
	MaxRequestSize config.ByteSize // larger request bodies are refused with 413
	WriteTimeout   time.Duration   // bound on writing a response
	AccessLog      bool            // one log line per request
	ContextPath    string          // the prefix of every route of server.port; "" for none (see contextPathKey)
	HTTP2          bool            // HTTP/2 beside HTTP/1.1 (http2.go)
	TLS            *TLS            // server.port's TLS; nil for plain HTTP (tls.go)
	// SessionCookie is the cookie that carries the HTTP session's id
	// (sessioncookie.go).
	SessionCookie component.SessionCookie

	readHeaderTimeout time.Duration // a client must finish its headers within this
	readTimeout       time.Duration // … and its whole request within this
	idleTimeout       time.Duration // a keep-alive connection is closed after this
	shutdownTimeout   time.Duration // requests in flight get this long at shutdown
	shutdownDelay     time.Duration // readiness is down this long before listeners close
	shutdown          string        // graceful or immediate (shutdown.go)
	compression       compressSettings
	forwardStrategy   string // none, native or framework (forwarded.go)
	maxThreads        int    // requests each port handles at once (bound.go)
	http2Limits       http2Limits
}

// Bind reads server.* (and Spring's name for the shutdown wait) through
// b, each key with its meaning.
func Bind(b *config.Binder) Settings {
	ssl.DescribeBundles(b)
	s := Settings{
		Port:              config.Bind(b, "server.port", 8080, config.Port, "listening port; 0 picks a free one"),
		Address:           config.Bind(b, "server.address", "", ListenAddress, "the network address (an IP, v4 or v6, or a host name) server.port listens on; none: every interface"),
		MaxRequestSize:    config.Bind(b, "server.max-request-size", config.ByteSize(1<<20), config.DataSize, "larger request bodies are refused with 413 (B, KB, MB, GB, TB, or bytes)"),
		readHeaderTimeout: config.Bind(b, "server.read-header-timeout", 5*time.Second, config.Timeout, "a client must send its headers within this"),
		readTimeout:       config.Bind(b, "server.read-timeout", 30*time.Second, config.Timeout, "... and its whole request within this"),
		WriteTimeout:      config.Bind(b, "server.write-timeout", 30*time.Second, config.Timeout, "bound on writing a response"),
		idleTimeout:       config.Bind(b, "server.idle-timeout", 60*time.Second, config.Timeout, "an idle keep-alive connection is closed after this"),
		shutdown:          bindShutdownMode(b),
		shutdownTimeout:   bindShutdownTimeout(b),
		shutdownDelay:     config.Bind(b, "server.shutdown-delay", 0, config.DurationOrZero, "readiness reports OUT_OF_SERVICE this long before the listeners close"),
		AccessLog:         config.Bind(b, "server.access-log.enabled", false, config.Bool, "one log line per request"),
		ContextPath:       bindContextPath(b),
		compression:       bindCompression(b),
		forwardStrategy:   bindForwardStrategy(b),
		HTTP2:             bindHTTP2(b),
		http2Limits:       bindHTTP2Limits(b),
		maxThreads:        bindMaxThreads(b),
		TLS:               bindSSL(b, serverSSL).load(b),
	}
	s.SessionCookie = bindSessionCookie(b, s.ContextPath)
	refuseUnservedTLS(b, "server.ssl.")
	return s
}

// contextPathKey is Spring Boot's server.servlet.context-path: the prefix
// that every route of server.port lives under, the management endpoints
// on that port included (a servlet container serves a Spring application
// under its "context path"). The dispatcher strips it before it chooses a
// route (dispatch.Options.ContextPath), so that the metrics' uri label
// and /actuator/mappings leave it out, as Spring's do. A management port
// of its own ignores it, as Spring does: management.server.base-path is
// that port's prefix.
const contextPathKey = "server.servlet.context-path"

// contextPath reads the context path as Spring Boot does: blanks around
// it and one trailing slash are dropped ("/" is the root, "" as unset),
// then it must start with / and not end with one. Spring stops there;
// a path with a query, a fragment or a segment the client's path would
// be cleaned of (//, . or ..) could match no request, so it is refused
// too.
func contextPath(s string) (string, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "/")
	if s == "" {
		return "", nil
	}
	if !strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") {
		return "", errors.New("want a path that starts with / and does not end with / (such as /api); empty for none")
	}
	if strings.ContainsAny(s, "?#") || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", errors.New("want a path without ?, #, spaces or control characters")
	}
	if path.Clean(s) != s {
		return "", errors.New("want a clean path: no empty, . or .. segment")
	}
	return s, nil
}

// bindContextPath reads server.servlet.context-path.
func bindContextPath(b *config.Binder) string {
	return config.Bind(b, contextPathKey, "", contextPath, "the path every route lives under (/api, say), the management endpoints on server.port included; none: the root")
}

// Handler returns h as server.port (or the management port of its own,
// as Spring's management server takes the server's settings) serves it:
// its responses compressed as server.compression.* says, and its requests
// rewritten from the forwarded headers as server.forward-headers-strategy
// says.
func (s Settings) Handler(h http.Handler) http.Handler {
	return forwarded(compress(h, s.compression), s.forwardStrategy)
}
