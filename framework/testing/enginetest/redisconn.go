package enginetest

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisConn is a client of the tests' Redis, for the few commands of these
// helpers: go-redis, as the service's session store uses, on one
// connection.
type redisConn struct {
	client  *redis.Client
	timeout time.Duration
}

// dialRedis connects to the Redis at rawURL (redis://[[user]:password@]
// host[:port][/db]), authenticating and selecting the database as the
// URL says, and checks that it answers. Each command must be answered
// within timeout.
func dialRedis(rawURL string, timeout time.Duration) (*redisConn, error) {
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = timeout, timeout, timeout
	opts.PoolSize, opts.MaxRetries = 1, -1
	c := &redisConn{client: redis.NewClient(opts), timeout: timeout}
	if _, err := c.do("PING"); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// command sends a command and returns its reply, within the timeout.
func (c *redisConn) command(args ...string) *redis.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	anyArgs := make([]any, len(args))
	for i, a := range args {
		anyArgs[i] = a
	}
	return c.client.Do(ctx, anyArgs...)
}

// do sends a command and returns its reply as text: "OK" for +OK, "3"
// for :3. An error reply is an error.
func (c *redisConn) do(args ...string) (string, error) {
	v, err := c.command(args...).Result()
	if err != nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}

// count sends a command that answers with an integer, and returns it.
func (c *redisConn) count(args ...string) (int, error) {
	return c.command(args...).Int()
}

func (c *redisConn) Close() error { return c.client.Close() }

// deleteKeysScript deletes the keys that match ARGV[1] and returns how
// many it deleted: SCAN's replies stay in Redis.
const deleteKeysScript = `
local deleted, cursor = 0, '0'
repeat
  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    deleted = deleted + redis.call('DEL', key)
  end
until cursor == '0'
return deleted`
