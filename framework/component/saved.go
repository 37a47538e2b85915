package component

// Session state kept in a shared store. With a SharedSessionStore, a
// session-scoped component's state lives in the store, so that every
// instance of the service, and the next process after a restart, serves a
// client the same component. Each process still keeps its own instance
// per session (in a session's slots, as for any store), and the store
// keeps the bytes that instance is restored from:
//
//   - first resolution of a component in a session, in this process:
//     build it with New (for its dependencies), then load its saved
//     state; when there is some, UnmarshalBinary replaces the state New
//     gave it. When there is none, marshal the new instance and save it
//     unless another instance saved first, and take what is saved then,
//     so that two instances racing on one session agree.
//   - end of every request that resolved it: marshal it again, and save
//     when the bytes differ from those last loaded or saved here.

import (
	"bytes"
	"context"
	"encoding"
	"fmt"
	"reflect"
)

// SharedSessionStore is a SessionStore that outlives this process or is
// shared with other instances of the service (Redis), and so keeps the
// state of each session's components too, as bytes by component name.
// Start then requires every active session-scoped component to implement
// encoding.BinaryMarshaler and encoding.BinaryUnmarshaler.
//
// What the container guarantees with one:
//
//   - A session's component is created once for all instances: the first
//     state saved wins, and an instance that built its own meanwhile takes
//     the winner's. A component whose state does not change after New (a
//     number drawn at random once, say) is the same for its client on every
//     instance and after a restart.
//   - A process loads a component's state at its first use of the session
//     and serves that instance until the store reports the session's end
//     (OnEnd). A change that another instance saves meanwhile is not seen
//     by a process that already holds the instance, so state that changes
//     is consistent only while a session's requests go to one instance at
//     a time (sticky sessions), or after a restart.
//   - At the end of a request that resolved a session component, its state
//     is saved if it changed. There is no merge: when two instances change
//     one session's component concurrently, the last save wins. One
//     process's saves of a session reach the store in order.
//   - The save happens when the handler returns: before a small response
//     reaches the client, as net/http sends it then, but after one the
//     handler flushed. A save that fails is logged, since the response is
//     already written; the state stays as last saved.
//
// Every method may fail; the container returns the error wrapped, so that
// errors.As finds the store's own error type (such as *outage.Error).
type SharedSessionStore interface {
	SessionStore
	// LoadState returns the saved state of component name in session id;
	// ok is false when none is saved.
	LoadState(ctx context.Context, id, name string) (data []byte, ok bool, err error)
	// SaveStateIfAbsent saves data as the state of component name in
	// session id unless one is saved already, and returns the state saved
	// now: data, or the one another instance saved first. A session that
	// has ended is not brought back; data is returned.
	SaveStateIfAbsent(ctx context.Context, id, name string, data []byte) ([]byte, error)
	// SaveState saves data as the state of component name in session id,
	// replacing any. A session that has ended is not brought back.
	SaveState(ctx context.Context, id, name string, data []byte) error
}

var (
	marshalerType   = reflect.TypeFor[encoding.BinaryMarshaler]()
	unmarshalerType = reflect.TypeFor[encoding.BinaryUnmarshaler]()
)

// saveable reports whether components of type t can keep their state in a
// shared store.
func saveable(t reflect.Type) bool {
	return t.Implements(marshalerType) && t.Implements(unmarshalerType)
}

// unsaveableError is Start's refusal of a session-scoped component that a
// shared store could not keep.
func unsaveableError(d *decl, st SessionStore) error {
	return fmt.Errorf("component %s is session-scoped and the session store (%T) is shared with other processes, but %s cannot be saved: implement encoding.BinaryMarshaler and encoding.BinaryUnmarshaler",
		d.name, st, d.typ)
}

// savedUse is a saved component that a request resolved: its state is
// saved, if changed, when the request ends.
type savedUse struct {
	session *session
	d       *decl
	v       any
}

