// Package messagetest is the contract of message.Store, as tests that
// every implementation runs: an adapter's test calls Run with a function
// that makes an empty store of its kind.
package messagetest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/domain/message"
)

// Run runs every behaviour of the contract as a subtest, each on a store
// of its own that newStore makes empty.
func Run(t *testing.T, newStore func(t *testing.T) message.Store) {
	for _, b := range behaviours {
		t.Run(b.name, func(t *testing.T) {
			b.test(t, newStore(t))
		})
	}
}

var behaviours = []struct {
	name string
	test func(t *testing.T, s message.Store)
}{
	{"EmptyAllIsAnEmptyList", emptyAllIsAnEmptyList},
	{"AppendKeepsOrder", appendKeepsOrder},
	{"OutOfRangeOnEmpty", outOfRangeOnEmpty},
	{"OutOfRange", outOfRange},
	{"RemoveMovesLaterMessagesUp", removeMovesLaterMessagesUp},
	{"RemoveEveryPosition", removeEveryPosition},
	{"Replace", replace},
	{"AllIsASnapshot", allIsASnapshot},
	{"ListPages", listPages},
	{"ListingIsASnapshot", listingIsASnapshot},
	{"ListingClosedEarly", listingClosedEarly},
	{"Usage", usage},
	{"TextsKeptExactly", textsKeptExactly},
	{"ConcurrentAppends", func(t *testing.T, s message.Store) { ConcurrentAppends(t, 8, 100, s) }},
	{"ConcurrentOperations", func(t *testing.T, s message.Store) { ConcurrentOperations(t, 20, s) }},
}

func emptyAllIsAnEmptyList(t *testing.T, s message.Store) {
	all, err := message.All(t.Context(), s)
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	// Not nil: the HTTP surface encodes a nil slice as null, not [].
	if all == nil || len(all) != 0 {
		t.Errorf("All on an empty store = %#v, want an empty, non-nil slice", all)
	}
}

func appendKeepsOrder(t *testing.T, s message.Store) {
	want := []string{"a", "b", "c", "d", "e"}
	for i, text := range want {
		mustAppend(t, s, text)
		if got := mustGet(t, s, int64(i)); got != text {
			t.Fatalf("after Append(%q), Get(%d) = %q", text, i, got)
		}
	}
	expect(t, s, want...)
	for i, text := range want {
		if got := mustGet(t, s, int64(i)); got != text {
			t.Errorf("Get(%d) = %q, want %q", i, got, text)
		}
	}
}

func outOfRangeOnEmpty(t *testing.T, s message.Store) {
	for _, index := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64} {
		expectIndexErrors(t, s, index, 0)
	}
	expect(t, s)
}

func outOfRange(t *testing.T, s message.Store) {
	for _, text := range []string{"x", "y", "z"} {
		mustAppend(t, s, text)
	}
	for _, index := range []int64{3, 4, -1, -3, 1 << 40, -1 << 40, math.MaxInt64, math.MinInt64} {
		expectIndexErrors(t, s, index, 3)
	}
	expect(t, s, "x", "y", "z") // failed operations change nothing
	mustRemove(t, s, 2)
	expectIndexErrors(t, s, 2, 2) // the length is the one of the moment
	// After removals at the front, as after any: a store that counts
	// positions from where the collection starts must not overflow.
	mustRemove(t, s, 0)
	mustAppend(t, s, "w")
	mustRemove(t, s, 0)
	for _, index := range []int64{1, -1, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64} {
		expectIndexErrors(t, s, index, 1)
	}
	expect(t, s, "w")
}

// expectIndexErrors checks that Get, Replace and Remove at index fail with
// an IndexError naming index and n.
func expectIndexErrors(t *testing.T, s message.Store, index int64, n int) {
	t.Helper()
	ctx := t.Context()
	for _, op := range []struct {
		name string
		do   func() error
	}{
		{"Get", func() error { _, err := s.Get(ctx, index); return err }},
		{"Replace", func() error { return s.Replace(ctx, index, message.Message{Text: "replaced"}) }},
		{"Remove", func() error { return s.Remove(ctx, index) }},
	} {
		err := op.do()
		var ie *message.IndexError
		if !errors.As(err, &ie) || ie.Index != index || ie.Len != n {
			t.Errorf("%s(%d) on %d messages:\ngot  %v\nwant an IndexError for %d of %d", op.name, index, n, err, index, n)
		}
	}
}

