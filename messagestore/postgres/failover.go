package postgres

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/multitracer"
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
// keeps it, and every write on it fails until the connection's lifetime
// ends. The URL's target_session_attrs (read-write) and its hosts are
// only consulted when a connection is opened.
//
// So the pool is reset when a statement fails in a way that says so:
// the server refused a write as read-only (25006), or the connection
// broke (pgx closed it after a network error, or after the server's
// FATAL: a fast or immediate shutdown, a crash, pg_terminate_backend). A
// timeout or a caller that gave up says nothing about the server, and a
// query that outlived its bound would otherwise reset the pool under
// load. pgxpool.Pool.Reset closes every idle connection at once, and
// each one lent out when it comes back, so that every later operation
// dials anew, through the URL's hosts in order, and lands on whichever
// one target_session_attrs accepts, or fails as an outage while none
// does. The cost, where one connection alone broke (a terminated
// session): the others are opened again.

// poolReset is a pgx tracer (ConnConfig.Tracer) that resets its pool
// when a statement's error says the connection's server went away or
// takes no writes.
type poolReset struct {
	pool   atomic.Pointer[pgxpool.Pool]
	resets atomic.Int64 // for tests
}

// resetOnServerLoss makes a poolReset cfg's tracer, beside the tracer
// cfg has. The pool it resets is given by watch, once built.
func resetOnServerLoss(cfg *pgxpool.Config) *poolReset {
	r := &poolReset{}
	if cfg.ConnConfig.Tracer == nil {
		cfg.ConnConfig.Tracer = r
	} else {
		cfg.ConnConfig.Tracer = multitracer.New(r, cfg.ConnConfig.Tracer)
	}
	return r
}

// watch is the pool that r resets.
func (r *poolReset) watch(pool *pgxpool.Pool) { r.pool.Store(pool) }

func (r *poolReset) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (r *poolReset) TraceQueryEnd(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryEndData) {
	if pool := r.pool.Load(); pool != nil && serverLost(ctx, conn, data.Err) {
		r.resets.Add(1)
		pool.Reset()
	}
}

// serverLost reports whether err, a statement's on conn, says that conn's
// server went away or takes no writes (see above).
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
