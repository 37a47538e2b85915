package redisstore

// Following sessions to report their ends. Redis expires an idle session
// by itself and tells no one, yet the container holds each session's
// instances in this process until the store reports the end. So the store
// follows every session that this process created or found live in Touch,
// with the time it last did, ordered by that time (see the recency
// package).
//
// The sweeper walks the list from the back, taking the sessions idle here
// for longer than the idle timeout, and asks Redis which of them still
// exist (EXISTS, pipelined). One that does not has expired: it is
// reported ended. One that does was kept alive by another instance: it is
// treated as touched now and looked at again an idle timeout later, so
// its end, once it comes, is reported at most an idle timeout late. A
// session created here and served elsewhere thus still ends here.
//
// Touch reports the end of a followed session that it finds gone, and
// Delete that of the session it deletes. The list is bounded: past
// MaxSessions, a session is reported ended and forgotten, which releases
// only this process's instances of it; its next request finds it live in
// Redis and restores them. The one forgotten is the least recently
// touched of those whose cookie has never come back (Touch never found
// them), and of the others only when there are none: a flood of requests
// without the cookie makes this process forget its own sessions, not its
// returning users'.

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// followed is a session this process follows, as the sweeper copies it.
type followed struct {
	id      string
	touched time.Time // by this process
}

// follow marks session id as touched now (and confirmed, when its cookie
// came back: returned), following it if it was not, and forgets a session
// if that makes too many.
func (s *Store) follow(id string, returned bool) {
	now := s.now()
	s.mu.Lock()
	if f := s.followed.Get(id); f != nil {
		s.followed.Use(f, now, returned)
		s.mu.Unlock()
		return
	}
	f := s.followed.Add(id, now)
	if returned {
		s.followed.Use(f, now, true)
	}
	var dropped []string
	for s.followed.Len() > s.max {
		victim := s.followed.Victim()
		s.followed.Remove(victim)
		dropped = append(dropped, victim.ID)
		s.evicted.Add(1)
	}
	s.mu.Unlock()
	s.tell(dropped...)
}

// unfollow stops following session id, which has ended, and reports its
// end if it was followed. It reports whether it was.
func (s *Store) unfollow(id string) bool {
	s.mu.Lock()
	f := s.followed.Get(id)
	if f != nil {
		s.followed.Remove(f)
	}
	s.mu.Unlock()
	if f == nil {
		return false
	}
	s.tell(id)
	return true
}

// Follows reports whether this process follows session id: it has not
// reported its end. It asks Redis nothing and marks nothing used (see
// component.SessionFollower).
func (s *Store) Follows(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.followed.Get(id) != nil
}

// Len returns how many sessions this process follows: those it created or
// found live in Touch and has not seen end (at most an idle timeout and a
// sweep late). Other instances' sessions are not counted, nor sessions
// this process stopped following past MaxSessions; Redis holds them all
// (see the package documentation).
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.followed.Len()
}

// Max returns how many sessions this process follows at most (MaxSessions).
func (s *Store) Max() int { return s.max }

// Evicted returns how many sessions this process stopped following to stay
// within MaxSessions: they live on in Redis; only their instances here
// were released.
func (s *Store) Evicted() uint64 { return s.evicted.Load() }

// tell tells the OnEnd functions that the sessions ids have ended. The
// caller must not hold s.mu: the functions may call the store.
func (s *Store) tell(ids ...string) {
	if len(ids) == 0 {
		return
	}
	s.mu.Lock()
	onEnd := s.onEnd
	s.mu.Unlock()
	for _, id := range ids {
		for _, f := range onEnd {
			f(id)
		}
	}
}

// sweepBatch is how many sessions one round trip asks Redis about.
const sweepBatch = 500

// Sweep reports the end of every followed session that has been idle here
// for longer than the idle timeout and that Redis no longer holds. The
// sweeper calls it every SweepInterval; tests call it to sweep now.
func (s *Store) Sweep(ctx context.Context) error {
	now := s.now()
	for {
		due := s.due(now)
		if len(due) == 0 {
			return nil
		}
		exists, err := s.exist(ctx, due)
		if err != nil {
			return err
		}
		var ended []string
		s.mu.Lock()
		for i, d := range due {
			f := s.followed.Get(d.id)
			switch {
			case f == nil || !f.Used.Equal(d.touched):
				// Ended or touched while Redis was asked.
			case exists[i]:
				s.followed.Use(f, now, false)
			default:
				s.followed.Remove(f)
				ended = append(ended, d.id)
			}
		}
		s.mu.Unlock()
		s.tell(ended...)
		if len(due) < sweepBatch {
			return nil
		}
	}
}

// due returns up to sweepBatch followed sessions idle here for longer
// than the idle timeout at now, least recently touched first (within each
// tier), as copies:
// Redis is asked about them without the lock held. Each is then touched
// now or removed, so a sweep takes each session at most once.
func (s *Store) due(now time.Time) []followed {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []followed
	for f := range s.followed.UsedBefore(now.Add(-s.idle)) {
		if len(due) == sweepBatch {
			break
		}
		due = append(due, followed{id: f.ID, touched: f.Used})
	}
	return due
}

// exist asks Redis, in one round trip (one per node in a Cluster),
// which of the sessions exist.
func (s *Store) exist(ctx context.Context, sessions []followed) ([]bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	pipe := s.client.Pipeline()
	cmds := make([]*redis.IntCmd, len(sessions))
	for i, f := range sessions {
		cmds[i] = pipe.Exists(ctx, s.key(f.id))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, failure(err)
	}
	exists := make([]bool, len(cmds))
	for i, cmd := range cmds {
		exists[i] = cmd.Val() > 0
	}
	return exists, nil
}

// startSweeper starts the goroutine that sweeps every sweepEvery until
// Close, which cancels a sweep in progress.
func (s *Store) startSweeper() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stopSweeper = cancel
	go func() {
		defer close(s.sweeperDone)
		t := time.NewTicker(s.sweepEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
					// Nothing is lost: the sessions stay followed, and the
					// next sweep asks again.
					s.logger.Warn("sweeping expired sessions", "error", err)
				}
			}
		}
	}()
}
