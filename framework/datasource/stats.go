package datasource

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Stats is the pool's state as HikariCP's meters count it, read from
// pgx's counts and from the pool's own tracer. A service reports it under
// whatever names its dashboards know (the datasource starter gives
// HikariCP's and Spring's DataSource's), so this adapter imports nothing
// of the management endpoints.
type Stats struct {
	Active, Idle int32 // connections lent out now, and waiting in the pool
	Max, MinIdle int32 // the pool's bounds: maximum-pool-size, minimum-idle
	// Pending counts the acquires waiting for a connection now (Hikari's
	// threads awaiting one).
	Pending int32
	// Acquires counts the connections lent so far, and AcquireTime is the
	// time those took to get, in all.
	Acquires    int64
	AcquireTime time.Duration
	// Timeouts counts the acquires that a deadline cut off while they
	// waited: the connection timeout's, or that of the statement that
	// needed the connection, sooner. One whose caller gave up
	// (context.Canceled: a client that left) is not counted.
	Timeouts int64
	// Creations counts the connections opened, and CreationTime the time
	// they took to open, TLS and authentication included.
	Creations    int64
	CreationTime time.Duration
	// Usages counts the connections given back to the pool, and
	// UsageTime the time they were lent out, in all.
	Usages    int64
	UsageTime time.Duration
}

// Stats reads the pool's counts.
func (p *Pool) Stats() Stats {
	st := p.pool.Stat()
	m := p.meter
	return Stats{
		Active:       st.AcquiredConns(),
		Idle:         st.IdleConns(),
		Max:          st.MaxConns(),
		MinIdle:      p.minIdle,
		Pending:      m.pending.Load(),
		Acquires:     st.AcquireCount(),
		AcquireTime:  st.AcquireDuration(),
		Timeouts:     m.timeouts.Load(),
		Creations:    m.creations.Load(),
		CreationTime: time.Duration(m.creationNanos.Load()),
		Usages:       m.usages.Load(),
		UsageTime:    time.Duration(m.usageNanos.Load()),
	}
}

// meter is the pool's tracer (pgx's ConnConfig.Tracer): it bounds every
// acquire by the connection timeout, as Hikari's getConnection is, and
// counts what pgx's pool does not: the acquires waiting, the time to
// open a connection, and how long each is lent out.
type meter struct {
	acquireTimeout time.Duration // 0: none

	pending                  atomic.Int32
	timeouts                 atomic.Int64
	creations, creationNanos atomic.Int64
	usages, usageNanos       atomic.Int64
	lent                     sync.Map // *pgx.Conn → when it was lent (time.Time)
}

// acquireKey holds, in an acquire's context, what ends its bound.
type acquireKey struct{}

// connectKey holds, in a connection's context, when it began.
type connectKey struct{}

// errAcquireTimeout is the cause of an acquire that the connection
// timeout cut off.
var errAcquireTimeout = errors.New("no connection of the pool was free within the connection timeout")

func (m *meter) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	m.pending.Add(1)
	if m.acquireTimeout == 0 {
		return ctx
	}
	ctx, cancel := context.WithTimeoutCause(ctx, m.acquireTimeout, errAcquireTimeout)
	return context.WithValue(ctx, acquireKey{}, cancel)
}

func (m *meter) TraceAcquireEnd(ctx context.Context, _ *pgxpool.Pool, data pgxpool.TraceAcquireEndData) {
	m.pending.Add(-1)
	if cancel, ok := ctx.Value(acquireKey{}).(context.CancelFunc); ok {
		cancel()
	}
	if data.Err != nil && errors.Is(data.Err, context.DeadlineExceeded) {
		m.timeouts.Add(1)
	}
	if data.Conn != nil {
		m.lent.Store(data.Conn, time.Now())
	}
}

func (m *meter) TraceRelease(_ *pgxpool.Pool, data pgxpool.TraceReleaseData) {
	if since, ok := m.lent.LoadAndDelete(data.Conn); ok {
		m.usages.Add(1)
		m.usageNanos.Add(int64(time.Since(since.(time.Time))))
	}
}

func (m *meter) TraceConnectStart(ctx context.Context, _ pgx.TraceConnectStartData) context.Context {
	return context.WithValue(ctx, connectKey{}, time.Now())
}

func (m *meter) TraceConnectEnd(ctx context.Context, data pgx.TraceConnectEndData) {
	began, ok := ctx.Value(connectKey{}).(time.Time)
	if !ok || data.Err != nil {
		return
	}
	m.creations.Add(1)
	m.creationNanos.Add(int64(time.Since(began)))
}

// The tracer sees no query: the statements are the service's to trace.

func (m *meter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (m *meter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
