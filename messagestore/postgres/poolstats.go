package postgres

import "time"

// PoolStats is the connection pool's state, in the terms of the pools
// Spring's dashboards know (HikariCP's): the framework's
// metrics.PoolStats has the same fields, so a service converts one into
// the other where it reports the pool (cmd/greeter/stores.go), and this
// adapter imports nothing of the management endpoints.
type PoolStats struct {
	Active, Idle int // connections lent out now, and waiting in the pool
	Max, Min     int // the pool's bounds
	// Acquires counts the connections lent so far, and AcquireTime is the
	// time they took to get, in all.
	Acquires    uint64
	AcquireTime time.Duration
	// Timeouts counts the acquires that gave up waiting for a connection.
	Timeouts uint64
}

// PoolStats reads pgx's counts. An acquire that gave up is one whose
// context ended while it waited: here, a statement whose timeout passed
// before a connection was free, which is what HikariCP counts as a
// connection timeout.
func (db *DB) PoolStats() PoolStats {
	st := db.pool.Stat()
	return PoolStats{
		Active:      int(st.AcquiredConns()),
		Idle:        int(st.IdleConns()),
		Max:         int(st.MaxConns()),
		Min:         int(db.pool.Config().MinConns),
		Acquires:    uint64(st.AcquireCount()),
		AcquireTime: st.AcquireDuration(),
		Timeouts:    uint64(st.CanceledAcquireCount()),
	}
}
