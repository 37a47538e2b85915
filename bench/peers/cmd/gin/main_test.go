package main

import (
	"testing"

	"github.com/springport/greeter/bench/peers/internal/peertest"
)

func TestEndpoints(t *testing.T) { peertest.Check(t, peertest.HTTP(handler)) }
