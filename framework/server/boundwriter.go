package server

// A request's writer under the bound (bound.go): it counts the writes
// it enters and leaves, so that the watcher sees a write that is blocked,
// and takes a place again after one that gave its place up.

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"sync/atomic"
)

// boundWriter is a request's writer under the bound: it counts the
// writes it enters and leaves, for the watcher.
type boundWriter struct {
	p          *places
	w          http.ResponseWriter
	stream     bool        // an HTTP/2 stream, reset when stalled
	held       atomic.Bool // holds a place
	gaveUp     atomic.Bool // gave its place up to a stalled write, and takes one again after
	ctx        context.Context
	alone      bool         // alone on its connection, as it waited first (next)
	writes     atomic.Int64 // odd while a write is under way
	registered bool         // on p's list (the handler's alone)
	prev, next *boundWriter // p's list, under p.mu

	// The watcher's, under p.mu.
	seen    int64 // writes when last looked at
	stalled int   // looks that found the same write under way
}

func (bw *boundWriter) Header() http.Header { return bw.w.Header() }

func (bw *boundWriter) WriteHeader(code int) { bw.w.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the server's writer.
func (bw *boundWriter) Unwrap() http.ResponseWriter { return bw.w }

func (bw *boundWriter) Write(b []byte) (int, error) {
	if !bw.registered {
		bw.p.register(bw)
	}
	written := 0
	for {
		piece := b[written:min(len(b), written+writePiece)]
		bw.writes.Add(1)
		n, err := bw.w.Write(piece)
		bw.writes.Add(1)
		bw.retake()
		written += n
		if err != nil || written == len(b) {
			return written, err
		}
	}
}

// Flush sends what was written, watched as a write is: over HTTP/2 it
// waits for the peer's window.
func (bw *boundWriter) Flush() {
	f, ok := bw.w.(http.Flusher)
	if !ok {
		return
	}
	if !bw.registered {
		bw.p.register(bw)
	}
	bw.writes.Add(1)
	f.Flush()
	bw.writes.Add(1)
	bw.retake()
}

// Hijack hands the connection over, and with it the place: what the
// handler does with the connection (a WebSocket's life) is not a
// request's work.
func (bw *boundWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(bw.w).Hijack()
	if err == nil && bw.held.CompareAndSwap(true, false) {
		bw.p.give(bw.alone)
	}
	return c, rw, err
}

// FlushError is Flush with the error, which http.ResponseController
// prefers.
func (bw *boundWriter) FlushError() error {
	if !bw.registered {
		bw.p.register(bw)
	}
	bw.writes.Add(1)
	err := http.NewResponseController(bw.w).Flush()
	bw.writes.Add(1)
	bw.retake()
	return err
}

// retake takes a place again after a write that gave its place up
// (stallRelease): the client reads again, and what the handler does next
// is work under the bound like any request's, or a client that stalls a
// moment at the start would have the rest of an expensive answer made
// outside it. It waits as a new request does, but is never refused (its
// answer has begun): it waits again until a place is free, or its
// request ends.
func (bw *boundWriter) retake() {
	if !bw.gaveUp.Load() || !bw.gaveUp.CompareAndSwap(true, false) {
		return
	}
	for !bw.p.take(bw.alone) && !bw.p.wait(bw.ctx, bw.alone) {
		if bw.ctx.Err() != nil {
			return // ends without a place; done gives none back
		}
	}
	bw.held.Store(true)
}
