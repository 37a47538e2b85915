package dispatch

import (
	"context"
	"net/http"
)

// A request that came through a trusted reverse proxy is rewritten before
// the dispatcher sees it (server.forward-headers-strategy): its
// RemoteAddr becomes the client's, as the proxy's X-Forwarded-For or
// Forwarded header names it, so that the access log, the recent exchanges
// and tracing's client.address name the client. The connection's own
// peer, the proxy, is still what OpenTelemetry's network.peer.address
// asks for: the front that rewrites the request keeps it in the request's
// context, and SocketPeer finds it there.

// socketPeerKey is the context key of the connection's peer.
type socketPeerKey struct{}

// WithSocketPeer returns ctx noting addr (host:port, as http.Request's
// RemoteAddr) as the peer of the connection the request came on: for the
// front that rewrites RemoteAddr from a trusted proxy's headers, before
// it does. Requests that are not rewritten carry nothing, and cost
// nothing.
func WithSocketPeer(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, socketPeerKey{}, addr)
}

// SocketPeer returns the address (host:port) of the connection r came
// on: the one WithSocketPeer noted when a front rewrote r.RemoteAddr,
// else r.RemoteAddr itself.
func SocketPeer(r *http.Request) string {
	if addr, ok := r.Context().Value(socketPeerKey{}).(string); ok {
		return addr
	}
	return r.RemoteAddr
}
