package component

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
)

// requestScope is what the middleware puts in a request's context: the
// request's own store, and the way to its session.
type requestScope struct {
	request  store
	sessions *sessions     // nil when no session-scoped component is active
	cookie   SessionCookie // the session cookie's shape, defaults filled
	w        http.ResponseWriter
	r        *http.Request

	mu        sync.Mutex
	session   *session // the session's instances, once resolved in this request
	sessionID string
	used      []savedUse // saved components resolved in this request; see saved.go
}

type scopeKey struct{}
type webSocketKey struct{}

// scopeStore returns the store that holds scope's instances for ctx, or
// nil when the scope is not active there. Only the session scope can
// fail: its store may.
func scopeStore(ctx context.Context, scope Scope) (*store, error) {
	switch scope {
	case Request, Session:
		rs, _ := ctx.Value(scopeKey{}).(*requestScope)
		if rs == nil {
			return nil, nil
		}
		if scope == Request {
			return &rs.request, nil
		}
		if rs.sessions == nil {
			return nil, nil
		}
		ss, err := rs.sessionScope(ctx)
		if err != nil {
			return nil, err
		}
		return &ss.store, nil
	case WebSocket:
		s, _ := ctx.Value(webSocketKey{}).(*store)
		return s, nil
	}
	return nil, nil
}

// Middleware opens the request scope (and gives access to the session
// scope) for each request, and releases the request's components when the
// request ends. With no request- or session-scoped component active it
// returns next as it is, so that requests pay nothing for scopes they do
// not use. With a shared session store it also saves, when the handler
// returns, the state of the session components the request changed.
func (c *Container) Middleware(next http.Handler) http.Handler {
	if !slices.ContainsFunc(c.decls, func(d *decl) bool { return d.scope == Request || d.scope == Session }) {
		return next
	}
	if c.sessions != nil && c.sessions.shared != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rs := &requestScope{sessions: c.sessions, cookie: c.sessionCookie, w: w, r: r}
			defer rs.request.release()
			defer c.saveUsed(r.Context(), rs)
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), scopeKey{}, rs)))
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs := &requestScope{sessions: c.sessions, cookie: c.sessionCookie, w: w, r: r}
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

// sessionScope returns the instances of the request's session. A request
// whose cookie names no live session gets a new session, and its cookie,
// here: only requests that resolve a session-scoped component open one.
// Concurrent resolutions in one request wait for one another, so that
// they share one session.
func (rs *requestScope) sessionScope(ctx context.Context) (*session, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.session != nil {
		return rs.session, nil
	}
	if ck, err := rs.r.Cookie(rs.cookie.Name); err == nil {
		sc, err := rs.sessions.resume(ctx, ck.Value)
		if err != nil {
			return nil, err
		}
		if sc != nil {
			rs.session, rs.sessionID = sc, ck.Value
			return sc, nil
		}
	}
	id, sc, err := rs.sessions.create(ctx)
	if err != nil {
		return nil, err
	}
	http.SetCookie(rs.w, rs.cookie.cookie(rs.r, id, false))
	rs.session, rs.sessionID = sc, id
	return sc, nil
}

// Invalidate ends the session of the request in ctx, closing its
// components, and tells the client to forget the cookie.
func (c *Container) Invalidate(ctx context.Context) error {
	rs, _ := ctx.Value(scopeKey{}).(*requestScope)
	if rs == nil {
		return errors.New("no session to invalidate: there is no HTTP request in this context")
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	id := rs.sessionID
	rs.session, rs.sessionID = nil, ""
	if id == "" { // not resolved in this request: find it by its cookie
		if ck, err := rs.r.Cookie(rs.cookie.Name); err == nil {
			id = ck.Value
		}
	}
	http.SetCookie(rs.w, rs.cookie.cookie(rs.r, "", true))
	if id == "" || rs.sessions == nil {
		return nil // no session: nothing to end
	}
	return rs.sessions.invalidate(ctx, id)
}
