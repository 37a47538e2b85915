package component

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// SessionStore keeps the HTTP sessions of the session scope: which exist,
// and when each ends. The container keeps the session-scoped components of
// each session itself, and closes them when the store reports that the
// session has ended. Every method may fail, as a database can; the error
// is returned, wrapped, from the resolution that needed the session. A
// store that also keeps the components' state, so that sessions outlive
// the process, implements SharedSessionStore.
//
// A SessionStore is safe for concurrent use.
type SessionStore interface {
	// Create starts a new session and returns its id, which the client
	// sends back in the session cookie. To make room the store may end
	// another session, the least recently used, and says so through OnEnd.
	Create(ctx context.Context) (id string, err error)
	// Touch reports whether id is a live session, and marks it used now.
	// An id the store does not know, or no longer knows, is not live.
	Touch(ctx context.Context, id string) (live bool, err error)
	// Delete ends the session id now, as invalidation does. Ending an
	// unknown id is not an error.
	Delete(ctx context.Context, id string) error
	// OnEnd registers f to be told the id of every session that ends: by
	// idle timeout, eviction or Delete. f may be called on any goroutine,
	// inside Create, Touch and Delete too, and never with the store's own
	// locks held. A shared store also reports a session that this process
	// stops following while it lives on elsewhere: either way the report
	// means that this process may release the session's instances.
	OnEnd(f func(id string))
}

// SessionFollower is a SessionStore that can say whether it still holds
// (or follows) session id, without marking it used: Touch marks a session
// as one whose client sent its cookie back, which a bounded store keeps
// longer than one its client never returned to (see memstore). The
// container asks Follows, not Touch, whether a session it has just
// created is still live, so that only a client's return counts.
type SessionFollower interface {
	SessionStore
	// Follows reports whether session id is live as far as this process
	// knows: the store has not reported its end.
	Follows(id string) bool
}

// sessions holds the session-scoped instances of each session this
// process has served, by session id, and releases a session's instances
// when the store reports its end. The store decides which sessions are
// live; the map only mirrors it, so that a store shared by several
// processes can report ends of sessions this one has never seen.
type sessions struct {
	store  SessionStore
	shared SharedSessionStore // the same store when it keeps component state too; else nil

	mu     sync.Mutex
	scopes map[string]*session
	ends   uint64 // how many sessions have ended, by report, Touch or Invalidate; see open
}

// session holds the instances of one session that this process serves.
type session struct {
	store
	id string

	// With a shared store only: the state of each component as last
	// loaded or saved here, so that the end of a request writes only a
	// change. saveMu is held across marshalling, comparing and saving, so
	// that this process's saves reach the store in the order their states
	// were taken.
	saveMu sync.Mutex
	saved  map[*decl][]byte
}

func newSessions(st SessionStore) *sessions {
	s := &sessions{store: st, scopes: map[string]*session{}}
	s.shared, _ = st.(SharedSessionStore)
	st.OnEnd(func(id string) { s.end(id) }) // no one to tell of close errors
	return s
}

// resume returns the instances of session id when the store says it is
// live, and nil when it is not. A session that is not live but whose
// instances are still held here (its end not reported, or not yet) is
// released.
func (s *sessions) resume(ctx context.Context, id string) (*session, error) {
	ends := s.endsSoFar()
	live, err := s.store.Touch(ctx, id)
	if err != nil {
		return nil, storeError(err)
	}
	if !live {
		// Its components' errors are no concern of this request, as for
		// an end the store reports.
		s.end(id)
		return nil, nil
	}
	return s.open(ctx, id, ends, false)
}

// create starts a new session and returns its id and its (empty) store of
// instances.
func (s *sessions) create(ctx context.Context) (string, *session, error) {
	ends := s.endsSoFar()
	id, err := s.store.Create(ctx)
	if err != nil {
		return "", nil, storeError(err)
	}
	sc, err := s.open(ctx, id, ends, true)
	if err == nil && sc == nil {
		err = fmt.Errorf("the session store ended session %s as soon as it created it", id)
	}
	return id, sc, err
}

// open returns the instances of session id, which the store has just said
// is live, making them on the session's first use in this process; ends is
// the count of ended sessions from before the store was asked, and
// created says that the session was created by this request rather than
// sent back by its client. It returns nil if the session has ended since.
//
// The store may end the session before its instances are in the map (its
// sweeper, or another request's Create making room), and its report then
// finds nothing to release. So when an end was reported in between, open
// asks the store again once the map holds the instances: an end after
// that releases them.
func (s *sessions) open(ctx context.Context, id string, ends uint64, created bool) (*session, error) {
	s.mu.Lock()
	sc := s.scopes[id]
	if sc != nil {
		s.mu.Unlock()
		return sc, nil
	}
	sc = &session{id: id}
	s.scopes[id] = sc
	raced := s.ends != ends
	s.mu.Unlock()
	if !raced {
		return sc, nil
	}
	var live bool
	var err error
	if f, ok := s.store.(SessionFollower); ok && created {
		live = f.Follows(id) // its client has not returned yet
	} else {
		live, err = s.store.Touch(ctx, id)
	}
	switch {
	case err != nil:
		// Not ended here: another request of the session may already be
		// building in it, and the store has not said the session ended.
		return nil, storeError(err)
	case !live:
		s.end(id)
		return nil, nil
	}
	return sc, nil
}

// invalidate ends session id now, in the store and here, and closes its
// instances. They are taken out of the map before the store is told, so
// that they are closed here, with their errors returned, whether or not
// the store reports the end at once; and they are closed even when the
// store fails, since the client is told to forget the session either way.
func (s *sessions) invalidate(ctx context.Context, id string) error {
	sc := s.detach(id)
	var errs []error
	if err := s.store.Delete(ctx, id); err != nil {
		errs = append(errs, storeError(err))
	}
	if sc != nil {
		errs = append(errs, sc.release())
	}
	return errors.Join(errs...)
}

// end releases the instances of session id, if this process holds any.
func (s *sessions) end(id string) error {
	if sc := s.detach(id); sc != nil {
		return sc.release()
	}
	return nil
}

// detach takes the instances of session id out of the map, and counts an
// end for open.
func (s *sessions) detach(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scopes[id]
	delete(s.scopes, id)
	s.ends++
	return sc
}

func (s *sessions) endsSoFar() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ends
}

// releaseAll releases the instances of every session, leaving the
// sessions themselves to the store: they may outlive this process.
func (s *sessions) releaseAll() error {
	s.mu.Lock()
	scopes := s.scopes
	s.scopes = map[string]*session{}
	s.mu.Unlock()
	var errs []error
	for _, sc := range scopes {
		errs = append(errs, sc.release())
	}
	return errors.Join(errs...)
}

// storeError wraps an error of the session store, keeping it for
// errors.Is and errors.As.
func storeError(err error) error {
	return fmt.Errorf("the session store failed: %w", err)
}
