package main

import (
	"net/http"
	"testing"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/peers/internal/peertest"
)

func TestEndpoints(t *testing.T) {
	peertest.Check(t, func(m *peer.Messages, valA int32) peertest.Do {
		a := app(m, valA)
		return func(r *http.Request) (*http.Response, error) { return a.Test(r, -1) }
	})
}
