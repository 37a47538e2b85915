package inmem

import (
	"context"
	"sync"

	"github.com/springport/greeter/domain/message"
)

var _ message.Store = (*Messages)(nil)

// Messages is a message.Store held in memory. Its zero value is an empty
// store, ready to use. Its methods never fail but with an
// *message.IndexError.
//
// Texts are stored as plain strings rather than Message values so that the
// store costs one string header per message and nothing more.
type Messages struct {
	mu    sync.RWMutex
	texts []string
}

// Append adds m at the end.
func (s *Messages) Append(_ context.Context, m message.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.texts = append(s.texts, m.Text)
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
	s.texts[i] = m.Text
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
	copy(s.texts[i:], s.texts[i+1:])
	s.texts[len(s.texts)-1] = "" // let the removed text be collected
	s.texts = s.texts[:len(s.texts)-1]
	return nil
}

// All returns every message in order, as a snapshot.
func (s *Messages) All(context.Context) ([]message.Message, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	all := make([]message.Message, len(s.texts))
	for i, t := range s.texts {
		all[i] = message.Message{Text: t}
	}
	return all, nil
}

// Len returns how many messages the store holds.
func (s *Messages) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.texts)
}

// position checks index against the current length; the caller holds mu.
func (s *Messages) position(index int64) (int, error) {
	if index < 0 || index >= int64(len(s.texts)) {
		return 0, &message.IndexError{Index: index, Len: len(s.texts)}
	}
	return int(index), nil
}
