package component_test

// The session tests serve a container's middleware over HTTP, and end
// sessions through the store they give it: an memstore.Store on a fake
// clock, whose Expire the tests call rather than waiting for its sweeper,
// or a fake store where a test is about the contract between the two.

import (
	"fmt"
	"io"
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
	"github.com/springport/greeter/framework/session/memstore"
	"github.com/springport/greeter/framework/testing/clocktest"
)

// cart is a session-scoped component that records its release.
type cart struct {
	serial int64
	closes atomic.Int32
}

func (c *cart) Close() error {
	c.closes.Add(1)
	return nil
}

func (c *cart) closed() bool { return c.closes.Load() > 0 }

// visit is a second session-scoped component, used to open a session
// without building a cart.
type visit struct{}

// shop is a singleton holding a handle to the session's cart.
type shop struct{ carts *component.Handle[*cart] }

// sessionFixture is a container with session-scoped components, served
// through its middleware:
//
//	GET /cart    resolves the session's cart (three ways) and writes its serial
//	GET /visit   resolves only the session's visit
//	GET /logout  invalidates the session, resolving nothing first
//	GET /carts   resolves the cart from 50 goroutines and writes the serials seen
type sessionFixture struct {
	c        *component.Container
	srv      *httptest.Server
	clock    *clocktest.Clock
	sessions *memstore.Store // nil when the test gave a store of its own
	built    atomic.Int64
	delay    time.Duration // how long building a cart takes

	mu    sync.Mutex
	carts map[int64]*cart
}

// fixtureOptions configure a sessionFixture.
type fixtureOptions struct {
	store  memstore.Options        // for the fixture's memstore.Store; Now is the fixture's clock
	custom component.SessionStore  // a store of the test's own, in place of memstore.Store
	cookie component.SessionCookie // component.Options.SessionCookie
	tls    bool                    // serve over TLS
}

