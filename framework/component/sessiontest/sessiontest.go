// Package sessiontest checks that a session store keeps the contract the
// session scope relies on (component.SessionStore, and
// component.SharedSessionStore for a store that keeps component state),
// so that every adapter is held to the same one. An adapter's tests call
// Run, and RunShared, with a function that makes fresh stores. Only tests
// import it.
package sessiontest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
)

// NewStore returns a fresh, empty store whose sessions end after
// idleTimeout unused, and closes it when t ends.
type NewStore func(t *testing.T, idleTimeout time.Duration) component.SessionStore

// NewSharedStore returns a fresh, empty shared store whose sessions do not
// end by themselves during a test, and closes it when t ends.
type NewSharedStore func(t *testing.T) component.SharedSessionStore

// long is an idle timeout that no test outlasts.
const long = time.Hour

// patience bounds every wait for something another goroutine does.
const patience = 10 * time.Second

// Run checks newStore's stores against the SessionStore contract.
func Run(t *testing.T, newStore NewStore) {
	t.Run("Create", func(t *testing.T) {
		s := newStore(t, long)
		seen := map[string]bool{}
		for range 50 {
			id := Create(t, s)
			if seen[id] {
				t.Fatalf("Create gave id %q twice", id)
			}
			seen[id] = true
			// 128 bits at least: 22 characters of URL-safe base64.
			if len(id) < 22 {
				t.Errorf("id %q is %d characters; want at least 22, too many to guess", id, len(id))
			}
			if strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
				t.Errorf("id %q has characters outside URL-safe base64; a cookie must carry it as it is", id)
			}
			if !Touch(t, s, id) {
				t.Errorf("session %q is not live right after Create", id)
			}
		}
	})

	t.Run("UnknownIDs", func(t *testing.T) {
		s := newStore(t, long)
		known := Create(t, s)
		for _, id := range []string{"", "unknown", known[:len(known)-1], known + "x", strings.Repeat("A", len(known)),
			"a b", "x\x00y", "../" + known, strings.Repeat("z", 10_000)} {
			if Touch(t, s, id) {
				t.Errorf("Touch(%.40q) = live; want no live session", id)
			}
			if err := s.Delete(t.Context(), id); err != nil {
				t.Errorf("Delete(%.40q) of no session: %v; want nil", id, err)
			}
		}
		if !Touch(t, s, known) {
			t.Errorf("the one real session is not live")
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s := newStore(t, long)
		ends := watch(s)
		alice, bob := Create(t, s), Create(t, s)
		if err := s.Delete(t.Context(), alice); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		ends.wait(t, alice)
		if Touch(t, s, alice) {
			t.Errorf("a deleted session is live")
		}
		if !Touch(t, s, bob) {
			t.Errorf("deleting one session ended another")
		}
		if err := s.Delete(t.Context(), alice); err != nil {
			t.Errorf("deleting a deleted session: %v; want nil", err)
		}
		if got := ends.list(); slices.Contains(got, bob) {
			t.Errorf("ended %q; bob's session %q is live", got, bob)
		}
	})

	t.Run("IdleExpiry", func(t *testing.T) {
		// Real time: the store's own sweeper must find the session, as it
		// would in production, only sooner.
		s := newStore(t, 200*time.Millisecond)
		ends := watch(s)
		id := Create(t, s)
		ends.wait(t, id)
		if Touch(t, s, id) {
			t.Errorf("a session reported ended by idle expiry is live")
		}
	})

	t.Run("OnEndWithoutLocks", func(t *testing.T) {
		// An OnEnd function may use the store: the container's does.
		s := newStore(t, long)
		other := Create(t, s)
		done := make(chan bool, 1)
		s.OnEnd(func(string) {
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			live, err := s.Touch(ctx, other)
			select {
			case done <- live && err == nil:
			default: // told already
			}
		})
		id := Create(t, s)
		go s.Delete(context.Background(), id)
		select {
		case ok := <-done:
			if !ok {
				t.Errorf("Touch inside OnEnd failed")
			}
		case <-time.After(patience):
			t.Fatalf("OnEnd did not run, or ran with the store's lock held, for %v", patience)
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		s := newStore(t, long)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range 20 {
					id, err := s.Create(context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					if live, err := s.Touch(context.Background(), id); !live || err != nil {
						t.Errorf("Touch of a new session: %t, %v", live, err)
					}
					if err := s.Delete(context.Background(), id); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
	})
}

// RunShared checks newStore's stores against the SharedSessionStore
// contract, beyond the SessionStore one that Run checks.
func RunShared(t *testing.T, newStore NewSharedStore) {
	t.Run("NothingSaved", func(t *testing.T) {
		s := newStore(t)
		id := Create(t, s)
		if data, ok := load(t, s, id, "cart"); ok {
			t.Errorf("LoadState of a new session = %q; want none", data)
		}
		if data, ok := load(t, s, "unknown", "cart"); ok {
			t.Errorf("LoadState of an unknown session = %q; want none", data)
		}
	})

	t.Run("FirstSaveWins", func(t *testing.T) {
		s := newStore(t)
		id := Create(t, s)
		first, second := []byte("first"), []byte("second")
		if got := saveIfAbsent(t, s, id, "cart", first); !bytes.Equal(got, first) {
			t.Errorf("the first SaveStateIfAbsent returned %q; want its own %q", got, first)
		}
		if got := saveIfAbsent(t, s, id, "cart", second); !bytes.Equal(got, first) {
			t.Errorf("the second SaveStateIfAbsent returned %q; want the first's %q", got, first)
		}
		if got, ok := load(t, s, id, "cart"); !ok || !bytes.Equal(got, first) {
			t.Errorf("LoadState = %q, %t; want %q", got, ok, first)
		}
	})

	t.Run("SaveStateReplaces", func(t *testing.T) {
		s := newStore(t)
		id := Create(t, s)
		saveIfAbsent(t, s, id, "cart", []byte("old"))
		save(t, s, id, "cart", []byte("new"))
		if got, _ := load(t, s, id, "cart"); string(got) != "new" {
			t.Errorf("after SaveState, LoadState = %q; want %q", got, "new")
		}
		save(t, s, id, "visit", []byte("first without SaveStateIfAbsent"))
		if got, _ := load(t, s, id, "visit"); string(got) != "first without SaveStateIfAbsent" {
			t.Errorf("LoadState = %q after a first SaveState", got)
		}
	})

	t.Run("AnyBytes", func(t *testing.T) {
		s := newStore(t)
		id := Create(t, s)
		all := make([]byte, 256)
		for i := range all {
			all[i] = byte(i)
		}
		for name, data := range map[string][]byte{"empty": {}, "all": all, "big": bytes.Repeat([]byte("x"), 1<<20)} {
			if got := saveIfAbsent(t, s, id, name, data); !bytes.Equal(got, data) {
				t.Errorf("%s: SaveStateIfAbsent returned %d bytes; want its own %d", name, len(got), len(data))
			}
			if got, ok := load(t, s, id, name); !ok || !bytes.Equal(got, data) {
				t.Errorf("%s: LoadState = %d bytes, %t; want %d bytes", name, len(got), ok, len(data))
			}
		}
	})

	t.Run("ByComponentAndSession", func(t *testing.T) {
		s := newStore(t)
		alice, bob := Create(t, s), Create(t, s)
		saveIfAbsent(t, s, alice, "cart", []byte("alice's cart"))
		saveIfAbsent(t, s, alice, "visit", []byte("alice's visit"))
		saveIfAbsent(t, s, bob, "cart", []byte("bob's cart"))
		for _, c := range []struct{ id, name, want string }{
			{alice, "cart", "alice's cart"}, {alice, "visit", "alice's visit"}, {bob, "cart", "bob's cart"},
		} {
			if got, _ := load(t, s, c.id, c.name); string(got) != c.want {
				t.Errorf("LoadState(%s) = %q; want %q", c.name, got, c.want)
			}
		}
		if data, ok := load(t, s, bob, "visit"); ok {
			t.Errorf("bob's visit is %q; only alice saved one", data)
		}
	})

	t.Run("EndedStaysEnded", func(t *testing.T) {
		s := newStore(t)
		id := Create(t, s)
		saveIfAbsent(t, s, id, "cart", []byte("saved"))
		if err := s.Delete(t.Context(), id); err != nil {
			t.Fatal(err)
		}
		if data, ok := load(t, s, id, "cart"); ok {
			t.Errorf("LoadState of a deleted session = %q; want none", data)
		}
		// A request still running when its session ended saves late.
		if got := saveIfAbsent(t, s, id, "cart", []byte("late")); string(got) != "late" {
			t.Errorf("SaveStateIfAbsent in an ended session returned %q; want its own state", got)
		}
		save(t, s, id, "visit", []byte("late"))
		if Touch(t, s, id) {
			t.Errorf("saving in a deleted session brought it back")
		}
		if data, ok := load(t, s, id, "cart"); ok {
			t.Errorf("saving in a deleted session kept %q", data)
		}
	})

	t.Run("RacingSaves", func(t *testing.T) {
		s := newStore(t)
		id := Create(t, s)
		got := make([][]byte, 10)
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() {
				var err error
				got[i], err = s.SaveStateIfAbsent(context.Background(), id, "cart", fmt.Appendf(nil, "state %d", i))
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		for _, g := range got {
			if !bytes.Equal(g, got[0]) {
				t.Fatalf("racing SaveStateIfAbsent returned %q; want one state for all", got)
			}
		}
		if saved, _ := load(t, s, id, "cart"); !bytes.Equal(saved, got[0]) {
			t.Errorf("LoadState = %q; the racers were told %q", saved, got[0])
		}
	})
}

// Create starts a session in s, failing the test when s fails.
func Create(t *testing.T, s component.SessionStore) string {
	t.Helper()
	id, err := s.Create(t.Context())
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return id
}

// Touch reports whether id is live in s and marks it used, failing the
// test when s fails.
func Touch(t *testing.T, s component.SessionStore, id string) bool {
	t.Helper()
	live, err := s.Touch(t.Context(), id)
	if err != nil {
		t.Fatalf("Touch(%.40q): %v", id, err)
	}
	return live
}

func load(t *testing.T, s component.SharedSessionStore, id, name string) ([]byte, bool) {
	t.Helper()
	data, ok, err := s.LoadState(t.Context(), id, name)
	if err != nil {
		t.Fatalf("LoadState(%s): %v", name, err)
	}
	return data, ok
}

func saveIfAbsent(t *testing.T, s component.SharedSessionStore, id, name string, data []byte) []byte {
	t.Helper()
	saved, err := s.SaveStateIfAbsent(t.Context(), id, name, data)
	if err != nil {
		t.Fatalf("SaveStateIfAbsent(%s): %v", name, err)
	}
	return saved
}

func save(t *testing.T, s component.SharedSessionStore, id, name string, data []byte) {
	t.Helper()
	if err := s.SaveState(t.Context(), id, name, data); err != nil {
		t.Fatalf("SaveState(%s): %v", name, err)
	}
}

// ends records the ids a store reports ended.
type ends struct {
	mu  sync.Mutex
	ids []string
	new chan struct{} // receives after each report
}

func watch(s component.SessionStore) *ends {
	e := &ends{new: make(chan struct{}, 1)}
	s.OnEnd(func(id string) {
		e.mu.Lock()
		e.ids = append(e.ids, id)
		e.mu.Unlock()
		select {
		case e.new <- struct{}{}:
		default:
		}
	})
	return e
}

func (e *ends) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.ids)
}

// wait waits until id is reported ended.
func (e *ends) wait(t *testing.T, id string) {
	t.Helper()
	deadline := time.After(patience)
	for !slices.Contains(e.list(), id) {
		select {
		case <-e.new:
		case <-deadline:
			t.Fatalf("session %q not reported ended after %v; reported: %q", id, patience, e.list())
		}
	}
}
