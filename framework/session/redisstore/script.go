package redisstore

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// run runs the Lua script s with KEYS[1] = key and ARGV = args. Redis
// caches the scripts it has run by the SHA-1 of their source, so
// go-redis sends s by its digest (EVALSHA), and in full (EVAL) only when
// Redis answers that it does not know it: the first time, or after a
// restart, a failover or SCRIPT FLUSH. In a Cluster the command goes to
// the node of key's slot.
func (s *Store) run(ctx context.Context, script *redis.Script, key string, args ...any) *redis.Cmd {
	return script.Run(ctx, s.client, []string{key}, args...)
}
