package component_test

// Tests of session state kept in a shared store: two containers on one
// store are two instances of the service, and a container started anew on
// it is the service after a restart.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/component/sessiontest"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/testing/logtest"
)

// sharedStore is a fakeStore that keeps component state too, as Redis
// does, and counts and steers the calls that save it.
type sharedStore struct {
	*fakeStore

	mu           sync.Mutex
	states       map[string]map[string][]byte // by session id, then component name
	saves        int                          // SaveState calls
	fail         error                        // what the state methods fail with, when set
	beforeInsert func()                       // called first in SaveStateIfAbsent, when set
}

var _ component.SharedSessionStore = (*sharedStore)(nil)

func newSharedStore() *sharedStore {
	return &sharedStore{fakeStore: newFakeStore(), states: map[string]map[string][]byte{}}
}

func (s *sharedStore) Delete(ctx context.Context, id string) error {
	if err := s.fakeStore.Delete(ctx, id); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.states, id)
	return nil
}

func (s *sharedStore) LoadState(_ context.Context, id, name string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, false, s.fail
	}
	data, ok := s.states[id][name]
	return data, ok, nil
}

func (s *sharedStore) SaveStateIfAbsent(_ context.Context, id, name string, data []byte) ([]byte, error) {
	s.mu.Lock()
	before := s.beforeInsert
	s.mu.Unlock()
	if before != nil {
		before()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, s.fail
	}
	if !s.isLive(id) {
		return data, nil
	}
	if saved, ok := s.states[id][name]; ok {
		return saved, nil
	}
	s.put(id, name, data)
	return data, nil
}

func (s *sharedStore) SaveState(_ context.Context, id, name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves++
	if s.fail != nil {
		return s.fail
	}
	if s.isLive(id) {
		s.put(id, name, data)
	}
	return nil
}

// put saves a copy of data; the caller holds s.mu.
func (s *sharedStore) put(id, name string, data []byte) {
	if s.states[id] == nil {
		s.states[id] = map[string][]byte{}
	}
	s.states[id][name] = append([]byte(nil), data...)
}

func (s *sharedStore) isLive(id string) bool {
	s.fakeStore.mu.Lock()
	defer s.fakeStore.mu.Unlock()
	return s.fakeStore.live[id]
}

func (s *sharedStore) state(id, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.states[id][name])
}

func (s *sharedStore) saveCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saves
}

func (s *sharedStore) steer(f func(s *sharedStore)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// TestFakeSharedStoreContract holds the tests' fake to the contract that
// Redis keeps, so that what the tests below show holds there too.
func TestFakeSharedStoreContract(t *testing.T) {
	t.Parallel()
	sessiontest.RunShared(t, func(*testing.T) component.SharedSessionStore { return newSharedStore() })
}

// tally is a session-scoped component whose state can be saved: a number
// that each build draws anew, and that /add increments.
type tally struct {
	n      int64
	closes atomic.Int32
}

var draws atomic.Int64

func (t *tally) MarshalBinary() ([]byte, error) { return strconv.AppendInt(nil, t.n, 10), nil }

func (t *tally) UnmarshalBinary(data []byte) error {
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		return fmt.Errorf("tally: %w", err)
	}
	t.n = n
	return nil
}

func (t *tally) Close() error { t.closes.Add(1); return nil }

// mark is a second saved session component, to open a session without
// building a tally.
type mark struct{}

func (*mark) MarshalBinary() ([]byte, error) { return nil, nil }
func (*mark) UnmarshalBinary([]byte) error   { return nil }

// process is one instance of a service with session-scoped components on
// a shared store:
//
//	GET /tally   writes the session's tally
//	GET /add     adds one to it and writes it
//	GET /mark    resolves only the session's mark
//	GET /logout  adds one to the tally, then invalidates the session
type process struct {
	c      *component.Container
	srv    *httptest.Server
	built  atomic.Int64 // tallies built by New
	last   atomic.Pointer[tally]
	tally  component.Ref[*tally]
	closed bool
}

