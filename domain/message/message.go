// Package message holds the service's messages: a text value, and the Store
// port through which the service keeps them in creation order.
package message

import (
	"context"
	"fmt"
)

// Message is one message. Its text is the whole of it.
type Message struct {
	Text string `json:"text" xml:"text"`
}

// Store keeps messages in creation order. Positions are dense and
// zero-based, 0 to n-1 for n messages; Remove moves the later messages up
// by one, so a position names a different message afterwards. A position
// out of range is an *IndexError. Every method may fail for reasons of its
// own, as a database can; such errors are not IndexErrors.
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
	// All returns every message in order, as a snapshot.
	All(ctx context.Context) ([]Message, error)
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