func newSessionFixture(t *testing.T, o fixtureOptions) *sessionFixture {
	t.Helper()
	f := &sessionFixture{clock: clocktest.New(), carts: map[int64]*cart{}}
	store := o.custom
	if store == nil {
		o.store.Now = f.clock.Now
		f.sessions = memstore.New(o.store)
		t.Cleanup(func() { f.sessions.Close() })
		store = f.sessions
	}
	var serials atomic.Int64
	var r component.Registry
	cartRef := component.Provide(&r, component.Def[*cart]{Name: "cart", Scope: component.Session, New: func(*component.Context) (*cart, error) {
		f.built.Add(1)
		time.Sleep(f.delay)
		ct := &cart{serial: serials.Add(1)}
		f.mu.Lock()
		f.carts[ct.serial] = ct
		f.mu.Unlock()
		return ct, nil
	}})
	visitRef := component.Provide(&r, component.Def[*visit]{Name: "visit", Scope: component.Session, New: func(*component.Context) (*visit, error) { return &visit{}, nil }})
	shopRef := component.Provide(&r, component.Def[*shop]{Name: "shop", Needs: []component.Dep{component.NeedHandle[*cart]()}, New: func(c *component.Context) (*shop, error) {
		h, err := component.GetHandle[*cart](c)
		return &shop{h}, err
	}})
	c, err := r.Start([]string{"default"}, component.Options{Sessions: store, SessionCookie: o.cookie})
	if err != nil {
		t.Fatal(err)
	}
	f.c = c
	sh, err := shopRef.Get(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /cart", func(w http.ResponseWriter, r *http.Request) {
		first, err := sh.carts.Get(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		second, err := sh.carts.Get(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		third, err := cartRef.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if first != second || first != third {
			http.Error(w, "several carts in one request", http.StatusInternalServerError)
			return
		}
		if first.closed() {
			http.Error(w, "the session's cart is closed", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, first.serial)
	})
	mux.HandleFunc("GET /visit", func(w http.ResponseWriter, r *http.Request) {
		if _, err := visitRef.Get(r.Context(), c); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("GET /logout", func(w http.ResponseWriter, r *http.Request) {
		if err := c.Invalidate(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("GET /carts", func(w http.ResponseWriter, r *http.Request) {
		serials := make([]int64, 50)
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i := range serials {
			wg.Go(func() {
				<-gate
				if ct, err := sh.carts.Get(r.Context()); err == nil {
					serials[i] = ct.serial
				}
			})
		}
		close(gate)
		wg.Wait()
		for _, s := range serials {
			fmt.Fprintln(w, s)
		}
	})
	if o.tls {
		f.srv = httptest.NewTLSServer(c.Middleware(mux))
	} else {
		f.srv = httptest.NewServer(c.Middleware(mux))
	}
	t.Cleanup(func() {
		f.srv.Close()
		if f.c == nil { // closed by the test
			return
		}
		if err := f.c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return f
}

// client returns a client with its own cookie jar: one browser.
func (f *sessionFixture) client(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := *f.srv.Client() // a copy: the server's client is shared
	c.Jar = jar
	return &c
}

// get fetches path with client and returns the response and its body,
// failing the test unless the status is 200.
func (f *sessionFixture) get(t *testing.T, client *http.Client, path string) (*http.Response, string) {
	t.Helper()
	resp, body := f.fetch(t, client, path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", path, resp.Status, body)
	}
	return resp, body
}

// fetch fetches path with client and returns the response and its body,
// whatever the status.
func (f *sessionFixture) fetch(t *testing.T, client *http.Client, path string) (*http.Response, string) {
	t.Helper()
	resp, err := client.Get(f.srv.URL + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, strings.TrimSpace(string(body))
}

// checkSessionReplaced checks what client's next request gets once its
// session has ended without the client knowing (how says how it ended): a
// new session cookie, the old session's cart closed, and a new cart.
func (f *sessionFixture) checkSessionReplaced(t *testing.T, client *http.Client, old *cart, how string) {
	t.Helper()
	resp, _ := f.get(t, client, "/cart")
	if got := resp.Header.Values("Set-Cookie"); len(got) == 0 {
		t.Errorf("a request with an %s session's cookie got no new cookie", how)
	}
	if !old.closed() {
		t.Errorf("the %s session's cart is not closed", how)
	}
	if next := f.cart(t, client); next == old {
		t.Errorf("the %s session's cart was served again", how)
	}
}

// cart fetches /cart with client and returns the cart it was served.
func (f *sessionFixture) cart(t *testing.T, client *http.Client) *cart {
	t.Helper()
	_, body := f.get(t, client, "/cart")
	serial, err := strconv.ParseInt(body, 10, 64)
	if err != nil {
		t.Fatalf("GET /cart: body %q: %v", body, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.carts[serial]
}

func sessionCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == "SESSION" {
			return c
		}
	}
	t.Fatalf("no SESSION cookie set; Set-Cookie: %q", resp.Header.Values("Set-Cookie"))
	return nil
}

func TestSessionFollowsCookie(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{})
	alice, bob := f.client(t), f.client(t)

	resp, _ := f.get(t, alice, "/cart")
	cookie := sessionCookie(t, resp)
	if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" || cookie.Secure {
		t.Errorf("session cookie over plain HTTP: %q; want HttpOnly, SameSite=Lax, Path=/, not Secure", resp.Header.Values("Set-Cookie"))
	}
	raw := strings.Join(resp.Header.Values("Set-Cookie"), "\n")
	for _, want := range []string{"SESSION=", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(raw, want) {
			t.Errorf("Set-Cookie %q lacks %q", raw, want)
		}
	}

	first := f.cart(t, alice)
	resp, _ = f.get(t, alice, "/cart")
	if got := resp.Header.Values("Set-Cookie"); len(got) != 0 {
		t.Errorf("a request carrying a live session's cookie got Set-Cookie %q", got)
	}
	if again := f.cart(t, alice); again != first {
		t.Errorf("one client got carts %d and %d; want one per session", first.serial, again.serial)
	}
	other := f.cart(t, bob)
	if other == first {
		t.Errorf("a client without the cookie got the other session's cart")
	}
	if got := f.built.Load(); got != 2 {
		t.Errorf("cart built %d times; want 2, one per session", got)
	}
	if first.closed() || other.closed() {
		t.Errorf("a cart was closed while its session is live")
	}
	if got := f.sessions.Len(); got != 2 {
		t.Errorf("%d live sessions; want 2", got)
	}
}

func TestSessionCookieOptions(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{cookie: component.SessionCookie{Name: "JSESSIONID"}, tls: true})
	resp, _ := f.get(t, f.client(t), "/cart")
	var found bool
	for _, c := range resp.Cookies() {
		if c.Name == "JSESSIONID" {
			found = true
			if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("session cookie over TLS: %q; want Secure, HttpOnly, SameSite=Lax", resp.Header.Values("Set-Cookie"))
			}
		}
	}
	if !found {
		t.Errorf("no JSESSIONID cookie: %q", resp.Header.Values("Set-Cookie"))
	}
}

// TestSessionCookieShaped: every field of SessionCookie shows on the
// cookie, secure=false wins over TLS, the session follows the cookie under
// its configured name, and Invalidate deletes it under that name and path,
// or the browser would keep it.
func TestSessionCookieShaped(t *testing.T) {
	t.Parallel()
	no := false
	f := newSessionFixture(t, fixtureOptions{tls: true, cookie: component.SessionCookie{Name: "sid", Path: "/", MaxAge: 90 * time.Minute,
		SameSite: http.SameSiteStrictMode, Secure: &no, HTTPOnly: &no}})
	alice := f.client(t)
	resp, _ := f.get(t, alice, "/cart")
	cs := resp.Cookies()
	if len(cs) != 1 || cs[0].Name != "sid" || cs[0].Path != "/" || cs[0].MaxAge != 5400 || cs[0].Expires.IsZero() ||
		cs[0].SameSite != http.SameSiteStrictMode || cs[0].Secure || cs[0].HttpOnly {
		t.Fatalf("Set-Cookie %q; want sid=<id>; Path=/; Expires=...; Max-Age=5400; SameSite=Strict, neither Secure nor HttpOnly",
			resp.Header.Values("Set-Cookie"))
	}
	first := f.cart(t, alice)
	if again := f.cart(t, alice); again != first {
		t.Errorf("the client sending sid got carts %d and %d; want one session", first.serial, again.serial)
	}
	resp, _ = f.get(t, alice, "/logout")
	cs = resp.Cookies()
	if len(cs) != 1 || cs[0].Name != "sid" || cs[0].Path != "/" || cs[0].MaxAge >= 0 || cs[0].Value != "" {
		t.Errorf("/logout sets %q; want sid deleted at Path=/", resp.Header.Values("Set-Cookie"))
	}
	if !first.closed() {
		t.Errorf("/logout did not end the session found under sid")
	}
}

func TestSessionResolvedLazily(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{})
	f.get(t, f.client(t), "/logout")
	f.get(t, f.client(t), "/visit")
	if got := f.built.Load(); got != 0 {
		t.Errorf("cart built %d times by requests that never resolve it", got)
	}
}

func TestSessionExpires(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{store: memstore.Options{IdleTimeout: 30 * time.Minute}})
	alice, bob := f.client(t), f.client(t)
	first := f.cart(t, alice)
	bobs := f.cart(t, bob)

	// Each use restarts the idle timeout.
	f.clock.Advance(20 * time.Minute)
	if again := f.cart(t, alice); again != first {
		t.Fatalf("the session ended before its idle timeout")
	}
	f.clock.Advance(20 * time.Minute)
	f.sessions.Expire()
	if first.closed() {
		t.Errorf("alice's cart closed 20 minutes after its last use; the idle timeout is 30")
	}
	if !bobs.closed() {
		t.Errorf("bob's cart not closed 40 minutes after its last use")
	}
	if got := f.sessions.Len(); got != 1 {
		t.Errorf("%d live sessions; want 1", got)
	}

	f.clock.Advance(31 * time.Minute)
	f.sessions.Expire()
	if !first.closed() {
		t.Errorf("alice's cart not closed after her session expired")
	}
	if got := f.sessions.Len(); got != 0 {
		t.Errorf("%d live sessions after expiry; want 0", got)
	}
	next := f.cart(t, alice)
	if next == first {
		t.Errorf("alice got her expired cart back")
	}
	if n := first.closes.Load(); n != 1 {
		t.Errorf("the expired cart was closed %d times; want 1", n)
	}
}

// TestSessionExpiresOnUse covers a session that outlived its timeout
// before the sweeper saw it: the request carrying its cookie ends it.
func TestSessionExpiresOnUse(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{store: memstore.Options{IdleTimeout: 30 * time.Minute}})
	alice := f.client(t)
	first := f.cart(t, alice)
	f.clock.Advance(31 * time.Minute)
	f.checkSessionReplaced(t, alice, first, "expired")
	if got := f.sessions.Len(); got != 1 {
		t.Errorf("%d live sessions; want 1", got)
	}
}

func TestSessionInvalidate(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{})
	alice, bob := f.client(t), f.client(t)
	first := f.cart(t, alice)
	bobs := f.cart(t, bob)

	resp, _ := f.get(t, alice, "/logout")
	// Invalidate releases in the handler, before the response is written.
	if !first.closed() {
		t.Errorf("the cart is not closed when the response to /logout arrives")
	}
	if c := sessionCookie(t, resp); c.MaxAge >= 0 || c.Value != "" {
		t.Errorf("/logout sets %q; want the SESSION cookie deleted", resp.Header.Values("Set-Cookie"))
	}
	if bobs.closed() {
		t.Errorf("invalidating alice's session closed bob's cart")
	}
	next := f.cart(t, alice)
	if next == first {
		t.Errorf("after /logout, alice got her old cart back")
	}
	if n := first.closes.Load(); n != 1 {
		t.Errorf("the invalidated cart was closed %d times; want 1", n)
	}
	if got := f.sessions.Len(); got != 2 {
		t.Errorf("%d live sessions; want 2", got)
	}

	if err := f.c.Invalidate(t.Context()); err == nil || !strings.Contains(err.Error(), "no HTTP request") {
		t.Errorf("Invalidate outside a request: %v; want an error saying there is no request", err)
	}
}

// TestSessionMaxSessionsEvictsUnconfirmedFirst: past max-sessions the
// session that ends is the least recently used of those whose client
// never sent the cookie back, and a returning client's only when there is
// none.
func TestSessionMaxSessionsEvictsUnconfirmedFirst(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{store: memstore.Options{MaxSessions: 2}})
	a, b, c := f.client(t), f.client(t), f.client(t)
	cartOf := func(client *http.Client) *cart {
		f.clock.Advance(time.Minute)
		return f.cart(t, client)
	}
	aCart := cartOf(a)
	bCart := cartOf(b)
	if cartOf(a) != aCart { // a returned: confirmed, and the most recently used
		t.Fatal("a lost its session")
	}
	cCart := cartOf(c) // a third session: b never returned, so b ends
	if !bCart.closed() {
		t.Errorf("the session whose client never returned (b) was not released")
	}
	if aCart.closed() {
		t.Errorf("a's session was released, though its client returned")
	}
	if got := f.sessions.Len(); got != 2 {
		t.Errorf("%d live sessions; want at most 2", got)
	}
	if again := cartOf(b); again == bCart {
		t.Errorf("b got its evicted cart back")
	}
	if !cCart.closed() || aCart.closed() { // c never returned either: it ends, not a
		t.Errorf("b's new session released c's: %t, a's: %t; want c's only", cCart.closed(), aCart.closed())
	}
}

func TestContainerCloseEndsSessions(t *testing.T) {
	t.Parallel()
	f := newSessionFixture(t, fixtureOptions{})
	carts := []*cart{f.cart(t, f.client(t)), f.cart(t, f.client(t))}
	f.srv.Close()
	if err := f.c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, ct := range carts {
		if !ct.closed() {
			t.Errorf("cart %d not closed by Container.Close", ct.serial)
		}
	}
	// The sessions are the store's: they may outlive the process.
	if got := f.sessions.Len(); got != 2 {
		t.Errorf("%d live sessions after Container.Close; want the store's 2 left alone", got)
	}
	if _, err := f.sessions.Create(t.Context()); err != nil {
		t.Errorf("the store after Container.Close: %v; want it open", err)
	}
	f.c = nil
}

func TestSessionConcurrentResolutionBuildsOnce(t *testing.T) {
	t.Parallel()
	t.Run("50 goroutines in one request", func(t *testing.T) {
		f := newSessionFixture(t, fixtureOptions{})
		f.delay = 5 * time.Millisecond
		_, body := f.get(t, f.client(t), "/carts")
		serials := strings.Fields(body)
		if len(serials) != 50 {
			t.Fatalf("got %d serials; want 50", len(serials))
		}
		for _, s := range serials {
			if s != serials[0] || s == "0" {
				t.Fatalf("the goroutines saw carts %q; want one", serials)
			}
		}
		if got := f.built.Load(); got != 1 {
			t.Errorf("cart built %d times; want 1", got)
		}
		if got := f.sessions.Len(); got != 1 {
			t.Errorf("%d live sessions; want 1", got)
		}
	})
	t.Run("50 concurrent requests of one session", func(t *testing.T) {
		f := newSessionFixture(t, fixtureOptions{})
		f.delay = 5 * time.Millisecond
		client := f.client(t)
		f.get(t, client, "/visit") // opens the session, builds no cart
		if f.sessions.Len() != 1 || f.built.Load() != 0 {
			t.Fatalf("after /visit: %d sessions, %d carts; want 1 and 0", f.sessions.Len(), f.built.Load())
		}
		serials := make([]string, 50)
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i := range serials {
			wg.Go(func() {
				<-gate
				resp, err := client.Get(f.srv.URL + "/cart")
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				body, _ := io.ReadAll(resp.Body)
				serials[i] = string(body)
			})
		}
		close(gate)
		wg.Wait()
		for _, s := range serials {
			if s != serials[0] {
				t.Fatalf("the requests saw carts %q; want one", serials)
			}
		}
		if got := f.built.Load(); got != 1 {
			t.Errorf("cart built %d times; want 1", got)
		}
	})
}
