// Package message holds the service's messages: a text value, and the Store
// port through which the service keeps them in creation order.
package message

import (
	"context"
	"fmt"
	"iter"
)

// Message is one message. Its text is the whole of it.
type Message struct {
	Text string `json:"text" xml:"text"`
}

// Store keeps messages in creation order. Positions are dense and
// zero-based, 0 to n-1 for n messages; Remove moves the later messages up
// by one, so a position names a different message afterwards. A position
// out of range is an *IndexError; a change the store's Limits do not allow
// is a *LimitError, and changes nothing. Every method may fail for
// reasons of its own, as a database can; such errors are neither.
//
// A Store is safe for concurrent use.
type Store interface {
	// Append adds m after the last message. It returns no position: a
	// store shared with other writers would have to count to give one.
	Append(ctx context.Context, m Message) error
	// Get returns the message at index.
	Get(ctx context.Context, index int64) (Message, error)
	// Replace sets the message at index to m.
	Replace(ctx context.Context, index int64, m Message) error
	// Remove deletes the message at index; the messages after it move up.
	Remove(ctx context.Context, index int64) error
	// List returns a snapshot of the messages from position offset on, at
	// most limit of them (all to the end when limit is negative), with
	// the number of messages the store held at that moment. An offset at
	// or past the end gives no messages, not an error.
	List(ctx context.Context, offset, limit int64) (*Listing, error)
	// Usage returns what the store holds now.
	Usage(ctx context.Context) (Usage, error)
}

// Listing is a consistent snapshot of consecutive messages: what List
// returns. Its messages are read as Messages yields them, so that however
// many there are, only a few are in memory at once; that is why a
// listing may hold something (a database connection) until Close.
type Listing struct {
	// Total is how many messages the store held when the snapshot was
	// taken, whatever part of them the listing covers.
	Total int64
	// Messages yields the snapshot's messages in order, or an error that
	// ends them. It may be ranged once.
	Messages iter.Seq2[Message, error]
	// Close releases what the snapshot holds. It is never nil, must be
	// called once the listing is no longer needed, ranged or not, and
	// may be called more than once.
	Close func()
}

// All returns every message of s in order, as one snapshot in memory:
// for tests and small stores. The service itself streams a Listing.
func All(ctx context.Context, s Store) ([]Message, error) {
	l, err := s.List(ctx, 0, -1)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	all := []Message{} // not nil: an empty collection is an empty list
	for m, err := range l.Messages {
		if err != nil {
			return nil, err
		}
		all = append(all, m)
	}
	return all, nil
}

// Usage is how much a store holds.
type Usage struct {
	Count int64 // messages
	Bytes int64 // the length of their texts in bytes (UTF-8), summed
}

// Limits bound what a store holds, so that no client can fill the memory
// or the disk behind it. Zero means no bound.
type Limits struct {
	MaxCount int64 // messages
	MaxBytes int64 // bytes of text, summed over the messages
}

// Admits reports whether a store that holds u may take a change that adds
// count messages and grows its texts by bytes (negative when it shrinks
// them), and if not, the error that refuses it. A change that shrinks
// nothing is refused only when it takes the store past a bound; a store
// already past one (its limits were lowered) may still shrink.
func (l Limits) Admits(u Usage, count, bytes int64) error {
	if count > 0 && l.MaxCount > 0 && u.Count+count > l.MaxCount {
		return &LimitError{Limit: MaxCount, Max: l.MaxCount, Usage: u, Bytes: bytes}
	}
	if bytes > 0 && l.MaxBytes > 0 && u.Bytes+bytes > l.MaxBytes {
		return &LimitError{Limit: MaxBytes, Max: l.MaxBytes, Usage: u, Bytes: bytes}
	}
	return nil
}

// Limit names one of the Limits.
type Limit uint8

const (
	MaxCount Limit = iota + 1 // Limits.MaxCount
	MaxBytes                  // Limits.MaxBytes
)

// LimitError reports a change refused because it would take a store past
// one of its Limits. Nothing was changed.
type LimitError struct {
	Limit Limit
	Max   int64 // the bound
	Usage Usage // what the store held when it refused
	Bytes int64 // how much the change would have grown the texts
}

func (e *LimitError) Error() string {
	if e.Limit == MaxCount {
		return fmt.Sprintf("the collection may hold at most %d messages and holds %d", e.Max, e.Usage.Count)
	}
	return fmt.Sprintf("the messages' texts may take at most %d bytes; they take %d, and the change would add %d",
		e.Max, e.Usage.Bytes, e.Bytes)
}

// IndexError reports a position that does not exist in a Store.
type IndexError struct {
	Index int64 // the position asked for
	Len   int   // how many messages the store held at that moment
}

func (e *IndexError) Error() string {
	if e.Len == 0 {
		return fmt.Sprintf("index %d is out of range: the collection is empty", e.Index)
	}
	return fmt.Sprintf("index %d is out of range: valid indexes are 0 to %d", e.Index, e.Len-1)
}
