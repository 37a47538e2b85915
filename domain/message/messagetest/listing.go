package messagetest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/springport/greeter/domain/message"
)

// listPages checks List's window: every offset and limit, in range and
// past it.
func listPages(t *testing.T, s message.Store) {
	want := make([]string, 7)
	for i := range want {
		want[i] = fmt.Sprintf("m%d", i)
		mustAppend(t, s, want[i])
	}
	n := int64(len(want))
	for _, offset := range []int64{0, 1, 3, 6, 7, 8, 1000, math.MaxInt64} {
		for _, limit := range []int64{-1, 0, 1, 2, 3, 7, 100, math.MaxInt64} {
			total, got := list(t, s, offset, limit)
			if total != n {
				t.Errorf("List(%d, %d): Total = %d, want %d", offset, limit, total, n)
			}
			lo, hi := min(offset, n), n
			if limit >= 0 && limit < hi-lo {
				hi = lo + limit
			}
			if w := want[lo:hi]; !slices.Equal(got, w) {
				t.Errorf("List(%d, %d) = %q, want %q", offset, limit, got, w)
			}
		}
	}
	total, got := list(t, s, -1, 2)
	if total != n || !slices.Equal(got, want[:2]) {
		t.Errorf("List(-1, 2) = %d, %q; want the first page, as offset 0", total, got)
	}
}

