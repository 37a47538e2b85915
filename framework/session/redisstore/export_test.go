package redisstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// OpenWithClock is Open with the clock by which the store follows
// sessions here, so that tests can make a session idle here at once.
// Redis still expires keys by its own clock.
func OpenWithClock(ctx context.Context, opts Options, now func() time.Time) (*Store, error) {
	return open(ctx, opts, now)
}

// Key returns the Redis key of session id.
func (s *Store) Key(id string) string { return s.key(id) }

// Raw is a client apart from any store, by which tests look at keys as
// an operator would.
type Raw struct{ c *redis.Client }

// OpenRaw connects to the Redis at url. It speaks RESP2, so that replies
// are strings, integers and arrays.
func OpenRaw(url string) (*Raw, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	opts.Protocol = 2
	return &Raw{redis.NewClient(opts)}, nil
}

// Do sends one command and returns its reply; an error reply is an error.
func (r *Raw) Do(ctx context.Context, args ...any) (any, error) { return r.c.Do(ctx, args...).Result() }

// Close closes the client's connections.
func (r *Raw) Close() error { return r.c.Close() }
