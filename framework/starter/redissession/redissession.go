// Package redissession is the starter that keeps a service's HTTP
// sessions in Redis, as Spring Session Data Redis does: a service names
// it in boot.Service.Starters, and app.session.store-type=redis then
// opens framework/session/redisstore on the Redis that app.data.redis.*
// (Spring Boot's spring.data.redis.* names) says where to find: one
// server, a primary behind Sentinel, or a Cluster, over TLS if asked.
// The store is in /actuator/health as redis, its pool in
// /actuator/prometheus, and a Redis that cannot be reached stops start-up,
// naming the setting that says where it is.
//
// A service that does not name it does not link go-redis, and one given
// app.session.store-type=redis is refused, naming this starter.
package redissession

import (
	"context"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/session/redisstore"
)

// logger is the framework's logger <service>.redis.
const logger = "redis"

// Starter keeps HTTP sessions in Redis when app.session.store-type=redis.
var Starter = boot.Starter{
	Name:         boot.RedisSessionStarter,
	SessionStore: "redis",
	Bind: func(b *config.Binder) func(context.Context, *boot.App) error {
		s := bindRedis(b)
		return func(ctx context.Context, a *boot.App) error { return start(ctx, a, s) }
	},
}

// start opens the store when the sessions are to live in Redis.
func start(ctx context.Context, a *boot.App, s redisSettings) error {
	sessions := a.Sessions()
	if sessions.StoreType != "redis" {
		return nil
	}
	opts := s.opts
	opts.IdleTimeout, opts.MaxSessions, opts.Logger = sessions.Timeout, sessions.MaxSessions, a.Logger(logger)
	store, err := redisstore.Open(ctx, opts)
	if err != nil {
		return a.EngineError("Redis server", s.locator, s.locatorValue, err)
	}
	// With Redis, "active" is the sessions this process follows (see
	// redisstore.Store.Len), and "evicted" those it stopped following
	// past max-sessions, which live on in Redis.
	a.UseSessionStore(store)
	a.RedisPool(func() metrics.RedisPoolStats {
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
	return nil
}
