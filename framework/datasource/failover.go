package datasource

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// When the server that the pool's connections reach goes away (shut
// down, crashed, cut off) or stops taking writes (a primary fenced
// read-only for a switchover), every connection the pool holds to it is
// as useless as the one that found out. pgx finds a broken connection
// only when it uses it (or pings it, after a second idle), so each of
// them could still fail a request once the new primary is up; and a
// connection to a server that turned read-only works for reads, so pgx
// keeps it, serving reads that miss what the new primary takes, and
// every write on it fails until the connection's lifetime ends. The URL's
// hosts and target_session_attrs (read-write) are only consulted when a
// connection is opened.
//
// So the pool is reset when a statement says that its server is lost:
//
//   - the server refused a write as read-only (25006);
//   - the server turned read-only while the connection was open:
//     PostgreSQL 14 and later report default_transaction_read_only and
//     in_hot_standby to the client as they change, so a fenced primary
//     tells each session at its next statement, read or write (a
//     connection opened to a server already read-only, as a URL without
//     target_session_attrs may reach a standby, resets nothing by its
//     reads: each would reopen the pool);
//   - the connection broke: pgx closed it after a network error, or after
//     the server's FATAL (a fast or immediate shutdown, a crash,
//     pg_terminate_backend). Not after a timeout, or a caller that gave
//     up: that says nothing about the server, and under load every
//     statement that outlived its bound would reopen the pool.
//
// pgxpool.Pool.Reset closes every idle connection at once, and each one
// lent out when it comes back, so that every later operation dials anew,
// through the URL's hosts in order, and lands on whichever one
// target_session_attrs accepts, or fails as an outage while none does.
// The cost, where one connection alone broke (a terminated session): the
// others are opened again.

// poolReset is a pgx tracer (ConnConfig.Tracer, beside the pool's meter
// and any tracer of Options.Configure) that resets its pool when a
// statement says that its server is lost (see above). The pool it resets
// is given by watch, once built.
type poolReset struct {
	pool atomic.Pointer[pgxpool.Pool]
}

// watch is the pool that r resets.
func (r *poolReset) watch(pool *pgxpool.Pool) { r.pool.Store(pool) }

// tookWrites is the key, in a connection's CustomData, of whether its
// server took writes when a statement last began or ended on it: a bool,
// kept on the connection rather than in each statement's context, so that
// a statement costs two lookups and no allocation.
const tookWrites = "datasource.tookWrites"

func (r *poolReset) TraceQueryStart(ctx context.Context, conn *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	if data := conn.PgConn().CustomData(); data[tookWrites] == nil {
		data[tookWrites] = !readOnly(conn.PgConn())
	}
	return ctx
}

func (r *poolReset) TraceQueryEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryEndData) {
	pool := r.pool.Load()
	if pool == nil {
		return
	}
	custom := conn.PgConn().CustomData()
	took, _ := custom[tookWrites].(bool)
	now := !readOnly(conn.PgConn())
	if took != now {
		custom[tookWrites] = now
	}
	turned := took && !now
	if turned || serverLost(ctx, conn, data.Err) {
		pool.Reset()
	}
}

// readOnly reports whether conn's server last said that it takes no
// writes by default: in hot standby, or default_transaction_read_only on.
// A server before PostgreSQL 14 reports neither, and is never read-only
// here.
func readOnly(conn *pgconn.PgConn) bool {
	return conn.ParameterStatus("default_transaction_read_only") == "on" || conn.ParameterStatus("in_hot_standby") == "on"
}

// serverLost reports whether err, a statement's on conn, says that conn's
// server went away or takes no writes: 25006, or a connection that broke
// (see above).
func serverLost(ctx context.Context, conn *pgx.Conn, err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "25006" { // read_only_sql_transaction
		return true
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return false
	}
	return conn.IsClosed()
}
