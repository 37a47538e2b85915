// Package memstore keeps a service's HTTP sessions, those of its
// session-scoped components (see component.Options.Sessions), in the
// process's memory: the session store a service built on boot uses unless
// app.session.store-type chooses another (see the redisstore package).
// Its sessions are lost when the process ends and are not shared with
// other instances. It is the counterpart of Spring Session's
// MapSessionRepository.
package memstore

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/internal/recency"
)

var _ component.SessionStore = (*Store)(nil)

// errClosed is what a closed Store answers.
var errClosed = errors.New("memstore: the session store is closed")

// Store is a component.SessionStore held in memory. A session ends when
// it has been idle for longer than the idle timeout, when a new session
// needs its room, or when it is deleted; each end is reported to the
// OnEnd functions.
//
// The room a new session needs is taken from the least recently used
// session whose cookie has never come back (Touch has never found it), and
// from one whose cookie has only when there is no such session: a flood of
// requests that never send the cookie back ends its own sessions, not
// those of returning users (see the recency package, which orders them,
// each operation in constant time). Idle sessions are ended by a sweeper
// goroutine, started by the first Create and stopped by Close, and by
// Touch when it finds one before the sweeper does.
type Store struct {
	idle   time.Duration
	max    int
	now    func() time.Time
	logger *slog.Logger

	evicted atomic.Uint64 // sessions ended to make room, for the metrics

	mu     sync.Mutex
	live   recency.List
	onEnd  []func(id string)
	closed bool
	stop   chan struct{} // closed by Close; nil until the sweeper starts
	done   chan struct{} // closed when the sweeper has stopped
}

// Options configure Store.
type Options struct {
	// IdleTimeout ends a session unused for this long; zero means 30
	// minutes, Spring Boot's default.
	IdleTimeout time.Duration
	// MaxSessions bounds how many sessions are held at once; past it the
	// least recently used one ends, one whose cookie never came back
	// first. Zero means 100,000, so that clients
	// that never send the cookie back cannot exhaust memory.
	MaxSessions int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger gets a warning the first time a session is ended to make
	// room: a real user logged out by a flood of cookie-less requests
	// should not go unnoticed. Nil means slog.Default().
	Logger *slog.Logger
}

// New returns an empty session store. Its sweeper starts with the
// first session; Close stops it.
func New(o Options) *Store {
	s := &Store{idle: o.IdleTimeout, max: o.MaxSessions, now: o.Now, logger: o.Logger}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	if s.idle <= 0 {
		s.idle = 30 * time.Minute
	}
	if s.max <= 0 {
		s.max = 100_000
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// Create starts a new session, ending another first when the store is
// full: the least recently used one whose cookie never came back, or
// when there is none the least recently used of all.
func (s *Store) Create(context.Context) (string, error) {
	now := s.now()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return "", errClosed
	}
	if s.stop == nil {
		s.sweep(min(s.idle, time.Minute))
	}
	var ended []string
	firstEviction := false
	if s.live.Len() >= s.max {
		victim := s.live.Victim()
		s.live.Remove(victim)
		ended = append(ended, victim.ID)
		firstEviction = s.evicted.Add(1) == 1
	}
	id := rand.Text()
	s.live.Add(id, now)
	s.unlockAndTell(ended...)
	if firstEviction {
		s.logger.Warn("the session store is full: a session was ended to make room for a new one (the least recently used whose cookie never came back, if any); "+
			"raise server.servlet.session.max-sessions if real users are being logged out (evictions are counted in http_sessions_evicted_total)",
			"max_sessions", s.max)
	}
	return id, nil
}

// Touch reports whether id is a live session and marks it used now, and
// confirmed: its client has sent its cookie back. A session idle past its
// timeout ends here, if the sweeper has not yet ended it.
func (s *Store) Touch(_ context.Context, id string) (bool, error) {
	now := s.now()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false, errClosed
	}
	ss := s.live.Get(id)
	switch {
	case ss == nil:
		s.mu.Unlock()
		return false, nil
	case now.Sub(ss.Used) > s.idle:
		s.live.Remove(ss)
		s.unlockAndTell(id)
		return false, nil
	}
	s.live.Use(ss, now, true)
	s.mu.Unlock()
	return true, nil
}

// Follows reports whether id is a live session, without marking it used
// or confirmed (see component.SessionFollower).
func (s *Store) Follows(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live.Get(id) != nil
}

// Delete ends the session id now; an unknown id is not an error.
func (s *Store) Delete(_ context.Context, id string) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	ss := s.live.Get(id)
	if ss == nil {
		s.mu.Unlock()
		return nil
	}
	s.live.Remove(ss)
	s.unlockAndTell(id)
	return nil
}

// OnEnd registers f to be told the id of every session that ends. f is
// called without the store's lock held, on the goroutine that ended the
// session: the sweeper's, or the caller's of Create, Touch, Delete or
// Expire.
func (s *Store) OnEnd(f func(id string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onEnd = append(s.onEnd, f)
}

// Expire ends every session idle for longer than the timeout.
func (s *Store) Expire() {
	now := s.now()
	var ended []string
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	for ss := range s.live.UsedBefore(now.Add(-s.idle)) {
		s.live.Remove(ss)
		ended = append(ended, ss.ID)
	}
	s.unlockAndTell(ended...)
}

// Evicted returns how many sessions have been ended to make room.
func (s *Store) Evicted() uint64 { return s.evicted.Load() }

// Max returns how many sessions the store holds at most.
func (s *Store) Max() int { return s.max }

// Len returns how many sessions are live.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live.Len()
}

// Close stops the sweeper; the store answers nothing after it but an
// error. Closing twice is harmless. Close reports no session as ended:
// they end with the process, and whoever keeps their components closes
// those.
func (s *Store) Close() error {
	s.mu.Lock()
	stop, done := s.stop, s.done
	wasClosed := s.closed
	s.closed = true
	s.mu.Unlock()
	if stop != nil && !wasClosed {
		close(stop)
		<-done
	}
	return nil
}

// sweep starts the goroutine that calls Expire every interval until Close;
// the caller holds s.mu.
func (s *Store) sweep(interval time.Duration) {
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func(stop <-chan struct{}, done chan<- struct{}) {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				s.Expire()
			}
		}
	}(s.stop, s.done)
}

// unlockAndTell releases s.mu, then tells the OnEnd functions the ids of
// the sessions that ended. They are told outside the lock so that they may
// hold locks of their own around calls to the store without deadlock.
func (s *Store) unlockAndTell(ended ...string) {
	if len(ended) == 0 {
		s.mu.Unlock()
		return
	}
	onEnd := s.onEnd
	s.mu.Unlock()
	for _, id := range ended {
		for _, f := range onEnd {
			f(id)
		}
	}
}
