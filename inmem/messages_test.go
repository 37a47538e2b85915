package inmem_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/inmem"
)

func texts(t *testing.T, s *inmem.Messages) []string {
	t.Helper()
	all, err := s.All(t.Context())
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	var texts []string
	for _, m := range all {
		texts = append(texts, m.Text)
	}
	return texts
}

func TestMessages(t *testing.T) {
	ctx := t.Context()
	var s inmem.Messages
	for i, text := range []string{"a", "b", "c", "d"} {
		if err := s.Append(ctx, message.Message{Text: text}); err != nil {
			t.Fatalf("Append(%q): %v", text, err)
		}
		if m, err := s.Get(ctx, int64(i)); err != nil || m.Text != text {
			t.Fatalf("after Append(%q), Get(%d) = %v, %v; want %q", text, i, m, err, text)
		}
	}
	if err := s.Replace(ctx, 1, message.Message{Text: "B"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if got, want := texts(t, &s), []string{"B", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("after replace and remove:\ngot  %q\nwant %q", got, want)
	}
	if m, err := s.Get(ctx, 2); err != nil || m.Text != "d" {
		t.Errorf("Get(2) = %v, %v; want d", m, err)
	}
	if err := s.Remove(ctx, 2); err != nil || s.Len() != 2 {
		t.Errorf("Remove(last) = %v, Len %d; want nil, 2", err, s.Len())
	}
}

func TestMessagesIndexErrors(t *testing.T) {
	ctx := t.Context()
	var s inmem.Messages
	if err := s.Append(ctx, message.Message{Text: "only"}); err != nil {
		t.Fatal(err)
	}
	for _, index := range []int64{-1, 1, 1 << 40, -1 << 40} {
		for name, op := range map[string]func() error{
			"Get":     func() error { _, err := s.Get(ctx, index); return err },
			"Replace": func() error { return s.Replace(ctx, index, message.Message{Text: "x"}) },
			"Remove":  func() error { return s.Remove(ctx, index) },
		} {
			err := op()
			var ie *message.IndexError
			if !errors.As(err, &ie) || ie.Index != index || ie.Len != 1 {
				t.Errorf("%s(%d) = %v, want an IndexError for %d of 1", name, index, err, index)
			}
		}
	}
	if got := texts(t, &s); !slices.Equal(got, []string{"only"}) {
		t.Errorf("failed operations changed the store: %q", got)
	}
	var empty inmem.Messages
	if _, err := empty.Get(ctx, 0); err == nil || err.Error() != "index 0 is out of range: the collection is empty" {
		t.Errorf("Get on empty: %v", err)
	}
}

func TestMessagesConcurrentAppend(t *testing.T) {
	ctx := t.Context()
	var s inmem.Messages
	const writers, each = 8, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := s.Append(ctx, message.Message{Text: fmt.Sprintf("%d/%d", w, i)}); err != nil {
					t.Error(err)
					return
				}
				if i%50 == 0 {
					s.All(ctx) // readers interleave with writers
				}
			}
		})
	}
	wg.Wait()
	next := make([]int, writers)
	for _, text := range texts(t, &s) {
		var w, i int
		fmt.Sscanf(text, "%d/%d", &w, &i)
		if i != next[w] {
			t.Fatalf("writer %d: %d stored where %d was due", w, i, next[w])
		}
		next[w]++
	}
	if s.Len() != writers*each {
		t.Errorf("Len = %d, want %d", s.Len(), writers*each)
	}
}