func newProcess(t *testing.T, store component.SessionStore, logger *slog.Logger) *process {
	t.Helper()
	in := &process{}
	var r component.Registry
	in.tally = component.Provide(&r, component.Def[*tally]{Name: "tally", Scope: component.Session,
		New: func(*component.Context) (*tally, error) {
			in.built.Add(1)
			tl := &tally{n: draws.Add(1000)}
			in.last.Store(tl)
			return tl, nil
		}})
	markRef := component.Provide(&r, component.Def[*mark]{Name: "mark", Scope: component.Session,
		New: func(*component.Context) (*mark, error) { return &mark{}, nil }})
	c, err := r.Start([]string{"default"}, component.Options{Sessions: store, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	in.c = c
	mux := http.NewServeMux()
	tallyOf := func(w http.ResponseWriter, r *http.Request) *tally {
		tl, err := in.tally.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		}
		return tl
	}
	mux.HandleFunc("GET /tally", func(w http.ResponseWriter, r *http.Request) {
		if tl := tallyOf(w, r); tl != nil {
			fmt.Fprint(w, tl.n)
		}
	})
	mux.HandleFunc("GET /add", func(w http.ResponseWriter, r *http.Request) {
		if tl := tallyOf(w, r); tl != nil {
			tl.n++
			fmt.Fprint(w, tl.n)
		}
	})
	mux.HandleFunc("GET /mark", func(w http.ResponseWriter, r *http.Request) {
		if _, err := markRef.Get(r.Context(), c); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		}
	})
	mux.HandleFunc("GET /logout", func(w http.ResponseWriter, r *http.Request) {
		if tl := tallyOf(w, r); tl != nil {
			tl.n++
			if err := c.Invalidate(r.Context()); err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
			}
		}
	})
	in.srv = httptest.NewServer(c.Middleware(mux))
	t.Cleanup(in.close)
	return in
}

// close stops the process, as when it exits.
func (in *process) close() {
	if in.closed {
		return
	}
	in.closed = true
	in.srv.Close()
	in.c.Close()
}

// browser returns a client with a cookie jar of its own. The instances all
// listen on 127.0.0.1, and cookies do not tell ports apart, so one browser
// sends its session cookie to every process, as behind a load balancer.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A transport of its own: httptest.Server.Close closes the idle
	// connections of http.DefaultTransport, which a parallel test's
	// request could be about to reuse ("CloseIdleConnections called").
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Jar: jar, Transport: tr}
}

// call fetches path from in with client, and returns the status and body.
func (in *process) call(t *testing.T, client *http.Client, path string) (int, string) {
	t.Helper()
	resp, err := client.Get(in.srv.URL + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, strings.TrimSpace(string(body))
}

// get fetches path, failing the test unless it answers 200.
func (in *process) get(t *testing.T, client *http.Client, path string) string {
	t.Helper()
	status, body := in.call(t, client, path)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, status, body)
	}
	return body
}

func TestSavedSessionSharedByInstances(t *testing.T) {
	t.Parallel()
	store := newSharedStore()
	a, b := newProcess(t, store, nil), newProcess(t, store, nil)
	alice, bob := browser(t), browser(t)

	first := a.get(t, alice, "/tally")
	if got := b.get(t, alice, "/tally"); got != first {
		t.Errorf("process b served alice's session the tally %s; a served %s", got, first)
	}
	if got := b.get(t, bob, "/tally"); got == first {
		t.Errorf("bob, in a session of his own, got alice's tally %s", got)
	}

	// A restart: a new process on the same store.
	a.close()
	restarted := newProcess(t, store, nil)
	if got := restarted.get(t, alice, "/tally"); got != first {
		t.Errorf("after a restart, alice's tally is %s; want %s", got, first)
	}
	if got := restarted.built.Load(); got != 1 {
		t.Errorf("the restarted process built %d tallies; want 1, whose state it replaced with the saved one", got)
	}
}

