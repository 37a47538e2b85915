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