// resolveSaved returns the instance of the session-scoped component d for
// the request in ctx, with a shared store: the one this process holds for
// the session, or one restored from (or saved to) the store.
func (c *Container) resolveSaved(ctx context.Context, d *decl) (any, error) {
	rs, _ := ctx.Value(scopeKey{}).(*requestScope)
	if rs == nil {
		return nil, &ScopeError{Component: d.name, Scope: Session}
	}
	ss, err := rs.sessionScope(ctx)
	if err != nil {
		return nil, fmt.Errorf("component %s: %w", d.name, err)
	}
	v, err := ss.get(d, func() (any, error) { return c.restoreOrBuild(ctx, ss, d) })
	if err != nil {
		return nil, err
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, u := range rs.used {
		if u.session == ss && u.d == d {
			return v, nil
		}
	}
	rs.used = append(rs.used, savedUse{session: ss, d: d, v: v})
	return v, nil
}

// restoreOrBuild makes the instance of d for session ss on the session's
// first use in this process. New runs even when a state is saved, so that
// the instance has its dependencies; UnmarshalBinary then replaces the
// state New gave it.
func (c *Container) restoreOrBuild(ctx context.Context, ss *session, d *decl) (any, error) {
	store := c.sessions.shared
	v, err := c.build(ctx, d)
	if err != nil {
		return nil, err
	}
	data, ok, err := store.LoadState(ctx, ss.id, d.name)
	if err != nil {
		return discard(v, fmt.Errorf("component %s: loading its saved state: %w", d.name, storeError(err)))
	}
	restore := ok
	if !ok {
		mine, err := v.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			return discard(v, fmt.Errorf("component %s: saving its state: %w", d.name, err))
		}
		if data, err = store.SaveStateIfAbsent(ctx, ss.id, d.name, mine); err != nil {
			return discard(v, fmt.Errorf("component %s: saving its state: %w", d.name, storeError(err)))
		}
		restore = !bytes.Equal(data, mine) // another instance saved first: take its state
	}
	if restore {
		if err := v.(encoding.BinaryUnmarshaler).UnmarshalBinary(data); err != nil {
			return discard(v, fmt.Errorf("component %s: restoring its saved state: %w", d.name, err))
		}
	}
	ss.saveMu.Lock()
	defer ss.saveMu.Unlock()
	if ss.saved == nil {
		ss.saved = map[*decl][]byte{}
	}
	ss.saved[d] = data
	return v, nil
}

// discard closes v, which was built but will not be served, and returns
// err. v's own close error is dropped: err is what the request failed of.
func discard(v any, err error) (any, error) {
	if c, ok := v.(closer); ok {
		c.Close()
	}
	return nil, err
}

// saveUsed saves the state of every saved component that the request of
// rs resolved, where it changed. The request's context may be cancelled
// (the client left) while the state must still be saved; the store bounds
// each call by its own timeout.
func (c *Container) saveUsed(ctx context.Context, rs *requestScope) {
	rs.mu.Lock()
	used := rs.used
	rs.used = nil
	rs.mu.Unlock()
	if len(used) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	for _, u := range used {
		if err := c.sessions.save(ctx, u); err != nil {
			c.logger.Error("session component state not saved", "component", u.d.name, "error", err)
		}
	}
}

// save saves u's state if it changed since it was last loaded or saved
// here, and unless its session has ended here (invalidated or expired
// during the request: saving would bring back nothing but stale bytes).
func (s *sessions) save(ctx context.Context, u savedUse) error {
	ss := u.session
	ss.saveMu.Lock()
	defer ss.saveMu.Unlock()
	ss.mu.Lock()
	ended := ss.closed
	ss.mu.Unlock()
	if ended {
		return nil
	}
	data, err := u.v.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return err
	}
	if bytes.Equal(data, ss.saved[u.d]) {
		return nil
	}
	if err := s.shared.SaveState(ctx, ss.id, u.d.name, data); err != nil {
		return storeError(err)
	}
	ss.saved[u.d] = data
	return nil
}
