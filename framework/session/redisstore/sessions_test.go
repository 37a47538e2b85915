package redisstore_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/component/sessiontest"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/session/redisstore"
	"github.com/springport/greeter/framework/testing/clocktest"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// open opens a store on the test's Redis with opts (URL and Namespace are
// the test's unless set), and closes it when the test ends.
func open(t testing.TB, opts redisstore.Options) *redisstore.Store {
	t.Helper()
	return openWithClock(t, opts, time.Now)
}

func openWithClock(t testing.TB, opts redisstore.Options, now func() time.Time) *redisstore.Store {
	t.Helper()
	if opts.URL == "" {
		opts.URL, opts.Namespace = enginetest.Redis(t)
	}
	s, err := redisstore.OpenWithClock(t.Context(), opts, now)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// rawClient is a client of the test's Redis of its own, to look at keys
// as an operator would.
func rawClient(t *testing.T, url string) *raw {
	t.Helper()
	c, err := redisstore.OpenRaw(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &raw{t, c}
}

// raw sends the test's commands, failing the test on an error.
type raw struct {
	t *testing.T
	c *redisstore.Raw
}

func (r *raw) do(args ...any) any {
	r.t.Helper()
	reply, err := r.c.Do(r.t.Context(), args...)
	if err != nil {
		r.t.Fatalf("%s: %v", args[0], err)
	}
	return reply
}

// hgetall returns the fields of hash key.
func (r *raw) hgetall(key string) map[string]string {
	r.t.Helper()
	fields := map[string]string{}
	pairs := r.do("HGETALL", key).([]any)
	for i := 0; i+1 < len(pairs); i += 2 {
		fields[pairs[i].(string)] = pairs[i+1].(string)
	}
	return fields
}

// pttl returns how long until key expires.
func (r *raw) pttl(key string) time.Duration {
	r.t.Helper()
	return time.Duration(r.do("PTTL", key).(int64)) * time.Millisecond
}

// expireIn makes key expire in d.
func (r *raw) expireIn(key string, d time.Duration) {
	r.t.Helper()
	r.do("PEXPIRE", key, d.Milliseconds())
}

func (r *raw) del(key string) {
	r.t.Helper()
	r.do("DEL", key)
}

// endLog records the ids a store reports ended.
type endLog struct {
	mu  sync.Mutex
	ids []string
}

func watch(s component.SessionStore) *endLog {
	l := &endLog{}
	s.OnEnd(func(id string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ids = append(l.ids, id)
	})
	return l
}

// list returns the ids reported since the last take.
func (l *endLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ids)
}

// take returns the ids reported since the last take, and forgets them.
func (l *endLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := l.ids
	l.ids = nil
	return ids
}

func TestSessionsContract(t *testing.T) {
	enginetest.RedisServer(t)
	sessiontest.Run(t, func(t *testing.T, idle time.Duration) component.SessionStore {
		return open(t, redisstore.Options{IdleTimeout: idle})
	})
}

func TestSessionsSharedContract(t *testing.T) {
	enginetest.RedisServer(t)
	sessiontest.RunShared(t, func(t *testing.T) component.SharedSessionStore {
		return open(t, redisstore.Options{IdleTimeout: time.Hour})
	})
}

// TestKeyLayout looks at a session's keys as an operator would.
func TestKeyLayout(t *testing.T) {
	url, prefix := enginetest.Redis(t)
	s := open(t, redisstore.Options{URL: url, Namespace: prefix + "app:session", IdleTimeout: time.Hour})
	raw := rawClient(t, url)
	id, err := s.Create(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveStateIfAbsent(t.Context(), id, "number", []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	// The braces are the hash tag that keeps a session in one Cluster slot.
	key := prefix + "app:session:sessions:{" + id + "}"
	if got := s.Key(id); got != key {
		t.Errorf("key %q; want %q", got, key)
	}
	fields := raw.hgetall(key)
	if got := fields["state:number"]; got != "\x01\x02\x03" {
		t.Errorf("state:number = %q; want the saved bytes", got)
	}
	if fields["created"] == "" || len(fields) != 2 {
		t.Errorf("hash fields %q; want created and state:number", fields)
	}
	if ttl := raw.pttl(key); ttl <= 59*time.Minute || ttl > time.Hour {
		t.Errorf("the session expires in %v; want the idle timeout, 1h", ttl)
	}
}

func TestTouchRestartsTheIdleTimeout(t *testing.T) {
	url, prefix := enginetest.Redis(t)
	s := open(t, redisstore.Options{URL: url, Namespace: prefix, IdleTimeout: time.Hour})
	raw := rawClient(t, url)
	id, err := s.Create(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	raw.expireIn(s.Key(id), time.Second) // as if idle for 59 minutes
	if live, err := s.Touch(t.Context(), id); !live || err != nil {
		t.Fatalf("Touch: %t, %v", live, err)
	}
	if ttl := raw.pttl(s.Key(id)); ttl <= 59*time.Minute {
		t.Errorf("after Touch the session expires in %v; want the idle timeout, 1h, again", ttl)
	}
	raw.expireIn(s.Key(id), time.Second)
	if err := s.SaveState(t.Context(), id, "number", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if ttl := raw.pttl(s.Key(id)); ttl <= 59*time.Minute {
		t.Errorf("after SaveState the session expires in %v; want the idle timeout, 1h, again", ttl)
	}
}

// TestSweeperFollowsSessionsServedElsewhere follows a session through two
// stores on one Redis, as two instances of the service: the store that
// created it, idle here, must not report it ended while the other keeps it
// alive, and must once Redis has expired it. The first store's clock is
// fake, so that the session is idle here at once; Redis keeps real time,
// and the test deletes the key where Redis would expire it.
func TestSweeperFollowsSessionsServedElsewhere(t *testing.T) {
	url, prefix := enginetest.Redis(t)
	clock := clocktest.New()
	opts := redisstore.Options{URL: url, Namespace: prefix, IdleTimeout: time.Hour, SweepInterval: 24 * time.Hour}
	a, b := openWithClock(t, opts, clock.Now), open(t, opts)
	ended := watch(a)
	raw := rawClient(t, url)

	servedElsewhere, idle, used := sessiontest.Create(t, a), sessiontest.Create(t, a), sessiontest.Create(t, a)
	if !sessiontest.Touch(t, b, servedElsewhere) {
		t.Fatal("a session created by one store is not live on the other")
	}
	clock.Advance(time.Hour + time.Second)
	sessiontest.Touch(t, a, used)
	raw.del(a.Key(idle)) // Redis expired it
	sweep(t, a)
	if got := ended.take(); !slices.Equal(got, []string{idle}) {
		t.Errorf("a sweep an hour on reported %q ended; want only the one Redis expired, %q", got, idle)
	}

	raw.del(a.Key(servedElsewhere)) // expired, after the other store's use
	sweep(t, a)
	if got := ended.take(); len(got) != 0 {
		t.Errorf("a sweep right after the last one reported %q ended; a session kept alive elsewhere is looked at again an idle timeout later", got)
	}
	clock.Advance(time.Hour + time.Second)
	sweep(t, a)
	if got := ended.take(); !slices.Equal(got, []string{servedElsewhere}) {
		t.Errorf("an idle timeout on, a sweep reported %q ended; want %q", got, servedElsewhere)
	}
	if live := sessiontest.Touch(t, a, used); !live {
		t.Errorf("a session used within its idle timeout ended")
	}
}

// TestFollowingIsBounded follows more sessions than MaxSessions: the least
// recently touched is reported ended here, yet stays live in Redis.
func TestFollowingIsBounded(t *testing.T) {
	s := open(t, redisstore.Options{IdleTimeout: time.Hour, MaxSessions: 2})
	ended := watch(s)
	first, second := sessiontest.Create(t, s), sessiontest.Create(t, s)
	sessiontest.Create(t, s)
	if got := ended.take(); !slices.Equal(got, []string{first}) {
		t.Fatalf("following a third session reported %q ended; want the least recently touched, %q", got, first)
	}
	if !sessiontest.Touch(t, s, first) {
		t.Fatalf("a session forgotten here ended in Redis")
	}
	if got := ended.take(); !slices.Equal(got, []string{second}) {
		t.Errorf("following the first again reported %q ended; want %q", got, second)
	}
}

// TestFollowingKeepsReturningSessions: past MaxSessions, this process
// forgets the sessions whose cookie never came back (never touched) before
// any that did, however recently created: a flood of cookieless requests
// does not release a returning user's instances.
func TestFollowingKeepsReturningSessions(t *testing.T) {
	s := open(t, redisstore.Options{IdleTimeout: time.Hour, MaxSessions: 2})
	ended := watch(s)
	returning := sessiontest.Create(t, s)
	sessiontest.Touch(t, s, returning)
	var flood []string
	for range 5 {
		flood = append(flood, sessiontest.Create(t, s))
	}
	if got := ended.take(); !slices.Equal(got, flood[:4]) {
		t.Errorf("the flood reported %q ended; want its own sessions but the last, %q", got, flood[:4])
	}
	if !s.Follows(returning) || !s.Follows(flood[4]) || s.Follows(flood[0]) {
		t.Errorf("follows the returning session: %t, the newest: %t, the oldest of the flood: %t; want true, true, false",
			s.Follows(returning), s.Follows(flood[4]), s.Follows(flood[0]))
	}
}

func TestDeleteReportsSessionsCreatedElsewhere(t *testing.T) {
	url, prefix := enginetest.Redis(t)
	opts := redisstore.Options{URL: url, Namespace: prefix, IdleTimeout: time.Hour}
	a, b := open(t, opts), open(t, opts)
	ended := watch(b)
	id := sessiontest.Create(t, a)
	if err := b.Delete(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if got := ended.take(); !slices.Equal(got, []string{id}) {
		t.Errorf("deleting a session created elsewhere reported %q; want %q", got, id)
	}
	if sessiontest.Touch(t, a, id) {
		t.Errorf("a session deleted by one store is live on the other")
	}
}

func TestPing(t *testing.T) {
	s := open(t, redisstore.Options{})
	v, err := s.Ping(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(v, "."); len(parts) < 2 || v == "" {
		t.Errorf("Ping gave version %q; want one such as 7.0.15", v)
	}
}

func sweep(t *testing.T, s *redisstore.Store) {
	t.Helper()
	if err := s.Sweep(t.Context()); err != nil {
		t.Fatalf("Sweep: %v", err)
	}
}

// isOutage reports whether err is an outage of Redis.
func isOutage(err error) bool {
	var o *outage.Error
	return errors.As(err, &o) && o.Dependency == "Redis"
}

// ctxWithin returns a context that ends after d.
func ctxWithin(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}
