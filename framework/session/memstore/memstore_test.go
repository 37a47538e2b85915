package memstore_test

import (
	"github.com/springport/greeter/framework/component/sessiontest"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/springport/greeter/framework/session/memstore"
	"github.com/springport/greeter/framework/testing/clocktest"
)

// endLog records the ids the store reports as ended.
type endLog struct {
	mu  sync.Mutex
	ids []string
}

func (l *endLog) add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids = append(l.ids, id)
}

// take returns the ids reported since the last take.
func (l *endLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := l.ids
	l.ids = nil
	return ids
}

// newSessions returns a store on a fake clock, its clock and the log of
// the sessions it ends; the store is closed when the test ends.
func newSessions(t *testing.T, o memstore.Options) (*memstore.Store, *clocktest.Clock, *endLog) {
	t.Helper()
	clock := clocktest.New()
	o.Now = clock.Now
	s := memstore.New(o)
	t.Cleanup(func() { s.Close() })
	ended := &endLog{}
	s.OnEnd(ended.add)
	return s, clock, ended
}

func TestSessionsCreate(t *testing.T) {
	s, _, ended := newSessions(t, memstore.Options{})
	alice, bob := sessiontest.Create(t, s), sessiontest.Create(t, s)
	if alice == bob || alice == "" {
		t.Errorf("Create gave ids %q and %q; want two distinct ids", alice, bob)
	}
	if !sessiontest.Touch(t, s, alice) || !sessiontest.Touch(t, s, bob) {
		t.Errorf("a session just created is not live")
	}
	if sessiontest.Touch(t, s, "unknown") {
		t.Errorf("an unknown id is live")
	}
	if got := s.Len(); got != 2 {
		t.Errorf("%d live sessions; want 2", got)
	}
	if got := ended.take(); len(got) != 0 {
		t.Errorf("sessions reported ended: %q; want none", got)
	}
}

func TestSessionsExpire(t *testing.T) {
	s, clock, ended := newSessions(t, memstore.Options{IdleTimeout: 30 * time.Minute})
	alice, bob := sessiontest.Create(t, s), sessiontest.Create(t, s)

	// Each use restarts the idle timeout.
	clock.Advance(20 * time.Minute)
	if !sessiontest.Touch(t, s, alice) {
		t.Fatalf("the session ended before its idle timeout")
	}
	clock.Advance(20 * time.Minute)
	s.Expire()
	if got := ended.take(); !slices.Equal(got, []string{bob}) {
		t.Errorf("40 minutes after bob's last use and 20 after alice's, ended %q; want bob's %q", got, bob)
	}
	if got := s.Len(); got != 1 {
		t.Errorf("%d live sessions; want 1", got)
	}

	clock.Advance(31 * time.Minute)
	s.Expire()
	if got := ended.take(); !slices.Equal(got, []string{alice}) {
		t.Errorf("after alice's timeout, ended %q; want alice's %q", got, alice)
	}
	if got := s.Len(); got != 0 {
		t.Errorf("%d live sessions after expiry; want 0", got)
	}
	if sessiontest.Touch(t, s, alice) {
		t.Errorf("alice's expired session is live")
	}
	s.Expire()
	if got := ended.take(); len(got) != 0 {
		t.Errorf("ended sessions reported again: %q", got)
	}
}

// TestSessionsTouchEndsExpired covers a session that outlived its timeout
// before the sweeper saw it: Touch ends it.
func TestSessionsTouchEndsExpired(t *testing.T) {
	s, clock, ended := newSessions(t, memstore.Options{IdleTimeout: 30 * time.Minute})
	alice := sessiontest.Create(t, s)
	clock.Advance(31 * time.Minute)
	if sessiontest.Touch(t, s, alice) {
		t.Errorf("a session idle past its timeout is live")
	}
	if got := ended.take(); !slices.Equal(got, []string{alice}) {
		t.Errorf("ended %q; want %q", got, alice)
	}
	if got := s.Len(); got != 0 {
		t.Errorf("%d live sessions; want 0", got)
	}
}

// TestSessionsEvictUnconfirmedFirst: past MaxSessions the least
// recently used session whose cookie never came back (never touched)
// ends, however recently it was created; a touched one only when no
// untouched one is left, the least recently used first.
func TestSessionsEvictUnconfirmedFirst(t *testing.T) {
	s, clock, ended := newSessions(t, memstore.Options{MaxSessions: 3})
	a := sessiontest.Create(t, s)
	clock.Advance(time.Minute)
	b := sessiontest.Create(t, s)
	sessiontest.Touch(t, s, a)
	sessiontest.Touch(t, s, b) // a and b are confirmed, b the more recently used
	clock.Advance(time.Minute)
	c := sessiontest.Create(t, s)
	for range 5 { // a flood that never returns: each ends the previous one
		clock.Advance(time.Minute)
		sessiontest.Create(t, s)
	}
	if got := ended.take(); len(got) != 5 || got[0] != c {
		t.Errorf("the flood ended %q; want c %q, then each of its own sessions", got, c)
	}
	if !sessiontest.Touch(t, s, a) || !sessiontest.Touch(t, s, b) {
		t.Fatal("a confirmed session was evicted while unconfirmed ones were left")
	}
	if got := s.Len(); got != 3 {
		t.Errorf("%d live sessions; want 3", got)
	}
	// Only confirmed sessions left: the least recently used of them ends.
	d := sessiontest.Create(t, s)
	ended.take()
	sessiontest.Touch(t, s, d)
	clock.Advance(time.Minute)
	sessiontest.Touch(t, s, a) // b is now the least recently used
	sessiontest.Create(t, s)
	if got := ended.take(); !slices.Equal(got, []string{b}) {
		t.Errorf("with every session confirmed, a new one ended %q; want the least recently used, b %q", got, b)
	}
}