func removeMovesLaterMessagesUp(t *testing.T, s message.Store) {
	for _, text := range []string{"a", "b", "c", "d", "e", "f"} {
		mustAppend(t, s, text)
	}
	mustRemove(t, s, 2) // middle
	expect(t, s, "a", "b", "d", "e", "f")
	if got := mustGet(t, s, 2); got != "d" {
		t.Errorf("after removing 2, Get(2) = %q, want d", got)
	}
	mustRemove(t, s, 0) // first
	expect(t, s, "b", "d", "e", "f")
	mustRemove(t, s, 3) // last
	expect(t, s, "b", "d", "e")
	mustAppend(t, s, "g") // appends go after what is left
	expect(t, s, "b", "d", "e", "g")
	mustRemove(t, s, 1)
	mustReplace(t, s, 2, "G")
	expect(t, s, "b", "e", "G")
	for i, want := range []string{"b", "e", "G"} {
		if got := mustGet(t, s, int64(i)); got != want {
			t.Errorf("Get(%d) = %q, want %q", i, got, want)
		}
	}
}

// removeEveryPosition removes at each position of collections of several
// lengths, so that a store that closes gaps from either end is checked
// on both.
func removeEveryPosition(t *testing.T, s message.Store) {
	model := []string{}
	for n := range 7 {
		for i := range n {
			text := fmt.Sprintf("%d.%d", n, i)
			mustAppend(t, s, text)
			model = append(model, text)
		}
		for len(model) > 0 {
			i := (len(model) * 5 / 7) % len(model) // positions before, in and past the middle
			mustRemove(t, s, int64(i))
			model = slices.Delete(model, i, i+1)
			expect(t, s, model...)
		}
	}
	for i := range 5 {
		mustAppend(t, s, fmt.Sprint(i))
	}
	for _, i := range []int64{1, 0, 2, 0, 0} {
		mustRemove(t, s, i)
	}
	expect(t, s)
	mustAppend(t, s, "after")
	expect(t, s, "after")
}

func replace(t *testing.T, s message.Store) {
	for _, text := range []string{"a", "b", "c"} {
		mustAppend(t, s, text)
	}
	mustReplace(t, s, 1, "B")
	mustReplace(t, s, 0, "A")
	mustReplace(t, s, 2, "C")
	mustReplace(t, s, 2, "C2")
	expect(t, s, "A", "B", "C2")
	if got := mustGet(t, s, 1); got != "B" {
		t.Errorf("Get(1) = %q, want B", got)
	}
}

