package redisstore

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/internal/recency"
)

var _ component.SharedSessionStore = (*Store)(nil)

// Store is a component.SharedSessionStore in Redis. It is safe for
// concurrent use.
type Store struct {
	client     redis.UniversalClient
	prefix     string // of every session's key: Namespace + ":sessions:"
	idle       time.Duration
	timeout    time.Duration
	max        int
	sweepEvery time.Duration
	logger     *slog.Logger

	now func() time.Time // by which sessions are followed here; Redis keeps its own time

	mu       sync.Mutex
	followed recency.List
	onEnd    []func(id string)
	closed   bool
	evicted  atomic.Uint64 // sessions no longer followed past max

	stopSweeper context.CancelFunc
	sweeperDone chan struct{}
}

func newStore(client redis.UniversalClient, opts Options, timeout time.Duration, now func() time.Time) *Store {
	idle := opts.IdleTimeout
	if idle <= 0 {
		idle = 30 * time.Minute
	}
	idle = max(idle, time.Millisecond) // Redis expires in whole milliseconds; 0 would delete
	return &Store{
		client:      client,
		prefix:      strings.TrimSuffix(cmp.Or(opts.Namespace, "app:session"), ":") + ":sessions:",
		idle:        idle,
		timeout:     timeout,
		max:         positiveOr(opts.MaxSessions, 100_000),
		sweepEvery:  positiveOr(opts.SweepInterval, min(idle, time.Minute)),
		logger:      cmp.Or(opts.Logger, slog.Default()),
		now:         now,
		sweeperDone: make(chan struct{}),
	}
}

// Hash fields of a session.
const (
	createdField = "created"
	statePrefix  = "state:"
)

// Session ids are 32 random bytes in unpadded URL-safe base64: 256 bits
// that no client can guess, in characters that a cookie carries as they
// are.
const idBytes = 32

var idLen = base64.RawURLEncoding.EncodedLen(idBytes)

func newID() string {
	var b [idBytes]byte
	rand.Read(b[:]) // never fails: it crashes the program first
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// wellFormed reports whether id could be one of ours. Anything else that
// a client sends as its cookie is no live session, and is answered
// without asking Redis.
func wellFormed(id string) bool {
	if len(id) != idLen {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// key is session id's key; the braces are its hash tag (see the package
// documentation).
func (s *Store) key(id string) string { return s.prefix + "{" + id + "}" }

// The scripts make each change one round trip, and atomic: a state is
// saved, and the expiry refreshed, only while the session still exists,
// so that a save racing the session's expiry or deletion cannot bring
// back a hash that nothing would ever expire. KEYS[1] is the session.
// Each is made (its SHA-1 computed) at its first use: the package is
// linked into every build, and most never use Redis.
var (
	// ARGV: field, created (Unix ms), idle timeout (ms).
	createScript = sync.OnceValue(func() *redis.Script {
		return redis.NewScript(`
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`)
	})

	// ARGV: field, state, idle timeout (ms). Returns the state saved now;
	// the given one when the session has ended.
	saveIfAbsentScript = sync.OnceValue(func() *redis.Script {
		return redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return ARGV[2] end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('HGET', KEYS[1], ARGV[1])`)
	})

	// ARGV: field, state, idle timeout (ms).
	saveScript = sync.OnceValue(func() *redis.Script {
		return redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`)
	})
)

// Create starts a new session in Redis, expiring after the idle timeout.
func (s *Store) Create(ctx context.Context) (string, error) {
	id := newID()
	ctx, cancel := s.bound(ctx)
	defer cancel()
	err := s.run(ctx, createScript(), s.key(id), createdField, s.now().UnixMilli(), s.idle.Milliseconds()).Err()
	if err != nil {
		return "", failure(err)
	}
	s.follow(id, false)
	return id, nil
}

// Touch reports whether id is a live session and restarts its idle
// timeout, in one round trip: PEXPIRE answers whether the key exists.
func (s *Store) Touch(ctx context.Context, id string) (bool, error) {
	if !wellFormed(id) {
		return false, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	live, err := s.client.PExpire(ctx, s.key(id), s.idle).Result()
	if err != nil {
		return false, failure(err)
	}
	if live {
		s.follow(id, true)
	} else {
		s.unfollow(id)
	}
	return live, nil
}

// Delete ends the session id now, here and in Redis, and reports it.
func (s *Store) Delete(ctx context.Context, id string) error {
	if !wellFormed(id) {
		return nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	n, err := s.client.Del(ctx, s.key(id)).Result()
	if err != nil {
		return failure(err)
	}
	if !s.unfollow(id) && n > 0 {
		s.tell(id) // created and served elsewhere; the container may hold it all the same
	}
	return nil
}

// OnEnd registers f to be told the id of every session that ends, or that
// this process stops following (see MaxSessions). f is called without the
// store's lock held, on the sweeper's goroutine or the caller's of
// Create, Touch or Delete.
func (s *Store) OnEnd(f func(id string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onEnd = append(s.onEnd, f)
}

// LoadState returns the saved state of component name in session id.
func (s *Store) LoadState(ctx context.Context, id, name string) ([]byte, bool, error) {
	if !wellFormed(id) {
		return nil, false, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	data, err := s.client.HGet(ctx, s.key(id), statePrefix+name).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, failure(err)
	}
	return data, true, nil
}

// SaveStateIfAbsent saves data as the state of component name in session
// id unless one is saved, and returns the state saved now; HSETNX, HGET
// and the refresh of the expiry go in one script.
func (s *Store) SaveStateIfAbsent(ctx context.Context, id, name string, data []byte) ([]byte, error) {
	if !wellFormed(id) {
		return data, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	saved, err := s.run(ctx, saveIfAbsentScript(), s.key(id), statePrefix+name, data, s.idle.Milliseconds()).Text()
	if err != nil {
		return nil, failure(err)
	}
	return []byte(saved), nil
}

// SaveState saves data as the state of component name in session id,
// while the session exists, and refreshes its expiry.
func (s *Store) SaveState(ctx context.Context, id, name string, data []byte) error {
	if !wellFormed(id) {
		return nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.run(ctx, saveScript(), s.key(id), statePrefix+name, data, s.idle.Milliseconds()).Err(); err != nil {
		return failure(err)
	}
	return nil
}

// positiveOr is v, or def when v is zero or negative: an option that
// counts or times something has no meaning below zero (a negative bound
// of sessions would have nothing to evict; a ticker cannot tick at it).
func positiveOr[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
