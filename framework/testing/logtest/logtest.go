// Package logtest gives tests a log destination that they can read while
// the code under test is still writing to it, from any goroutine. Only
// tests import it, and boottest, the harness tests run services with.
package logtest

import (
	"bytes"
	"sync"
)

// Buffer is an io.Writer that is safe for concurrent use: a server's
// goroutines write to it while a test reads what they wrote. The zero
// Buffer is empty and ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
