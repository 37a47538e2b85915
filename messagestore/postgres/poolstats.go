package postgres

import "time"

// PoolStats is the connection pool's state as pgx counts it. A service
// reports it under whatever names its dashboards know (greeter gives
// HikariCP's, in cmd/greeter/stores.go), so this adapter imports nothing
// of the management endpoints.
type PoolStats struct {
	Acquired, Idle, Max, Min int32         // lent out now, waiting in the pool, and the pool's bounds
	AcquireCount             int64         // connections lent so far
	AcquireDuration          time.Duration // the time those took to get, in all
	// CanceledAcquireCount counts the acquires whose context ended while
	// they waited: here, a statement whose timeout passed before a
	// connection was free, which is what HikariCP counts as a connection
	// timeout.
	CanceledAcquireCount int64
}

// PoolStats reads pgx's counts.
func (db *DB) PoolStats() PoolStats {
	st := db.pool.Stat()
	return PoolStats{
		Acquired:             st.AcquiredConns(),
		Idle:                 st.IdleConns(),
		Max:                  st.MaxConns(),
		Min:                  db.pool.Config().MinConns,
		AcquireCount:         st.AcquireCount(),
		AcquireDuration:      st.AcquireDuration(),
		CanceledAcquireCount: st.CanceledAcquireCount(),
	}
}
