package datasource

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A connection can die without a word: a network that partitions, a
// firewall, NAT or load balancer on the path that drops its flows, leave
// it open on the service's side and silent forever (half-open). pgx finds
// that out only by using it: a statement on it waits for the query
// timeout, and an acquire pings one idle longer than a second, within
// what is left of the request's bound. So after a partition heals, every
// idle connection it caught would still cost a request its whole bound
// and a 503, and one left idle would stay in the pool until max-lifetime.
//
// So the pool does what HikariCP does with the same settings:
//
//   - validation-timeout bounds the ping of an idle connection at
//     acquire: a dead one costs that much, not the request's whole bound,
//     and the acquire goes on to another connection, or a new one;
//   - a ping that fails sends every idle connection a ping of its own
//     (a sweep), each within the validation timeout, and those that do
//     not answer are closed: when one idle connection is found dead, the
//     partition that killed it most likely killed its siblings, and they
//     are given up at once rather than one request at a time;
//   - keepalive-time sweeps the idle connections that often anyway, so
//     that those no request reaches are found dead too.

// aliveBypass is how long a connection may have been idle and still be
// lent without a ping: pgxpool's rule (HikariCP's aliveBypassWindow is
// 500 ms).
const aliveBypass = time.Second

// validator pings idle connections for the pool: at acquire (ShouldPing),
// in sweeps, and every keepalive.
type validator struct {
	pool     atomic.Pointer[pgxpool.Pool]
	timeout  time.Duration // validation-timeout
	sweeping atomic.Bool
	stop     chan struct{}
	stopOnce sync.Once
	// mu orders a sweep's start against close: none starts once close
	// has begun to wait (sync.WaitGroup forbids an Add that races its
	// Wait, and a sweep must not take connections from a closing pool).
	mu     sync.Mutex
	closed bool
	done   sync.WaitGroup
}

func newValidator(timeout time.Duration) *validator {
	return &validator{timeout: timeout, stop: make(chan struct{})}
}

// start is the pool v validates, once built, and every keepalive (0:
// none) it sweeps the pool.
func (v *validator) start(pool *pgxpool.Pool, keepalive time.Duration) {
	v.pool.Store(pool)
	if keepalive <= 0 {
		return
	}
	v.done.Go(func() {
		tick := time.NewTicker(keepalive)
		defer tick.Stop()
		for {
			select {
			case <-v.stop:
				return
			case <-tick.C:
				v.sweep()
			}
		}
	})
}

// close stops the keepalive and waits for a sweep under way.
func (v *validator) close() {
	v.mu.Lock()
	v.closed = true
	v.mu.Unlock()
	v.stopOnce.Do(func() { close(v.stop) })
	v.done.Wait()
}

// shouldPing is pgxpool's ShouldPing: a connection idle longer than
// aliveBypass is pinged here, within the validation timeout; one that
// does not answer starts a sweep, and is pinged again by pgxpool, which
// then finds it closed at once, destroys it and goes on to another.
func (v *validator) shouldPing(ctx context.Context, p pgxpool.ShouldPingParams) bool {
	if p.IdleDuration <= aliveBypass {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, v.timeout)
	defer cancel()
	if err := p.Conn.Ping(ctx); err != nil {
		v.sweep()
		return true
	}
	return false
}

// sweep pings every idle connection at once, each within the validation
// timeout, in the background; those that fail are closed, and given up
// when released. Only one sweep runs at a time.
func (v *validator) sweep() {
	pool := v.pool.Load()
	if pool == nil || !v.sweeping.CompareAndSwap(false, true) {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		v.sweeping.Store(false)
		return
	}
	v.done.Go(func() {
		defer v.sweeping.Store(false)
		var pings sync.WaitGroup
		for _, c := range pool.AcquireAllIdle(context.Background()) {
			pings.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), v.timeout)
				defer cancel()
				if c.Ping(ctx) != nil && !c.Conn().IsClosed() {
					// A ping that timed out has closed the connection
					// already; any other failure closes it here.
					c.Conn().PgConn().Close(ctx)
				}
				c.Release() // destroys a closed connection
			})
		}
		pings.Wait()
	})
}