func TestSavedStateSavedWhenChanged(t *testing.T) {
	t.Parallel()
	store := newSharedStore()
	a := newProcess(t, store, nil)
	alice := browser(t)
	first, _ := strconv.ParseInt(a.get(t, alice, "/tally"), 10, 64)
	a.get(t, alice, "/tally")
	if n := store.saveCount(); n != 0 {
		t.Errorf("requests that changed nothing saved %d times; want none", n)
	}
	a.get(t, alice, "/add")
	want := strconv.FormatInt(first+1, 10)
	if n := store.saveCount(); n != 1 {
		t.Errorf("a request that changed the tally saved %d times; want once", n)
	}
	if got := store.state("s1", "tally"); got != want {
		t.Errorf("saved tally %q; want %q", got, want)
	}
	a.get(t, alice, "/tally")
	if n := store.saveCount(); n != 1 {
		t.Errorf("a request after the save, changing nothing, saved again: %d saves; want 1", n)
	}
	if got := newProcess(t, store, nil).get(t, alice, "/tally"); got != want {
		t.Errorf("another process, after the change, serves %s; want %s", got, want)
	}
}

// TestSavedSessionRace makes two instances build the same session's tally
// at once: each has built its own before either saves, and both must serve
// the one saved first.
func TestSavedSessionRace(t *testing.T) {
	t.Parallel()
	store := newSharedStore()
	a, b := newProcess(t, store, nil), newProcess(t, store, nil)
	alice := browser(t)
	a.get(t, alice, "/mark") // opens the session, builds no tally

	arrived, release := make(chan struct{}), make(chan struct{})
	store.steer(func(s *sharedStore) {
		s.beforeInsert = func() {
			arrived <- struct{}{}
			<-release
		}
	})
	got := make([]string, 2)
	var wg sync.WaitGroup
	for i, in := range []*process{a, b} {
		wg.Go(func() {
			resp, err := alice.Get(in.srv.URL + "/tally")
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			got[i] = string(body)
		})
	}
	for range 2 {
		select {
		case <-arrived:
		case <-time.After(10 * time.Second):
			t.Fatal("the two instances did not both come to save a tally")
		}
	}
	close(release)
	wg.Wait()
	if got[0] != got[1] || got[0] == "" {
		t.Errorf("racing instances served %q; want one tally", got)
	}
	if saved := store.state("s1", "tally"); saved != got[0] {
		t.Errorf("saved tally %q; the instances served %q", saved, got)
	}
	if a.built.Load() != 1 || b.built.Load() != 1 {
		t.Errorf("built %d and %d tallies; want one each, the race's", a.built.Load(), b.built.Load())
	}
}

func TestStartRefusesUnsaveableSessionComponents(t *testing.T) {
	t.Parallel()
	var r component.Registry
	declare[Alpha](&r, "cart", component.Session)
	component.Provide(&r, component.Def[Greeter]{Name: "greeter", Scope: component.Session,
		New: func(*component.Context) (Greeter, error) { return prodGreeter{}, nil }})
	component.Provide(&r, component.Def[*tally]{Name: "tally", Scope: component.Session,
		New: func(*component.Context) (*tally, error) { return &tally{}, nil }})
	declare[Beta](&r, "perRequest", component.Request) // not session-scoped: not saved
	_, err := r.Start([]string{"default"}, component.Options{Sessions: newSharedStore()})
	for _, want := range []string{
		"component cart is session-scoped and the session store (*component_test.sharedStore) is shared with other processes, but *component_test.Alpha cannot be saved: implement encoding.BinaryMarshaler and encoding.BinaryUnmarshaler",
		"component greeter is session-scoped and the session store (*component_test.sharedStore) is shared with other processes, but component_test.Greeter cannot be saved",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Start with a shared store:\ngot  %v\nwant an error containing %q", err, want)
		}
	}
	if err != nil && (strings.Contains(err.Error(), "tally") || strings.Contains(err.Error(), "perRequest")) {
		t.Errorf("Start refused a component it can save, or one not session-scoped: %v", err)
	}

	// The store that keeps nothing needs nothing saved.
	c, err := r.Start([]string{"default"}, component.Options{Sessions: newFakeStore()})
	if err != nil {
		t.Fatalf("Start with a store that is not shared: %v", err)
	}
	c.Close()
}

