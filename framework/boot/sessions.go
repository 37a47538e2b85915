package boot

import (
	"context"

	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/session/memstore"
	"github.com/springport/greeter/framework/session/redisstore"
)

// openSessions opens the session store that app.session.store-type names:
// in memory, the default, or Redis, shared by every instance and reported
// in health. A Redis that cannot be reached stops start-up, naming the
// setting that says where it is (app.data.redis.url, .host,
// .sentinel.nodes or .cluster.nodes).
func (a *App) openSessions(ctx context.Context) error {
	s := a.settings.sessions
	switch s.storeType {
	case "redis":
		opts := s.redis.opts
		opts.IdleTimeout, opts.MaxSessions, opts.Logger = s.timeout, s.maxSessions, a.Logger(redisLogger)
		store, err := redisstore.Open(ctx, opts)
		if err != nil {
			return a.EngineError("Redis server", s.redis.locator, s.redis.locatorValue, err)
		}
		a.OnClose(store.Close)
		a.sessions = store
		// With Redis, "active" is the sessions this process follows (see
		// redisstore.Store.Len), and "evicted" those it stopped following
		// past max-sessions, which live on in Redis.
		a.metrics.Sessions(store.Len, store.Max(), store.Evicted)
		a.metrics.RedisPool(func() metrics.RedisPoolStats {
			p := store.PoolStats()
			return metrics.RedisPoolStats{Hits: uint64(p.Hits), Misses: uint64(p.Misses), Timeouts: uint64(p.Timeouts),
				Total: p.TotalConns, Idle: p.IdleConns, Stale: p.StaleConns}
		})
		a.Health(actuator.Indicator{Name: "redis", Check: func(ctx context.Context) (map[string]any, error) {
			version, err := store.Ping(ctx)
			if err != nil {
				return nil, err
			}
			return map[string]any{"version": version}, nil
		}})
	default:
		store := memstore.New(memstore.Options{IdleTimeout: s.timeout, MaxSessions: s.maxSessions, Logger: a.Logger(sessionsLogger)})
		a.OnClose(store.Close)
		a.sessions = store
		a.metrics.Sessions(store.Len, store.Max(), store.Evicted)
	}
	return nil
}
