// Package recency orders a session store's sessions by last use, in two
// tiers, so that a store bounded in size chooses which session ends to
// make room in constant time.
//
// A session is unconfirmed from its creation until its client first
// sends its cookie back, and confirmed from then on. A client that never
// sends cookies back (a crawler, a load test, an attacker) creates a new
// unconfirmed session with every request; were all sessions ordered by
// last use alone, enough such requests would push out every real user's.
// So the least recently used unconfirmed session is the first to make
// room, and a confirmed one only when no unconfirmed one is left: a
// flood of cookieless requests ends only its own sessions.
//
// Each tier is a list, most recently used first, beside one map by id:
// adding, using, confirming and removing a session, and choosing the one
// to end, each cost constant time; the idle sessions are found from the
// back of each list, stopping at the first that is not.
package recency

import (
	"container/list"
	"iter"
	"time"
)

// Session is one session as the list orders it.
type Session struct {
	ID        string
	Used      time.Time // last used, as the store counts use
	Confirmed bool      // its client has sent its cookie back
	elem      *list.Element
}

// List is the sessions of a store, by tier and last use. The zero value
// is empty and ready to use. A List is not safe for concurrent use: the
// store guards it with its own lock.
type List struct {
	byID  map[string]*Session
	tiers [2]list.List // of *Session: [0] unconfirmed, [1] confirmed; most recently used first
}

// Len returns how many sessions the list holds.
func (l *List) Len() int { return len(l.byID) }

// Get returns session id, or nil.
func (l *List) Get(id string) *Session { return l.byID[id] }

// Add adds session id, unconfirmed, used at now.
func (l *List) Add(id string, now time.Time) *Session {
	if l.byID == nil {
		l.byID = map[string]*Session{}
	}
	s := &Session{ID: id, Used: now}
	s.elem = l.tiers[0].PushFront(s)
	l.byID[id] = s
	return s
}

// Use marks s used at now, and confirmed when confirm is set (a
// confirmed session stays confirmed).
func (l *List) Use(s *Session, now time.Time, confirm bool) {
	s.Used = now
	if confirm && !s.Confirmed {
		l.tiers[0].Remove(s.elem)
		s.Confirmed = true
		s.elem = l.tiers[1].PushFront(s)
		return
	}
	l.tiers[tier(s)].MoveToFront(s.elem)
}

// Remove takes s out of the list.
func (l *List) Remove(s *Session) {
	delete(l.byID, s.ID)
	l.tiers[tier(s)].Remove(s.elem)
}

// Victim returns the session to end to make room: the least recently
// used unconfirmed one or, when there is none, the least recently used
// confirmed one; nil when the list is empty.
func (l *List) Victim() *Session {
	for i := range l.tiers {
		if e := l.tiers[i].Back(); e != nil {
			return e.Value.(*Session)
		}
	}
	return nil
}

// UsedBefore yields the sessions last used before cutoff, least recently
// used first within each tier, unconfirmed ones first. The caller may
// Remove or Use the session it is given before asking for the next.
func (l *List) UsedBefore(cutoff time.Time) iter.Seq[*Session] {
	return func(yield func(*Session) bool) {
		for i := range l.tiers {
			for e := l.tiers[i].Back(); e != nil; {
				s := e.Value.(*Session)
				if !s.Used.Before(cutoff) {
					break
				}
				e = e.Prev() // before yield, which may move or remove s
				if !yield(s) {
					return
				}
			}
		}
	}
}

func tier(s *Session) int {
	if s.Confirmed {
		return 1
	}
	return 0
}
