package postgres

import "github.com/springport/greeter/framework/management/metrics"

// PoolStats reads the connection pool's state for the metrics: pgx's
// counts under the names of the pools Spring's dashboards know (see
// metrics.PoolStats). An acquire that gave up is one whose context ended
// while it waited: here, a statement whose timeout passed before a
// connection was free, which is what HikariCP counts as a connection
// timeout.
func (db *DB) PoolStats() metrics.PoolStats {
	st := db.pool.Stat()
	return metrics.PoolStats{
		Active:      int(st.AcquiredConns()),
		Idle:        int(st.IdleConns()),
		Max:         int(st.MaxConns()),
		Min:         int(db.pool.Config().MinConns),
		Acquires:    uint64(st.AcquireCount()),
		AcquireTime: st.AcquireDuration(),
		Timeouts:    uint64(st.CanceledAcquireCount()),
	}
}
