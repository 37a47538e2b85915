package datasource

import (
	"context"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// When pgx gives up a connection (a statement or ping past its deadline,
// a broken read), it closes it in the background: it sends the server a
// cancel request on a new connection, then Terminate, and reads what the
// server still sends until it closes, for up to 15 s each. pgxpool keeps
// the connection's place in the pool until that ends, so as never to hold
// more than maximum-pool-size sockets. On a path that a partition cut off
// without a word, nothing ever answers: every connection given up holds
// its place for the full 15 s, and a pool whose connections a partition
// caught cannot open a new one for that long after the network heals.
//
// So the connections are dialed through boundedDial, which bounds that
// goodbye by the connection timeout, as a connection's opening is bounded:
// a cancel request's connection lives at most that long, and no deadline
// set on a connection (the close's 15 s) reaches further.

// boundedDial wraps dial so that each connection it makes waits at most
// bound for anything once a deadline is set on it, and a cancel
// request's connection lives at most bound.
func boundedDial(dial pgconn.DialFunc, bound time.Duration) pgconn.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		// pgx bounds every connect by the connect timeout: a dial whose
		// context allows longer is a cancel request's.
		if d, ok := ctx.Deadline(); !ok || time.Until(d) > bound {
			conn.SetDeadline(time.Now().Add(bound))
		}
		return &boundedConn{Conn: conn, bound: bound}, nil
	}
}

// boundedConn is a connection whose deadlines reach at most bound ahead.
// pgx sets a deadline only to interrupt (a context ended: now) and to
// close (15 s), and clears it with the zero time, which stays as it is.
type boundedConn struct {
	net.Conn
	bound time.Duration
}

func (c *boundedConn) cap(t time.Time) time.Time {
	if latest := time.Now().Add(c.bound); !t.IsZero() && t.After(latest) {
		return latest
	}
	return t
}

func (c *boundedConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.cap(t)) }
func (c *boundedConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.cap(t)) }
func (c *boundedConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.cap(t)) }
