package server

// An HTTP/2 connection's turns: at most
// server.http2.max-concurrent-stream-execution of its streams run their
// handlers at once, as Tomcat's Http2Protocol maxConcurrentStreamExecution
// bounds them (20); the others wait for a turn, holding no place under
// server.tomcat.threads.max. Go's server lets a connection run as many
// handlers as it has streams; the turns are the connection's own,
// handed to its requests through http.Server.ConnContext.

import (
	"context"
	"net"
)

// connTurnsKey is the context key of a connection's turns.
type connTurnsKey struct{}

// connTurns are a connection's turns: a place in the channel is a stream
// running.
type connTurns chan struct{}

// withConnTurns is an http.Server's ConnContext for a port that serves
// HTTP/2: each connection gets n turns. An HTTP/1.1 connection gets them
// too (a connection is not known to be HTTP/2 until it is read), and
// runs one request at a time in them.
func withConnTurns(n int) func(context.Context, net.Conn) context.Context {
	return func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connTurnsKey{}, make(connTurns, n))
	}
}

// connTurnsOf is the turns of a request's connection; nil when the port
// has none.
func connTurnsOf(ctx context.Context) connTurns {
	c, _ := ctx.Value(connTurnsKey{}).(connTurns)
	return c
}

// take waits for a turn, and reports false when ctx ends first (the
// stream reset, the connection closed).
func (c connTurns) take(ctx context.Context) bool {
	select {
	case c <- struct{}{}:
		return true
	default:
	}
	select {
	case c <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// give gives a turn back.
func (c connTurns) give() { <-c }
