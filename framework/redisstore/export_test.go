package redisstore

import (
	"context"
	"time"
)

// OpenWithClock is Open with the clock by which the store follows
// sessions here, so that tests can make a session idle here at once.
// Redis still expires keys by its own clock.
func OpenWithClock(ctx context.Context, opts Options, now func() time.Time) (*Store, error) {
	return open(ctx, opts, now)
}

// Key returns the Redis key of session id.
func (s *Store) Key(id string) string { return s.key(id) }

// Raw is a client of the package's own, apart from any store, by which
// tests look at keys as an operator would.
type Raw struct{ c *client }

// OpenRaw connects to the Redis at url.
func OpenRaw(url string) (*Raw, error) {
	srv, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	return &Raw{newClient(srv, 10*time.Second, 2)}, nil
}

// Do sends one command and returns its reply (see readReply); an error
// reply is an error.
func (r *Raw) Do(ctx context.Context, args ...any) (any, error) { return r.c.do(ctx, args...) }

// Close closes the client's connections.
func (r *Raw) Close() error { return r.c.close() }
