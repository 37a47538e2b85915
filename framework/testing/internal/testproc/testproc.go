// Package testproc holds what tests need to run servers of their own as
// child processes (redis-server in internal/redistest, postgres in
// internal/pgtest): free loopback ports to give them, and a tie that ends
// them with the test binary.
package testproc

import (
	"net"
	"testing"
)

// FreePorts returns n distinct loopback ports that were free a moment
// ago. Another process may take one before the server binds it, so a
// caller starts the server again on other ports when it reports the
// address taken.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	ports := make([]int, n)
	// Every listener stays open until all are chosen, so that the kernel
	// gives n different ports.
	lns := make([]net.Listener, n)
	defer func() {
		for _, ln := range lns {
			if ln != nil {
				ln.Close()
			}
		}
	}()
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("finding a free loopback port: %v", err)
		}
		lns[i] = ln
		ports[i] = ln.Addr().(*net.TCPAddr).Port
	}
	return ports
}
