// Package peer holds what the framework peers share: their command line and
// the in-memory message list that POST /api/messages appends to.
package peer

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"

	"github.com/springport/greeter/bench/reference"
)

// Messages is the in-memory message list, appended to under a mutex as the
// reference does.
type Messages struct {
	mu    sync.Mutex
	texts []string
}

// Append adds a message's text to the list.
func (m *Messages) Append(text string) {
	m.mu.Lock()
	m.texts = append(m.texts, text)
	m.mu.Unlock()
}

// Texts returns a copy of the list.
func (m *Messages) Texts() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.texts...)
}

// Main serves the server that newServer makes over a new message list and a
// random number (the fixed component behind GET /api/number/val-a), as the
// reference command does: on 127.0.0.1 and the port of --server.port=N
// (8080 without it; 0 picks a free one), printing the address it listens
// on, until SIGINT or SIGTERM. It exits on an error.
func Main(newServer func(*Messages, int32) reference.Runner) {
	args, err := reference.Args(os.Args[1:], map[string]string{"server.port": "8080"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := reference.Serve(newServer(new(Messages), rand.Int32()), args["server.port"]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// HTTP is the newServer of Main for a net/http handler: an http.Server with
// the reference's limits (timeouts and header size).
func HTTP(handler func(*Messages, int32) http.Handler) func(*Messages, int32) reference.Runner {
	return func(m *Messages, valA int32) reference.Runner {
		return reference.Server(handler(m, valA))
	}
}
