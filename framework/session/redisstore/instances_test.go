package redisstore_test

// Two instances of a service on one Redis, each a component container
// with its own store, serving a random number component in session scope:
// what greeter's app.number.scope=session gives behind a load balancer.

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/session/redisstore"
	"github.com/springport/greeter/framework/testing/enginetest"

	"github.com/springport/greeter/framework/testing/polltest"
)

// number is a random number drawn when its component is made, kept in
// the session as its decimal digits.
type number struct{ value int64 }

func (n *number) Value() int64 { return n.value }

func (n *number) MarshalBinary() ([]byte, error) { return strconv.AppendInt(nil, n.value, 10), nil }

func (n *number) UnmarshalBinary(b []byte) (err error) {
	n.value, err = strconv.ParseInt(string(b), 10, 64)
	return err
}

// instance is one instance of the service: a store, a container and a
// server that answers GET / with the session's number.
type instance struct {
	store *redisstore.Store
	ended *endLog
	c     *component.Container
	srv   *httptest.Server
	once  sync.Once
}

func newInstance(t *testing.T, opts redisstore.Options) *instance {
	t.Helper()
	store, err := redisstore.Open(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	in := &instance{store: store, ended: watch(store)}
	var r component.Registry
	ref := component.Provide(&r, component.Def[*number]{Name: "number", Scope: component.Session,
		New: func(*component.Context) (*number, error) { return &number{rand.Int64()}, nil }})
	if in.c, err = r.Start([]string{"default"}, component.Options{Sessions: store}); err != nil {
		store.Close()
		t.Fatal(err)
	}
	in.srv = httptest.NewServer(in.c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := ref.Get(r.Context(), in.c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, n.Value())
	})))
	t.Cleanup(in.stop)
	return in
}

// stop stops the instance as a process that exits: server, components,
// store.
func (in *instance) stop() {
	in.once.Do(func() {
		in.srv.Close()
		in.c.Close()
		in.store.Close()
	})
}

// number fetches the number of client's session from the instance, and
// says whether the instance started a new session for it.
func (in *instance) number(t *testing.T, client *http.Client) (value string, newSession bool) {
	t.Helper()
	resp, err := client.Get(in.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %s %s", resp.Status, body)
	}
	return strings.TrimSpace(string(body)), len(resp.Header.Values("Set-Cookie")) > 0
}

// newBrowser returns a client with a cookie jar of its own. The instances
// all listen on 127.0.0.1, and cookies do not tell ports apart, so it
// sends its session cookie to every instance, as behind a load balancer.
func newBrowser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar}
}

func TestInstancesShareSessions(t *testing.T) {
	server, prefix := enginetest.Redis(t)
	opts := redisstore.Options{URL: server, Namespace: prefix, IdleTimeout: time.Hour}
	a, b := newInstance(t, opts), newInstance(t, opts)
	alice, bob := newBrowser(t), newBrowser(t)

	first, _ := a.number(t, alice)
	got, newSession := b.number(t, alice)
	if newSession {
		t.Fatalf("a session created on one instance is not live on the other")
	}
	if got != first {
		t.Errorf("alice's number is %s on one instance and %s on the other; want one number", first, got)
	}
	if other, _ := b.number(t, bob); other == first {
		t.Errorf("bob, in a session of his own, got alice's number %s", other)
	}

	a.stop() // a restart: a new process, store and container
	restarted := newInstance(t, opts)
	if got, newSession := restarted.number(t, alice); newSession || got != first {
		t.Errorf("after a restart, alice's number is %s (new session: %t); want %s in her session", got, newSession, first)
	}
}

// TestIdleSessionEndsOnEveryInstance lets a session served by two
// instances expire in Redis: each instance's sweeper must report its end,
// so that the container releases the session's instances there.
func TestIdleSessionEndsOnEveryInstance(t *testing.T) {
	server, prefix := enginetest.Redis(t)
	opts := redisstore.Options{URL: server, Namespace: prefix, IdleTimeout: time.Second, SweepInterval: 50 * time.Millisecond}
	a, b := newInstance(t, opts), newInstance(t, opts)
	alice := newBrowser(t)
	first, _ := a.number(t, alice)
	if _, newSession := b.number(t, alice); newSession {
		t.Fatalf("a session created on one instance is not live on the other")
	}
	cookie := alice.Jar.Cookies(mustParse(t, a.srv.URL))[0].Value

	polltest.Until(t, polltest.Timeout, "a session idle for 1s to be reported ended by both instances", func() error {
		if inA, inB := slices.Contains(a.ended.list(), cookie), slices.Contains(b.ended.list(), cookie); !inA || !inB {
			return fmt.Errorf("reported ended by instance a: %t, b: %t", inA, inB)
		}
		return nil
	})
	got, newSession := b.number(t, alice)
	if !newSession || got == first {
		t.Errorf("after the session expired, alice got %s (new session: %t); want a new session and number", got, newSession)
	}
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