// TestSharedStoreFailure makes the store fail: the request's error keeps
// the store's own, so that errors.As finds the outage the HTTP layer
// answers with 503.
func TestSharedStoreFailure(t *testing.T) {
	t.Parallel()
	down := &outage.Error{Dependency: "Redis", Err: errors.New("connection refused")}
	for _, tc := range []struct {
		name string
		fail func(s *sharedStore)
	}{
		{"Touch and Create", func(s *sharedStore) { s.fakeStore.fail(down) }},
		{"LoadState", func(s *sharedStore) { s.fail = down }},
		{"SaveStateIfAbsent", func(s *sharedStore) {
			s.beforeInsert = func() { s.steer(func(s *sharedStore) { s.fail = down }) }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newSharedStore()
			a := newProcess(t, store, nil)
			alice := browser(t)
			a.get(t, alice, "/mark")
			store.steer(tc.fail)
			r := httptest.NewRequest("GET", "/", nil)
			r.AddCookie(&http.Cookie{Name: "SESSION", Value: "s1"})
			var got error
			a.c.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				_, got = a.tally.Get(r.Context(), a.c)
			})).ServeHTTP(httptest.NewRecorder(), r)
			var o *outage.Error
			if !errors.As(got, &o) || !strings.Contains(got.Error(), "component tally") {
				t.Errorf("resolving with the store failing: %v; want an error naming the component, wrapping the outage", got)
			}
			if tl := a.last.Load(); tl != nil && tl.closes.Load() != 1 {
				t.Errorf("the tally built for the failed resolution was closed %d times; want once, as nothing else will", tl.closes.Load())
			}
		})
	}
}

func TestBadSavedStateIsAnError(t *testing.T) {
	t.Parallel()
	store := newSharedStore()
	a := newProcess(t, store, nil)
	alice := browser(t)
	a.get(t, alice, "/mark")
	store.steer(func(s *sharedStore) { s.put("s1", "tally", []byte("not a number")) })
	status, body := a.call(t, alice, "/tally")
	if status == http.StatusOK || !strings.Contains(body, "component tally: restoring its saved state: tally:") {
		t.Errorf("GET /tally with a bad saved state: %d %q; want an error naming the component and the cause", status, body)
	}
}

func TestInvalidatedSessionIsNotSaved(t *testing.T) {
	t.Parallel()
	store := newSharedStore()
	a := newProcess(t, store, nil)
	alice := browser(t)
	first := a.get(t, alice, "/tally")
	a.get(t, alice, "/logout") // changes the tally, then ends the session
	if n := store.saveCount(); n != 0 {
		t.Errorf("a session invalidated during the request was saved %d times; want none", n)
	}
	if got := store.state("s1", "tally"); got != "" {
		t.Errorf("the invalidated session's tally is still saved: %q", got)
	}
	if got := a.get(t, alice, "/tally"); got == first {
		t.Errorf("after /logout, alice got her old tally back")
	}
}

func TestFailedSaveIsLogged(t *testing.T) {
	t.Parallel()
	store := newSharedStore()
	var log logtest.Buffer
	a := newProcess(t, store, slog.New(slog.NewTextHandler(&log, nil)))
	alice := browser(t)
	a.get(t, alice, "/tally")
	store.steer(func(s *sharedStore) {
		s.fail = &outage.Error{Dependency: "Redis", Err: errors.New("connection refused")}
	})
	a.get(t, alice, "/add") // its response is written before the save
	eventually(t, "the failed save logged", func() bool {
		return strings.Contains(log.String(), `msg="session component state not saved" component=tally error="the session store failed: Redis is unavailable: connection refused"`)
	})
}
