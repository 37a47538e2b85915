package server

// server.http2.enabled, as in Spring Boot (off by default): on, a port
// serves HTTP/2 beside HTTP/1.1, offered by ALPN ("h2") over TLS and, on
// a port without TLS, as h2c to clients that speak it from the first
// byte ("prior knowledge", as gRPC clients and curl --http2-prior-knowledge
// do). Go's server does not take the HTTP/1.1 Upgrade: h2c route to it;
// such a request is answered over HTTP/1.1. Off, a port serves HTTP/1.1
// alone, over TLS too. A management port of its own follows the setting,
// as Spring's management server inherits it.

import (
	"net/http"

	"github.com/springport/greeter/framework/config"
)

const http2Key = "server.http2.enabled"

func bindHTTP2(b *config.Binder) bool {
	return config.Bind(b, http2Key, false, config.Bool, "serve HTTP/2 beside HTTP/1.1: offered by ALPN over TLS, h2c with prior knowledge without; the management port of its own too")
}

// http2Limits are server.http2.*'s bounds on a connection's streams,
// named after Tomcat's Http2Protocol attributes, which Spring Boot
// leaves at their defaults (it has no settings of its own for them):
// maxConcurrentStreams (100) and maxConcurrentStreamExecution (20).
type http2Limits struct {
	streams   int // streams open at once on a connection
	execution int // of them, running their handlers at once (connection.go)
}

func bindHTTP2Limits(b *config.Binder) http2Limits {
	return http2Limits{
		streams:   config.Bind(b, "server.http2.max-concurrent-streams", 100, config.IntIn(1, 1<<20), "streams an HTTP/2 client may have open at once on a connection (Tomcat's Http2Protocol maxConcurrentStreams, which Spring Boot leaves at 100; Go's own default is 250)"),
		execution: config.Bind(b, "server.http2.max-concurrent-stream-execution", 20, config.IntIn(1, 1<<20), "of an HTTP/2 connection's streams, those running their handlers at once; the others wait their turn, holding no place under server.tomcat.threads.max (Tomcat's maxConcurrentStreamExecution)"),
	}
}

// serverProtocols is what an http.Server of a port accepts.
func serverProtocols(http2, overTLS bool) *http.Protocols {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	if http2 {
		if overTLS {
			p.SetHTTP2(true)
		} else {
			p.SetUnencryptedHTTP2(true)
		}
	}
	return p
}

// alpnProtocols are the protocols a TLS port offers by ALPN, preferred
// first.
func alpnProtocols(http2 bool) []string {
	if http2 {
		return []string{"h2", "http/1.1"}
	}
	return []string{"http/1.1"}
}
