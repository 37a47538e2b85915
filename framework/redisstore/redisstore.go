// Package redisstore keeps a service's HTTP sessions in Redis, so that they
// survive a restart and every instance of the service shares them: it is
// the component.SharedSessionStore of the session scope, the counterpart
// of Spring Session's Redis repository.
//
// Each session is one Redis hash, under Namespace+":sessions:"+id, that
// expires when the session has been idle for IdleTimeout:
//
//	created          when the session began, in Unix milliseconds; it keeps
//	                 the hash present before any component has a state
//	state:<name>     the saved state of session component <name>, as its
//	                 MarshalBinary wrote it
//
// Create, Touch and every save (re)set the hash's expiry; Delete removes
// it. Redis expires an idle hash by itself and tells no one, so the
// process follows the sessions it has created or touched, and a sweeper
// reports the end of those Redis no longer holds (see sweep.go).
//
// Redis failing or out of reach is an *outage.Error; the client reconnects
// by itself when Redis is back.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/springport/greeter/framework/outage"
)

// Options configure Open. Zero values are defaults.
type Options struct {
	// URL locates the server, as redis://[user:password@]host:port/db
	// (rediss:// for TLS). It is never printed with its password.
	URL string
	// Namespace prefixes every key; empty means "app:session", as app.session.redis.namespace.
	Namespace string
	// IdleTimeout ends a session unused for this long: Redis expires it.
	// Zero (or less) means 30 minutes, Spring Boot's default.
	IdleTimeout time.Duration
	// ConnectTimeout bounds establishing a connection; zero (or less) means 3s.
	ConnectTimeout time.Duration
	// Timeout bounds each command, waiting for a pooled connection
	// included; zero (or less) means 3s.
	Timeout time.Duration
	// MaxSessions bounds how many sessions this process follows to report
	// their ends; past it, it reports the least recently touched one as
	// ended here and forgets it, which releases only its instances in this
	// process. Zero (or less) means 100,000.
	MaxSessions int
	// SweepInterval is how often the sweeper looks for sessions Redis has
	// expired; zero (or less) means the idle timeout, at most a minute.
	SweepInterval time.Duration
	// Logger logs what the sweeper cannot return: Redis failing while it
	// sweeps. Nil means slog.Default().
	Logger *slog.Logger
}

// Open connects to the Redis at opts.URL, checks it answers, and starts
// the sweeper; Close stops both. A server that cannot be reached is an
// *outage.Error.
func Open(ctx context.Context, opts Options) (*Store, error) {
	return open(ctx, opts, time.Now)
}

// open is Open with the clock by which the store follows sessions here.
func open(ctx context.Context, opts Options, now func() time.Time) (*Store, error) {
	u, err := parseQuietly(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("redis: the URL is invalid (not shown, as it may hold a password): %w", err)
	}
	where := u.Redacted()
	srv, err := serverAt(u)
	if err != nil {
		return nil, fmt.Errorf("redis: URL %s: %w", where, err)
	}
	connect := positiveOr(opts.ConnectTimeout, 3*time.Second)
	timeout := positiveOr(opts.Timeout, 3*time.Second)
	// go-redis's default pool size: enough connections that every CPU
	// can have several commands waiting on Redis.
	poolSize := 10 * runtime.GOMAXPROCS(0)

	s := newStore(newClient(srv, connect, poolSize), opts, timeout, now)
	pingCtx, cancel := context.WithTimeout(ctx, connect+timeout)
	defer cancel()
	if _, err := s.client.do(pingCtx, "PING"); err != nil {
		s.client.close()
		return nil, fmt.Errorf("redis: connecting to %s: %w", where, failure(err))
	}
	s.startSweeper()
	return s, nil
}

// Close stops the sweeper and closes the connections. Closing twice is
// harmless. It reports no session as ended: they live on in Redis.
func (s *Store) Close() error {
	s.mu.Lock()
	wasClosed := s.closed
	s.closed = true
	s.mu.Unlock()
	if wasClosed {
		return nil
	}
	s.stopSweeper()
	<-s.sweeperDone
	return s.client.close()
}

// Ping reports the server's version ("7.0.15"), for health details; an
// unreachable server is an *outage.Error.
func (s *Store) Ping(ctx context.Context) (version string, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	info, _, err := bulk(s.client.do(ctx, "INFO", "server"))
	if err != nil {
		return "", failure(err)
	}
	for line := range strings.Lines(string(info)) {
		if v, ok := strings.CutPrefix(line, "redis_version:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", errors.New("redis: INFO server names no redis_version")
}

// bound limits one call to Redis to the store's timeout.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// failure classifies an error of the client: an *outage.Error when Redis
// could not be reached, did not answer in time or cannot serve now (it is
// loading, a read-only replica, out of memory...), since the same request
// may succeed later; the error itself, wrapped, when asking again would
// not help (a wrong password, a key of another type, a closed store) or
// the caller gave up.
func failure(err error) error {
	reply, isReply := errors.AsType[replyError](err)
	switch {
	case errors.Is(err, errClosed):
		return errClosed
	case errors.Is(err, context.Canceled), isReply && !busy(reply):
		return fmt.Errorf("redis: %w", err)
	}
	return &outage.Error{Dependency: "Redis", Err: err}
}

// busyCodes begin the error replies by which Redis says that it cannot
// serve now, rather than that the request was wrong: go-redis's list.
var busyCodes = []string{"LOADING ", "READONLY ", "MASTERDOWN ", "CLUSTERDOWN ", "TRYAGAIN ",
	"ERR max number of clients reached", "OOM ", "NOREPLICAS ", "BUSY"}

// busy reports whether an error reply says that Redis cannot serve now.
func busy(reply replyError) bool {
	for _, code := range busyCodes {
		if strings.HasPrefix(string(reply), code) {
			return true
		}
	}
	return false
}