// TestFollowsDoesNotConfirm: Follows reports a live session without
// confirming it, so that it stays the first to make room.
func TestFollowsDoesNotConfirm(t *testing.T) {
	s, _, ended := newSessions(t, memstore.Options{MaxSessions: 2})
	a := sessiontest.Create(t, s)
	b := sessiontest.Create(t, s)
	sessiontest.Touch(t, s, a)
	if !s.Follows(b) || s.Follows("unknown") {
		t.Errorf("Follows(b) %t, Follows(unknown) %t; want true, false", s.Follows(b), s.Follows("unknown"))
	}
	sessiontest.Create(t, s)
	if got := ended.take(); !slices.Equal(got, []string{b}) {
		t.Errorf("ended %q; want b %q, which Follows did not confirm", got, b)
	}
}

func TestSessionsDelete(t *testing.T) {
	s, _, ended := newSessions(t, memstore.Options{})
	alice, bob := sessiontest.Create(t, s), sessiontest.Create(t, s)
	if err := s.Delete(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	if got := ended.take(); !slices.Equal(got, []string{alice}) {
		t.Errorf("Delete ended %q; want %q", got, alice)
	}
	if sessiontest.Touch(t, s, alice) || !sessiontest.Touch(t, s, bob) {
		t.Errorf("after deleting alice's session: alice live %t, bob live %t; want false, true", sessiontest.Touch(t, s, alice), sessiontest.Touch(t, s, bob))
	}
	for _, id := range []string{alice, "unknown"} {
		if err := s.Delete(t.Context(), id); err != nil {
			t.Errorf("Delete(%q) of no live session: %v; want nil", id, err)
		}
	}
	if got := ended.take(); len(got) != 0 {
		t.Errorf("deleting no live session reported %q", got)
	}
	if got := s.Len(); got != 1 {
		t.Errorf("%d live sessions; want 1", got)
	}
}

// TestSessionsSweeper runs in a synctest bubble, whose clock advances
// only when every goroutine in it waits: the sweeper ends idle sessions
// on its own, and Close stops it (the bubble fails if it is still running
// when the test function returns).
func TestSessionsSweeper(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memstore.New(memstore.Options{IdleTimeout: 30 * time.Minute})
		ended := &endLog{}
		s.OnEnd(ended.add)
		alice := sessiontest.Create(t, s)
		time.Sleep(30 * time.Minute)
		synctest.Wait()
		if got := ended.take(); len(got) != 0 {
			t.Errorf("the sweeper ended %q at the idle timeout; want none before it has passed", got)
		}
		time.Sleep(time.Minute) // the sweeper looks every minute
		synctest.Wait()
		if got := ended.take(); !slices.Equal(got, []string{alice}) {
			t.Errorf("a minute past the timeout, the sweeper ended %q; want %q", got, alice)
		}
		if got := s.Len(); got != 0 {
			t.Errorf("%d live sessions; want 0", got)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
}

func TestSessionsClose(t *testing.T) {
	s, _, _ := newSessions(t, memstore.Options{})
	id := sessiontest.Create(t, s)
	for range 2 {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v; want nil, also the second time", err)
		}
	}
	if _, err := s.Create(t.Context()); err == nil {
		t.Errorf("Create after Close succeeded; want an error")
	}
	if _, err := s.Touch(t.Context(), id); err == nil {
		t.Errorf("Touch after Close succeeded; want an error")
	}
	if err := s.Delete(t.Context(), id); err == nil {
		t.Errorf("Delete after Close succeeded; want an error")
	}
}

// BenchmarkCreateWhenFull creates sessions in a full store, each ending
// another to make room: the path a flood of cookieless requests takes.
// Its cost per session must not grow with the number held.
//
//	go test -run '^$' -bench CreateWhenFull -benchmem ./framework/session/memstore
func BenchmarkCreateWhenFull(b *testing.B) {
	for _, held := range []int{1_000, 100_000} {
		b.Run(strconv.Itoa(held), func(b *testing.B) {
			s := memstore.New(memstore.Options{MaxSessions: held, Logger: slog.New(slog.DiscardHandler)})
			defer s.Close()
			for i := range held {
				id, _ := s.Create(b.Context())
				if i%2 == 0 {
					s.Touch(b.Context(), id) // half of them returning users
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Create(b.Context()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
