package component_test

// Tests of the contract between the session scope and its store, with a
// fake store the tests steer.

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/framework/component"
)

// fakeStore is a SessionStore whose sessions live until the test ends
// them: with end, which reports it as a store does, or with forget, which
// does not, as when a report was lost.
type fakeStore struct {
	mu    sync.Mutex
	live  map[string]bool
	count int
	onEnd []func(string)
	err   error // what every method fails with, when set

	// endAfterTouch ends a session right after Touch said it was live,
	// as the store's sweeper might; endInCreate ends the new session
	// before Create returns it, as another request's Create might.
	endAfterTouch, endInCreate bool
}

func newFakeStore() *fakeStore { return &fakeStore{live: map[string]bool{}} }

func (s *fakeStore) Create(context.Context) (string, error) {
	s.mu.Lock()
	if s.err != nil {
		defer s.mu.Unlock()
		return "", s.err
	}
	s.count++
	id := "s" + strconv.Itoa(s.count)
	s.live[id] = true
	endNow := s.endInCreate
	s.mu.Unlock()
	if endNow {
		s.end(id)
	}
	return id, nil
}

func (s *fakeStore) Touch(_ context.Context, id string) (bool, error) {
	s.mu.Lock()
	if s.err != nil {
		defer s.mu.Unlock()
		return false, s.err
	}
	live, endNow := s.live[id], s.endAfterTouch
	s.endAfterTouch = false
	s.mu.Unlock()
	if live && endNow {
		s.end(id)
	}
	return live, nil
}

func (s *fakeStore) Delete(_ context.Context, id string) error {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err != nil {
		return err
	}
	s.end(id)
	return nil
}

func (s *fakeStore) OnEnd(f func(string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onEnd = append(s.onEnd, f)
}

// end ends session id and reports it.
func (s *fakeStore) end(id string) {
	s.mu.Lock()
	known := s.live[id]
	delete(s.live, id)
	onEnd := s.onEnd
	s.mu.Unlock()
	if known {
		for _, f := range onEnd {
			f(id)
		}
	}
}

// forget ends session id without reporting it.
func (s *fakeStore) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, id)
}

func (s *fakeStore) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

func (s *fakeStore) set(f func(s *fakeStore)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func TestStartRefusesSessionScopeWithoutStore(t *testing.T) {
	t.Parallel()
	var r component.Registry
	declare[Alpha](&r, "cart", component.Session)
	declare[Beta](&r, "perRequest", component.Request)
	_, err := r.Start([]string{"default"}, component.Options{})
	want := "component cart is session-scoped, and no session store was given in component.Options.Sessions"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Start without a store:\ngot  %v\nwant an error containing %q", err, want)
	}
	// Without a session-scoped component, no store is needed.
	var plain component.Registry
	declare[Beta](&plain, "perRequest", component.Request)
	c, err := plain.Start([]string{"default"}, component.Options{})
	if err != nil {
		t.Fatalf("Start without session-scoped components or a store: %v", err)
	}
	c.Close()
}

func TestSessionEndReportedByStore(t *testing.T) {
	t.Parallel()
	store := newFakeStore()
	f := newSessionFixture(t, fixtureOptions{custom: store})
	alice, bob := f.client(t), f.client(t)
	first := f.cart(t, alice)
	bobs := f.cart(t, bob)

	store.end("s1")
	// The store reports the end synchronously here; a store that reports
	// it later leaves the cart open until then.
	if !first.closed() {
		t.Errorf("the cart of a session the store ended is not closed")
	}
	if bobs.closed() {
		t.Errorf("ending alice's session closed bob's cart")
	}
	resp, _ := f.get(t, alice, "/cart")
	if c := sessionCookie(t, resp); c.Value == "s1" {
		t.Errorf("alice was given her ended session again")
	}
	if next := f.cart(t, alice); next == first {
		t.Errorf("alice got the cart of her ended session back")
	}
	store.end("unknown") // a session this process never served
	if n := first.closes.Load(); n != 1 {
		t.Errorf("the ended session's cart was closed %d times; want 1", n)
	}
}

// TestSessionNotLiveButHeld covers a session that ended without the store
// reporting it: the next request carrying its cookie closes its cart.
func TestSessionNotLiveButHeld(t *testing.T) {
	t.Parallel()
	store := newFakeStore()
	f := newSessionFixture(t, fixtureOptions{custom: store})
	alice := f.client(t)
	first := f.cart(t, alice)
	store.forget("s1")
	if first.closed() {
		t.Fatalf("the cart closed with no end reported")
	}
	f.checkSessionReplaced(t, alice, first, "ended")
}

// TestSessionEndedWhileOpening covers a session that ends between the
// store saying it is live and the container keeping its components: they
// must not outlive it.
func TestSessionEndedWhileOpening(t *testing.T) {
	t.Parallel()
	t.Run("after Touch", func(t *testing.T) {
		store := newFakeStore()
		f := newSessionFixture(t, fixtureOptions{custom: store})
		alice := f.client(t)
		f.get(t, alice, "/visit") // opens session s1, builds no cart
		store.set(func(s *fakeStore) { s.endAfterTouch = true })
		resp, _ := f.get(t, alice, "/cart")
		if c := sessionCookie(t, resp); c.Value == "s1" {
			t.Errorf("the request kept session s1, which ended as it was opened")
		}
		// Once the store has ended every session, no cart is left open.
		store.end(sessionCookie(t, resp).Value)
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, ct := range f.carts {
			if !ct.closed() {
				t.Errorf("cart %d is open, though every session has ended", ct.serial)
			}
		}
	})
	t.Run("in Create", func(t *testing.T) {
		store := newFakeStore()
		store.endInCreate = true
		f := newSessionFixture(t, fixtureOptions{custom: store})
		resp, body := f.fetch(t, f.client(t), "/cart")
		if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "component cart: the session store ended session s1 as soon as it created it") {
			t.Errorf("GET /cart: %s %q; want a 500 saying the session ended as it was created", resp.Status, body)
		}
		if got := f.built.Load(); got != 0 {
			t.Errorf("cart built %d times for a session that had ended; want 0", got)
		}
	})
}

func TestSessionStoreFails(t *testing.T) {
	t.Parallel()
	errDown := errors.New("store down")
	store := newFakeStore()
	f := newSessionFixture(t, fixtureOptions{custom: store})
	alice := f.client(t)
	first := f.cart(t, alice)

	store.fail(errDown)
	for _, client := range []*http.Client{alice, f.client(t)} { // Touch, then Create
		resp, body := f.fetch(t, client, "/cart")
		if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "component cart: the session store failed: store down") {
			t.Errorf("GET /cart with the store failing: %s %q; want a 500 naming the component and the store's error", resp.Status, body)
		}
	}
	if first.closed() {
		t.Errorf("a failing store closed a live session's cart")
	}

	// Invalidate closes the components and clears the cookie even so,
	// and returns the store's error.
	resp, body := f.fetch(t, alice, "/logout")
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "store down") {
		t.Errorf("GET /logout with the store failing: %s %q; want a 500 with the store's error", resp.Status, body)
	}
	if c := sessionCookie(t, resp); c.MaxAge >= 0 {
		t.Errorf("/logout with the store failing sets %q; want the cookie deleted", resp.Header.Values("Set-Cookie"))
	}
	if !first.closed() {
		t.Errorf("the invalidated session's cart is not closed")
	}

	store.fail(nil)
	if next := f.cart(t, alice); next == first {
		t.Errorf("after the store recovered, alice got her invalidated cart back")
	}
}
