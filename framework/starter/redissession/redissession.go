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
	Help:         help,
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

// help says what each setting does, for --help and the configuration
// reference.
var help = map[string]string{
	"app.data.redis.url":                   "the Redis of the redis session store, as redis://[user:password@]host:port/db (rediss:// for TLS), with go-redis's URL options (?dial_timeout=...); wins over host, port, username, password and database",
	"app.data.redis.host":                  "Redis's host, when no URL is set",
	"app.data.redis.port":                  "Redis's port, when no URL is set",
	"app.data.redis.username":              "the ACL user to authenticate as, when no URL is set",
	"app.data.redis.password":              "the password to authenticate with, when no URL is set (never shown)",
	"app.data.redis.database":              "the logical database (SELECT), when no URL is set; a Cluster has only 0",
	"app.data.redis.client-name":           "the connections' name, as CLIENT LIST shows it",
	"app.data.redis.ssl.enabled":           "TLS to Redis, with the system's CAs unless ssl.bundle names a bundle; on when ssl.bundle is set",
	"app.data.redis.ssl.bundle":            "the SSL bundle of the TLS connections: its app.ssl.bundle.pem.<name>.truststore.certificate (CA) and keystore.certificate/.private-key (client certificate)",
	"app.data.redis.sentinel.master":       "the name of the primary that the Sentinels watch: Redis is found through them",
	"app.data.redis.sentinel.nodes":        "the Sentinels, as host:port,host:port",
	"app.data.redis.sentinel.username":     "the user to authenticate to the Sentinels as",
	"app.data.redis.sentinel.password":     "the password of the Sentinels (never shown)",
	"app.data.redis.cluster.nodes":         "some nodes of a Redis Cluster, as host:port,host:port: Redis is that Cluster",
	"app.data.redis.cluster.max-redirects": "bound on the MOVED/ASK redirections a command follows in a Cluster",
	"app.session.redis.namespace":          "prefix of the session keys in Redis",
	"app.data.redis.connect-timeout":       "bound on connecting to Redis",
	"app.data.redis.timeout":               "bound on each session operation in Redis, go-redis's retries included; past it the request is a 503",
}
