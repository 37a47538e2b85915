package component_test

// Races between the session scope and its store's reports.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/springport/greeter/framework/component"
)

// countedCart counts how often it is closed.
type countedCart struct{ closed *atomic.Int32 }

func (c *countedCart) Close() error { c.closed.Add(1); return nil }

// TestSessionEndsDuringBuild ends a session while one of its components is
// being built: the instance, finished after the end, is closed, not kept
// in a store that nothing will release again.
func TestSessionEndsDuringBuild(t *testing.T) {
	t.Parallel()
	store := newFakeStore()
	var closed atomic.Int32
	building, finish := make(chan struct{}), make(chan struct{})
	var r component.Registry
	ref := component.Provide(&r, component.Def[*countedCart]{Name: "cart", Scope: component.Session,
		New: func(*component.Context) (*countedCart, error) {
			close(building)
			<-finish
			return &countedCart{closed: &closed}, nil
		}})
	c, err := r.Start([]string{"default"}, component.Options{Sessions: store})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if _, err := ref.Get(req.Context(), c); err != nil {
			t.Log("get:", err)
		}
	}))
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
		close(done)
	}()
	<-building
	store.end("s1") // the store ends the session (sweeper, eviction, Delete)
	close(finish)
	<-done
	c.Close()
	if closed.Load() == 0 {
		t.Errorf("the instance built while its session ended was never closed")
	}
}

// hookStore is a store whose Touch the test writes.
type hookStore struct {
	onEnd []func(string)
	touch func(id string) (bool, error)
}

func (s *hookStore) Create(context.Context) (string, error)           { return "s1", nil }
func (s *hookStore) Touch(_ context.Context, id string) (bool, error) { return s.touch(id) }
func (s *hookStore) Delete(context.Context, string) error             { return nil }
func (s *hookStore) OnEnd(f func(string))                             { s.onEnd = append(s.onEnd, f) }

// TestStoreErrorLeavesLiveSessionAlone makes the store fail while one
// request of a session opens it and another has already built in it: the
// failure is the first request's, and the session's components stay, since
// the store never said the session ended.
func TestStoreErrorLeavesLiveSessionAlone(t *testing.T) {
	t.Parallel()
	var closed atomic.Int32
	var calls atomic.Int32
	aSecond := make(chan struct{})
	release := make(chan struct{})
	st := &hookStore{}
	st.touch = func(id string) (bool, error) {
		switch calls.Add(1) {
		case 1: // A's resume: live, and meanwhile another session ends
			for _, f := range st.onEnd {
				f("other")
			}
			return true, nil
		case 2: // A's second Touch in open: wait for B, then fail
			close(aSecond)
			<-release
			return false, errors.New("store unavailable")
		}
		return true, nil // B's resume
	}
	var r component.Registry
	ref := component.Provide(&r, component.Def[*countedCart]{Name: "cart", Scope: component.Session,
		New: func(*component.Context) (*countedCart, error) { return &countedCart{closed: &closed}, nil }})
	c, err := r.Start([]string{"default"}, component.Options{Sessions: st})
	if err != nil {
		t.Fatal(err)
	}
	var bErr error
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, e := ref.Get(req.Context(), c)
		if req.Header.Get("who") == "B" {
			bErr = e
		}
	}))
	req := func(who string) *http.Request {
		q := httptest.NewRequest("GET", "/", nil)
		q.AddCookie(&http.Cookie{Name: "SESSION", Value: "s1"})
		q.Header.Set("who", who)
		return q
	}
	done := make(chan struct{})
	go func() { h.ServeHTTP(httptest.NewRecorder(), req("A")); close(done) }()
	<-aSecond
	h.ServeHTTP(httptest.NewRecorder(), req("B")) // B builds the cart in the live session
	if bErr != nil || closed.Load() != 0 {
		t.Fatalf("B: %v, closed %d", bErr, closed.Load())
	}
	close(release)
	<-done
	if closed.Load() != 0 {
		t.Errorf("a transient store error in A closed the cart that B built in a live session")
	}
}
