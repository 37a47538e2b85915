package component

import (
	"container/list"
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"
)

// requestScope is what the middleware puts in a request's context: the
// request's own store, and the way to its session.
type requestScope struct {
	request  store
	sessions *Sessions
	w        http.ResponseWriter
	r        *http.Request

	mu      sync.Mutex
	session *session
}

type scopeKey struct{}
type webSocketKey struct{}

// scopeStore returns the store that holds scope's instances for ctx, or
// nil when the scope is not active there.
func scopeStore(ctx context.Context, scope Scope) *store {
	switch scope {
	case Request, Session:
		rs, _ := ctx.Value(scopeKey{}).(*requestScope)
		if rs == nil {
			return nil
		}
		if scope == Request {
			return &rs.request
		}
		if rs.sessions == nil {
			return nil
		}
		return &rs.sessions.current(rs).store
	case WebSocket:
		s, _ := ctx.Value(webSocketKey{}).(*store)
		return s
	}
	return nil
}

// Middleware opens the request scope (and gives access to the session
// scope) for each request, and releases the request's components when the
// request ends. With no request- or session-scoped component active it
// returns next as it is, so that requests pay nothing for scopes they do
// not use.
func (c *Container) Middleware(next http.Handler) http.Handler {
	if !slices.ContainsFunc(c.decls, func(d *decl) bool { return d.scope == Request || d.scope == Session }) {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs := &requestScope{sessions: c.sessions, w: w, r: r}
		defer rs.request.release()
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), scopeKey{}, rs)))
	})
}

// WebSocket opens the websocket scope of one connection: components of
// scope WebSocket resolved in the returned context belong to it, and
// release, to be called when the connection closes, closes them.
func (c *Container) WebSocket(ctx context.Context) (context.Context, func() error) {
	s := &store{}
	return context.WithValue(ctx, webSocketKey{}, s), s.release
}

// Sessions keeps HTTP sessions in memory, identified by a cookie, each
// holding the session-scoped components of its client. A session ends
// when it has been idle for longer than its timeout or is invalidated;
// its components are then closed.
type Sessions struct {
	cookie string
	idle   time.Duration
	max    int
	now    func() time.Time

	mu        sync.Mutex
	live      map[string]*session
	recency   list.List // of *session, most recently used first
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

type session struct {
	id       string
	store    store
	lastUsed time.Time
	elem     *list.Element // in Sessions.recency
}

// SessionOptions configure the session scope.
type SessionOptions struct {
	// Cookie names the session cookie; empty means "SESSION", as Spring
	// Session names it.
	Cookie string
	// IdleTimeout ends a session unused for this long; zero means 30
	// minutes, Spring Boot's default.
	IdleTimeout time.Duration
	// MaxSessions bounds how many sessions are held at once; past it the
	// least recently used one ends. Zero means 100,000, so that clients
	// that never send the cookie back cannot exhaust memory.
	MaxSessions int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func newSessions(o SessionOptions) *Sessions {
	s := &Sessions{cookie: o.Cookie, idle: o.IdleTimeout, max: o.MaxSessions, now: o.Now, live: map[string]*session{}}
	if s.max <= 0 {
		s.max = 100_000
	}
	if s.cookie == "" {
		s.cookie = "SESSION"
	}
	if s.idle <= 0 {
		s.idle = 30 * time.Minute
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// sweep releases the sessions idle past their timeout, every interval,
// until close.
func (s *Sessions) sweep(interval time.Duration) {
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.Expire()
			}
		}
	}()
}

// Expire ends every session idle for longer than the timeout.
func (s *Sessions) Expire() {
	now := s.now()
	var ended []*session
	s.mu.Lock()
	// The least recently used are at the back: stop at the first still live.
	for e := s.recency.Back(); e != nil; {
		ss := e.Value.(*session)
		if now.Sub(ss.lastUsed) <= s.idle {
			break
		}
		e = e.Prev()
		s.remove(ss)
		ended = append(ended, ss)
	}
	s.mu.Unlock()
	for _, ss := range ended {
		ss.store.release()
	}
}

// remove forgets a live session; the caller holds s.mu.
func (s *Sessions) remove(ss *session) {
	delete(s.live, ss.id)
	s.recency.Remove(ss.elem)
}

// Len returns how many sessions are live.
func (s *Sessions) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

// current returns the request's session, creating one (and its cookie)
// when the request has none, or only an expired or unknown one.
func (s *Sessions) current(rs *requestScope) *session {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.session != nil {
		return rs.session
	}
	now := s.now()
	var expired *session
	s.mu.Lock()
	if c, err := rs.r.Cookie(s.cookie); err == nil {
		if ss := s.live[c.Value]; ss != nil {
			if now.Sub(ss.lastUsed) <= s.idle {
				ss.lastUsed = now
				s.recency.MoveToFront(ss.elem)
				rs.session = ss
			} else {
				s.remove(ss)
				expired = ss
			}
		}
	}
	if rs.session == nil && len(s.live) >= s.max {
		// Full: the least recently used session ends, in constant time.
		oldest := s.recency.Back().Value.(*session)
		s.remove(oldest)
		expired = oldest
	}
	if rs.session == nil {
		rs.session = &session{id: rand.Text(), lastUsed: now}
		rs.session.elem = s.recency.PushFront(rs.session)
		s.live[rs.session.id] = rs.session
		http.SetCookie(rs.w, &http.Cookie{Name: s.cookie, Value: rs.session.id, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: rs.r.TLS != nil})
	}
	s.mu.Unlock()
	if expired != nil {
		expired.store.release()
	}
	return rs.session
}

// Invalidate ends the session of the request in ctx, closing its
// components, and tells the client to forget the cookie.
func (c *Container) Invalidate(ctx context.Context) error {
	rs, _ := ctx.Value(scopeKey{}).(*requestScope)
	if rs == nil || c.sessions == nil {
		return errors.New("no session to invalidate: there is no HTTP request in this context")
	}
	s := c.sessions
	rs.mu.Lock()
	ss := rs.session
	rs.session = nil
	rs.mu.Unlock()
	if ss == nil { // not resolved in this request: find it by its cookie
		if ck, err := rs.r.Cookie(s.cookie); err == nil {
			s.mu.Lock()
			ss = s.live[ck.Value]
			s.mu.Unlock()
		}
	}
	http.SetCookie(rs.w, &http.Cookie{Name: s.cookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: rs.r.TLS != nil})
	if ss == nil {
		return nil // no session: nothing to end
	}
	s.mu.Lock()
	if s.live[ss.id] == ss {
		s.remove(ss)
	}
	s.mu.Unlock()
	return ss.store.release()
}

// close stops the sweeper and ends every session; closing twice is
// harmless.
func (s *Sessions) close() error {
	s.closeOnce.Do(func() {
		if s.stop != nil {
			close(s.stop)
			<-s.done
		}
	})
	s.mu.Lock()
	live := s.live
	s.live = map[string]*session{}
	s.recency.Init()
	s.mu.Unlock()
	var errs []error
	for _, ss := range live {
		errs = append(errs, ss.store.release())
	}
	return errors.Join(errs...)
}