func allIsASnapshot(t *testing.T, s message.Store) {
	for _, text := range []string{"a", "b"} {
		mustAppend(t, s, text)
	}
	all, err := message.All(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	all[0].Text = "changed by the caller"
	mustAppend(t, s, "c")
	mustReplace(t, s, 1, "B")
	if got := texts(all); !slices.Equal(got, []string{"changed by the caller", "b"}) {
		t.Errorf("a list All returned changed with the store: %q", got)
	}
	expect(t, s, "a", "B", "c")
}

func textsKeptExactly(t *testing.T, s message.Store) {
	large := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	want := []string{
		"",
		" ",
		"  leading and trailing spaces  ",
		"line one\nline two\r\n\ttabbed",
		"héllo wörld, 日本語, עברית, 🙂👍🏽, e\u0301",
		`quotes ' " \ and SQL: '); DROP TABLE messages; --`,
		"%s %d $1 ${x} \\x00",
		// NUL bytes (which an SQL text column cannot hold) alone, among
		// text and at the end, other control characters, characters that
		// some layers treat specially, and bytes that are not UTF-8: a Go
		// string holds any bytes, and a store keeps what it is given.
		"\x00",
		"nul \x00 inside, and last \x00",
		"\x00\x00\x00",
		"\x01\x07\x1b[31m\x7f control characters",
		"\ufeffbyte order mark, \u2028line separator, \U0010FFFF",
		"\xff\xfe\xc0\x80 not UTF-8",
		large,
	}
	for _, text := range want {
		mustAppend(t, s, text)
	}
	expect(t, s, want...)
	for i, text := range want {
		if got := mustGet(t, s, int64(i)); got != text {
			t.Errorf("Get(%d) = %.40q (%d bytes), want %.40q (%d bytes)", i, got, len(got), text, len(text))
		}
	}
	mustReplace(t, s, 0, large)
	mustReplace(t, s, 1, "replaced with \x00")
	mustReplace(t, s, int64(len(want)-1), "")
	if got := mustGet(t, s, 0); got != large {
		t.Errorf("after replacing with 1 MiB, Get(0) has %d bytes", len(got))
	}
	if got := mustGet(t, s, 1); got != "replaced with \x00" {
		t.Errorf("after replacing with a NUL byte, Get(1) = %q", got)
	}
	if got := mustGet(t, s, int64(len(want)-1)); got != "" {
		t.Errorf("after replacing with the empty text, Get(%d) = %.40q", len(want)-1, got)
	}
	want[0], want[1], want[len(want)-1] = large, "replaced with \x00", ""
	expect(t, s, want...)
}

// ConcurrentAppends appends each messages from each of writers
// goroutines, spread over stores that share one collection (the same
// store may be given more than once), and checks that every message was
// stored exactly once and that each goroutine's messages kept their order.
func ConcurrentAppends(t *testing.T, writers, each int, stores ...message.Store) {
	t.Helper()
	ctx := t.Context()
	var wg sync.WaitGroup
	for w := range writers {
		s := stores[w%len(stores)]
		wg.Go(func() {
			for i := range each {
				if err := s.Append(ctx, message.Message{Text: fmt.Sprintf("%d/%d", w, i)}); err != nil {
					t.Errorf("writer %d, Append %d: %v", w, i, err)
					return
				}
				if i%25 == 0 {
					if _, err := message.All(ctx, s); err != nil { // readers interleave with writers
						t.Errorf("writer %d, All: %v", w, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	next := make([]int, writers)
	for _, text := range all(t, stores[0]) {
		var w, i int
		if _, err := fmt.Sscanf(text, "%d/%d", &w, &i); err != nil || w < 0 || w >= writers {
			t.Fatalf("unexpected message %q", text)
		}
		if i != next[w] {
			t.Fatalf("writer %d: message %d stored where %d was due (lost, duplicated or reordered)", w, i, next[w])
		}
		next[w]++
	}
	for w, n := range next {
		if n != each {
			t.Errorf("writer %d: %d messages stored, want %d", w, n, each)
		}
	}
}

func mustAppend(t *testing.T, s message.Store, text string) {
	t.Helper()
	if err := s.Append(t.Context(), message.Message{Text: text}); err != nil {
		t.Fatalf("Append(%.40q): %v", text, err)
	}
}

func mustGet(t *testing.T, s message.Store, index int64) string {
	t.Helper()
	m, err := s.Get(t.Context(), index)
	if err != nil {
		t.Fatalf("Get(%d): %v", index, err)
	}
	return m.Text
}

func mustReplace(t *testing.T, s message.Store, index int64, text string) {
	t.Helper()
	if err := s.Replace(t.Context(), index, message.Message{Text: text}); err != nil {
		t.Fatalf("Replace(%d, %.40q): %v", index, text, err)
	}
}

func mustRemove(t *testing.T, s message.Store, index int64) {
	t.Helper()
	if err := s.Remove(t.Context(), index); err != nil {
		t.Fatalf("Remove(%d): %v", index, err)
	}
}

// expect checks that the store holds exactly want, in order.
func expect(t *testing.T, s message.Store, want ...string) {
	t.Helper()
	if got := all(t, s); !slices.Equal(got, want) {
		t.Fatalf("All:\ngot  %.60q\nwant %.60q", got, want)
	}
}

func all(t *testing.T, s message.Store) []string {
	t.Helper()
	ms, err := message.All(t.Context(), s)
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	return texts(ms)
}

func texts(ms []message.Message) []string {
	texts := make([]string, len(ms))
	for i, m := range ms {
		texts[i] = m.Text
	}
	return texts
}
