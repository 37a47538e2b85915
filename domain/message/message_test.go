package message

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

func texts(c *Collection) []string {
	var s []string
	for _, m := range c.All() {
		s = append(s, m.Text)
	}
	return s
}

func TestCollection(t *testing.T) {
	var c Collection
	for i, text := range []string{"a", "b", "c", "d"} {
		if got := c.Append(Message{Text: text}); got != i {
			t.Fatalf("Append(%q) = %d, want %d", text, got, i)
		}
	}
	if err := c.Replace(1, Message{Text: "B"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(0); err != nil {
		t.Fatal(err)
	}
	if got, want := texts(&c), []string{"B", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("after replace and remove:\ngot  %q\nwant %q", got, want)
	}
	if m, err := c.Get(2); err != nil || m.Text != "d" {
		t.Errorf("Get(2) = %v, %v; want d", m, err)
	}
	if err := c.Remove(2); err != nil || c.Len() != 2 {
		t.Errorf("Remove(last) = %v, Len %d; want nil, 2", err, c.Len())
	}
}

func TestCollectionIndexErrors(t *testing.T) {
	var c Collection
	c.Append(Message{Text: "only"})
	for _, index := range []int64{-1, 1, 1 << 40, -1 << 40} {
		for name, op := range map[string]func() error{
			"Get":     func() error { _, err := c.Get(index); return err },
			"Replace": func() error { return c.Replace(index, Message{Text: "x"}) },
			"Remove":  func() error { return c.Remove(index) },
		} {
			err := op()
			var ie *IndexError
			if !errors.As(err, &ie) || ie.Index != index || ie.Len != 1 {
				t.Errorf("%s(%d) = %v, want an IndexError for %d of 1", name, index, err, index)
			}
		}
	}
	if got := texts(&c); !slices.Equal(got, []string{"only"}) {
		t.Errorf("failed operations changed the collection: %q", got)
	}
	var empty Collection
	if _, err := empty.Get(0); err == nil || err.Error() != "index 0 is out of range: the collection is empty" {
		t.Errorf("Get on empty: %v", err)
	}
}

func TestCollectionConcurrentAppend(t *testing.T) {
	var c Collection
	const writers, each = 8, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				c.Append(Message{Text: fmt.Sprintf("%d/%d", w, i)})
				if i%50 == 0 {
					c.All() // readers interleave with writers
				}
			}
		}()
	}
	wg.Wait()
	next := make([]int, writers)
	for _, text := range texts(&c) {
		var w, i int
		fmt.Sscanf(text, "%d/%d", &w, &i)
		if i != next[w] {
			t.Fatalf("writer %d: %d stored where %d was due", w, i, next[w])
		}
		next[w]++
	}
	if c.Len() != writers*each {
		t.Errorf("Len = %d, want %d", c.Len(), writers*each)
	}
}
