package server

import (
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// TestSocketPeerBehindAProxy: when a trusted proxy's X-Forwarded-For or
// Forwarded names the client, RemoteAddr becomes the client's and the
// proxy stays the request's socket peer (tracing's network.peer.address);
// a peer that is not trusted is both, its headers ignored, and so is one
// whose headers name no client.
func TestSocketPeerBehindAProxy(t *testing.T) {
	for _, tt := range []struct {
		strategy, peer string
		headers        map[string]string
		client         string
	}{
		{"native", "10.9.9.9:4000", map[string]string{"X-Forwarded-For": "198.51.100.9"}, "198.51.100.9:0"},
		{"framework", "10.9.9.9:4000", map[string]string{"Forwarded": "for=198.51.100.9"}, "198.51.100.9:0"},
		{"native", "203.0.113.5:5000", map[string]string{"X-Forwarded-For": "198.51.100.9"}, "203.0.113.5:5000"},
		{"framework", "203.0.113.5:5000", map[string]string{"Forwarded": "for=198.51.100.9"}, "203.0.113.5:5000"},
		{"native", "10.9.9.9:4000", map[string]string{"X-Forwarded-Proto": "https"}, "10.9.9.9:4000"},
	} {
		r := seenBy(t, tt.strategy, tt.peer, tt.headers)
		if r.RemoteAddr != tt.client || dispatch.SocketPeer(r) != tt.peer {
			t.Errorf("%s from %s with %v: client %s, socket peer %s; want %s and %s",
				tt.strategy, tt.peer, tt.headers, r.RemoteAddr, dispatch.SocketPeer(r), tt.client, tt.peer)
		}
	}
}
