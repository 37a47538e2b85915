package redis

import (
	"context"
	"time"
)

// OpenWithClock is Open with the clock by which the store follows
// sessions here, so that tests can make a session idle here at once.
// Redis still expires keys by its own clock.
func OpenWithClock(ctx context.Context, opts Options, now func() time.Time) (*Sessions, error) {
	return open(ctx, opts, now)
}

// Key returns the Redis key of session id.
func (s *Sessions) Key(id string) string { return s.key(id) }
