// Package message holds the service's messages: a text value and the ordered
// collection that keeps them in creation order.
package message

import (
	"fmt"
	"sync"
)

// Message is one message. Its text is the whole of it.
type Message struct {
	Text string `json:"text" xml:"text"`
}

// IndexError reports a position that does not exist in a Collection.
type IndexError struct {
	Index int64 // the position asked for
	Len   int   // how many messages the collection held at that moment
}

func (e *IndexError) Error() string {
	if e.Len == 0 {
		return fmt.Sprintf("index %d is out of range: the collection is empty", e.Index)
	}
	return fmt.Sprintf("index %d is out of range: valid indexes are 0 to %d", e.Index, e.Len-1)
}

// Collection is an ordered, in-memory list of message texts, safe for
// concurrent use. Positions are zero-based and follow creation order;
// removing a message moves the later ones up by one.
//
// Texts are stored as plain strings rather than Message values so that the
// collection costs one string header per message and nothing more.
type Collection struct {
	mu    sync.RWMutex
	texts []string
}

// Append adds m at the end and returns its index.
func (c *Collection) Append(m Message) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.texts = append(c.texts, m.Text)
	return len(c.texts) - 1
}

// Get returns the message at index.
func (c *Collection) Get(index int64) (Message, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	i, err := c.position(index)
	if err != nil {
		return Message{}, err
	}
	return Message{Text: c.texts[i]}, nil
}

// Replace sets the text of the message at index to m's text.
func (c *Collection) Replace(index int64, m Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, err := c.position(index)
	if err != nil {
		return err
	}
	c.texts[i] = m.Text
	return nil
}

// Remove deletes the message at index; the messages after it move up.
func (c *Collection) Remove(index int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, err := c.position(index)
	if err != nil {
		return err
	}
	copy(c.texts[i:], c.texts[i+1:])
	c.texts[len(c.texts)-1] = "" // let the removed text be collected
	c.texts = c.texts[:len(c.texts)-1]
	return nil
}

// All returns every message in order, as a snapshot.
func (c *Collection) All() []Message {
	c.mu.RLock()
	defer c.mu.RUnlock()
	all := make([]Message, len(c.texts))
	for i, t := range c.texts {
		all[i] = Message{Text: t}
	}
	return all
}

// Len returns how many messages the collection holds.
func (c *Collection) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.texts)
}

// position checks index against the current length; the caller holds mu.
func (c *Collection) position(index int64) (int, error) {
	if index < 0 || index >= int64(len(c.texts)) {
		return 0, &IndexError{Index: index, Len: len(c.texts)}
	}
	return int(index), nil
}