// listingIsASnapshot checks that a listing yields the messages as they
// were when it was taken, whatever changes the store meanwhile.
func listingIsASnapshot(t *testing.T, s message.Store) {
	for _, text := range []string{"a", "b", "c", "d"} {
		mustAppend(t, s, text)
	}
	whole, err := s.List(t.Context(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	page, err := s.List(t.Context(), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	// Changes made on other goroutines, as other requests make them: a
	// store whose listing holds a transaction must not wait for it.
	changed := make(chan struct{})
	go func() {
		defer close(changed)
		if err := s.Replace(t.Context(), 1, message.Message{Text: "B"}); err != nil {
			t.Errorf("Replace: %v", err)
		}
		if err := s.Remove(t.Context(), 0); err != nil {
			t.Errorf("Remove: %v", err)
		}
		if err := s.Append(t.Context(), message.Message{Text: "e"}); err != nil {
			t.Errorf("Append: %v", err)
		}
	}()
	<-changed
	if got := drain(t, whole); whole.Total != 4 || !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("a listing of everything taken before the changes yields %d, %q; want 4, [a b c d]", whole.Total, got)
	}
	if got := drain(t, page); page.Total != 4 || !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("a listing of [1, 3) taken before the changes yields %d, %q; want 4, [b c]", page.Total, got)
	}
	expect(t, s, "B", "c", "d", "e")
}

// listingClosedEarly checks that a listing closed unranged, or left
// halfway, holds nothing that the store's next operations wait for.
func listingClosedEarly(t *testing.T, s message.Store) {
	for _, text := range []string{"a", "b", "c"} {
		mustAppend(t, s, text)
	}
	for range 50 { // more than any pool has connections
		l, err := s.List(t.Context(), 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		l.Close() // twice is allowed
		l, err = s.List(t.Context(), 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range l.Messages {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		l.Close()
	}
	mustReplace(t, s, 0, "A")
	mustRemove(t, s, 2)
	expect(t, s, "A", "b")
}

// usage checks that Usage counts messages and the bytes of their texts
// through every change.
func usage(t *testing.T, s message.Store) {
	check := func(when string, count, bytes int64) {
		t.Helper()
		u, err := s.Usage(t.Context())
		if err != nil {
			t.Fatalf("Usage %s: %v", when, err)
		}
		if u != (message.Usage{Count: count, Bytes: bytes}) {
			t.Errorf("Usage %s = %+v, want {Count:%d Bytes:%d}", when, u, count, bytes)
		}
	}
	check("of an empty store", 0, 0)
	mustAppend(t, s, "héllo") // 6 bytes: é is two
	mustAppend(t, s, "")
	mustAppend(t, s, "nul\x00")
	check("after three appends", 3, 10)
	mustReplace(t, s, 1, "1234567")
	check("after a replace that grows", 3, 17)
	mustReplace(t, s, 0, "h")
	check("after a replace that shrinks", 3, 12)
	mustRemove(t, s, 2)
	check("after a remove", 2, 8)
}

// RunLimits runs the behaviours of a store with Limits as subtests, each
// on a store of its own that newStore makes empty with the given limits.
func RunLimits(t *testing.T, newStore func(t *testing.T, l message.Limits) message.Store) {
	t.Run("MaxCount", func(t *testing.T) { maxCount(t, newStore(t, message.Limits{MaxCount: 3})) })
	t.Run("MaxBytes", func(t *testing.T) { maxBytes(t, newStore(t, message.Limits{MaxBytes: 10})) })
	t.Run("ConcurrentAppendsAtTheLimit", func(t *testing.T) {
		ConcurrentAppendsAtTheLimit(t, 8, 40, 100, newStore(t, message.Limits{MaxCount: 100}))
	})
}

func maxCount(t *testing.T, s message.Store) {
	for _, text := range []string{"a", "b", "c"} {
		mustAppend(t, s, text)
	}
	expectLimitError(t, "Append past MaxCount", s.Append(t.Context(), message.Message{Text: "d"}), message.MaxCount, 3)
	expect(t, s, "a", "b", "c")
	mustReplace(t, s, 0, "a longer text") // a replace adds no message
	mustRemove(t, s, 1)
	mustAppend(t, s, "d") // room again
	expect(t, s, "a longer text", "c", "d")
}

func maxBytes(t *testing.T, s message.Store) {
	mustAppend(t, s, "12345")
	expectLimitError(t, "Append of 6 bytes to 5 of 10", s.Append(t.Context(), message.Message{Text: "678901"}), message.MaxBytes, 10)
	mustAppend(t, s, "")      // an empty text takes nothing
	mustAppend(t, s, "67890") // exactly up to the bound
	expectLimitError(t, "Append of 1 byte at the bound", s.Append(t.Context(), message.Message{Text: "x"}), message.MaxBytes, 10)
	expectLimitError(t, "Replace that grows past the bound", s.Replace(t.Context(), 0, message.Message{Text: "123456"}), message.MaxBytes, 10)
	expect(t, s, "12345", "", "67890")
	mustReplace(t, s, 0, "abcde") // as large as before: allowed
	mustReplace(t, s, 2, "fg")    // smaller
	mustReplace(t, s, 1, "hij")   // grows, within the room the last one made
	expect(t, s, "abcde", "hij", "fg")
}

func expectLimitError(t *testing.T, what string, err error, limit message.Limit, max int64) {
	t.Helper()
	var le *message.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("%s: err = %v, want a *message.LimitError", what, err)
	}
	if le.Limit != limit || le.Max != max {
		t.Errorf("%s: LimitError{Limit: %d, Max: %d}, want {Limit: %d, Max: %d}", what, le.Limit, le.Max, limit, max)
	}
}

// ConcurrentAppendsAtTheLimit appends each messages from each of writers
// goroutines, spread over stores that share one collection whose MaxCount
// is max, and checks that exactly max of them were stored, that every
// other Append was refused with a *message.LimitError, and that the
// refused ones are not in the store.
func ConcurrentAppendsAtTheLimit(t *testing.T, writers, each int, max int64, stores ...message.Store) {
	t.Helper()
	ctx := t.Context()
	refused := make([][]bool, writers)
	done := make(chan struct{})
	for w := range writers {
		s := stores[w%len(stores)]
		refused[w] = make([]bool, each)
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range each {
				err := s.Append(ctx, message.Message{Text: fmt.Sprintf("%d/%d", w, i)})
				var le *message.LimitError
				switch {
				case errors.As(err, &le):
					refused[w][i] = true
				case err != nil:
					t.Errorf("writer %d, Append %d: %v", w, i, err)
					return
				}
			}
		}()
	}
	for range writers {
		<-done
	}
	if t.Failed() {
		return
	}
	stored := all(t, stores[0])
	if int64(len(stored)) != max {
		t.Fatalf("%d messages stored, want exactly the limit %d", len(stored), max)
	}
	accepted := 0
	for _, r := range refused {
		for _, no := range r {
			if !no {
				accepted++
			}
		}
	}
	if accepted != len(stored) {
		t.Errorf("%d Appends succeeded, but %d messages are stored", accepted, len(stored))
	}
	for _, text := range stored {
		var w, i int
		if _, err := fmt.Sscanf(text, "%d/%d", &w, &i); err != nil || w < 0 || w >= writers || i < 0 || i >= each {
			t.Fatalf("unexpected message %q", text)
		}
		if refused[w][i] {
			t.Errorf("message %q is stored, but its Append was refused", text)
		}
	}
}

// list returns a listing's total and texts.
func list(t *testing.T, s message.Store, offset, limit int64) (int64, []string) {
	t.Helper()
	l, err := s.List(t.Context(), offset, limit)
	if err != nil {
		t.Fatalf("List(%d, %d): %v", offset, limit, err)
	}
	defer l.Close()
	return l.Total, drain(t, l)
}

func drain(t *testing.T, l *message.Listing) []string {
	t.Helper()
	got := []string{}
	for m, err := range l.Messages {
		if err != nil {
			t.Fatalf("ranging a listing: %v", err)
		}
		got = append(got, m.Text)
	}
	return got
}
