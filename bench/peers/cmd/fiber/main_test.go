package main

import (
	"net/http"
	"testing"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/peers/internal/peertest"
)

func TestEndpoints(t *testing.T) {
	messages := new(peer.Messages)
	a := app(messages, 7)
	peertest.Check(t, func(r *http.Request) (*http.Response, error) { return a.Test(r, -1) }, messages, 7)
}
