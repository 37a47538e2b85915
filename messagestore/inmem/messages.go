package inmem

import (
	"context"
	"sync"

	"github.com/springport/greeter/domain/message"
)

var _ message.Store = (*Messages)(nil)

// Messages is a message.Store held in memory. Its zero value is an empty
// store without limits, ready to use. Its methods never fail but with an
// *message.IndexError or an *message.LimitError.
//
// Texts are stored as plain strings rather than Message values so that the
// store costs one string header per message and nothing more.
//
// A listing shares the store's array of texts rather than copying it, so
// that listing a million messages copies nothing: texts only grows at its
// end while it is shared (an Append writes past the end of every listing),
// and a Replace or Remove that would change a shared array in place first
// copies it. That copy is O(n), once after each List; Remove is O(n)
// anyway, and a Replace pays it only when a listing came since the last
// copy.
type Messages struct {
	// Limits bound what the store holds. Set them before first use.
	Limits message.Limits

	mu     sync.RWMutex
	texts  []string
	bytes  int64 // the texts' lengths, summed
	shared bool  // a listing may hold texts' array; guarded by mu, or by sharedMu under RLock
	// sharedMu lets List, which holds only the read lock, set shared.
	sharedMu sync.Mutex
}

// Append adds m at the end.
func (s *Messages) Append(_ context.Context, m message.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.Limits.Admits(s.usage(), 1, int64(len(m.Text))); err != nil {
		return err
	}
	s.texts = append(s.texts, m.Text)
	s.bytes += int64(len(m.Text))
	return nil
}

// Get returns the message at index.
func (s *Messages) Get(_ context.Context, index int64) (message.Message, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, err := s.position(index)
	if err != nil {
		return message.Message{}, err
	}
	return message.Message{Text: s.texts[i]}, nil
}

// Replace sets the text of the message at index to m's text.
func (s *Messages) Replace(_ context.Context, index int64, m message.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.position(index)
	if err != nil {
		return err
	}
	grow := int64(len(m.Text)) - int64(len(s.texts[i]))
	if err := s.Limits.Admits(s.usage(), 0, grow); err != nil {
		return err
	}
	s.unshare()
	s.texts[i] = m.Text
	s.bytes += grow
	return nil
}

// Remove deletes the message at index; the messages after it move up.
func (s *Messages) Remove(_ context.Context, index int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.position(index)
	if err != nil {
		return err
	}
	s.unshare()
	s.bytes -= int64(len(s.texts[i]))
	copy(s.texts[i:], s.texts[i+1:])
	s.texts[len(s.texts)-1] = "" // let the removed text be collected
	s.texts = s.texts[:len(s.texts)-1]
	return nil
}

// List returns a snapshot of at most limit messages from offset on. It
// shares the store's array (see Messages), so it costs O(1) whatever it
// covers, and holds nothing that Close must release.
func (s *Messages) List(_ context.Context, offset, limit int64) (*message.Listing, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := int64(len(s.texts))
	lo := min(max(offset, 0), n)
	hi := n
	if limit >= 0 && limit < hi-lo {
		hi = lo + limit
	}
	window := s.texts[lo:hi:hi] // the capacity stops an append from reaching it
	if len(window) > 0 {
		s.sharedMu.Lock()
		s.shared = true
		s.sharedMu.Unlock()
	}
	return &message.Listing{
		Total: n,
		Messages: func(yield func(message.Message, error) bool) {
			for _, text := range window {
				if !yield(message.Message{Text: text}, nil) {
					return
				}
			}
		},
		Close: func() {},
	}, nil
}

// Usage returns how many messages the store holds and their size.
func (s *Messages) Usage(context.Context) (message.Usage, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.usage(), nil
}

// Len returns how many messages the store holds.
func (s *Messages) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.texts)
}

// usage is Usage for a caller that holds mu.
func (s *Messages) usage() message.Usage {
	return message.Usage{Count: int64(len(s.texts)), Bytes: s.bytes}
}

// unshare gives the store an array of its own before a change in place,
// when a listing may hold the current one. The caller holds mu for
// writing, so no List runs meanwhile.
func (s *Messages) unshare() {
	if !s.shared {
		return
	}
	s.texts = append(make([]string, 0, cap(s.texts)), s.texts...)
	s.shared = false
}

// position checks index against the current length; the caller holds mu.
func (s *Messages) position(index int64) (int, error) {
	if index < 0 || index >= int64(len(s.texts)) {
		return 0, &message.IndexError{Index: index, Len: len(s.texts)}
	}
	return int(index), nil
}
