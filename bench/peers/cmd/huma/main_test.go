package main

import (
	"testing"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/peers/internal/peertest"
)

func TestEndpoints(t *testing.T) {
	messages := new(peer.Messages)
	peertest.Check(t, peertest.Handler(handler(messages, 7)), messages, 7)
}
