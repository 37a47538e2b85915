package postgres_test

import (
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/messagestore/postgres"
)

// fill appends n messages of size bytes each in one statement: message i
// is i, left-padded with dots to size.
func fill(t *testing.T, url string, n, size int) {
	t.Helper()
	query(t, url, fmt.Sprintf("SELECT FROM greeter_append_messages(array(SELECT convert_to(lpad(g::text, %d, '.'), 'UTF8') FROM generate_series(0, %d) g), 0, 0)", size, n-1))
}

// filled is message i as fill wrote it.
func filled(i, size int) string {
	return strings.ReplaceAll(fmt.Sprintf("%*d", size, i), " ", ".")
}

// busyConnections counts the store's connections that are not idle: in a
// statement, or idle in a transaction.
func busyConnections(t *testing.T, url string) int {
	t.Helper()
	var busy int
	query(t, url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greeter' AND state <> 'idle'", &busy)
	return busy
}

// TestSlowListingsHoldNoConnection opens more listings of 12 MB than the
// pool has connections and reads each slowly, for longer than the
// operation timeout, while the collection is appended to and replaced in:
// between chunks a listing holds no connection, so every other operation
// (and every other listing) goes on within its timeout, and each listing
// yields exactly the window it was opened on.
func TestSlowListingsHoldNoConnection(t *testing.T) {
	// Not parallel: it times each listing against a timeout.
	const timeout = 500 * time.Millisecond
	db, url := fresh(t, func(o *postgres.Options) { o.DataSource.MaxPoolSize, o.DataSource.QueryTimeout = 3, timeout })
	s := db.Messages()
	const n, size = 3000, 4096
	fill(t, url, n, size)
	var nexts []func() (message.Message, error, bool)
	for range 5 {
		l, err := s.List(t.Context(), 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if l.Total != n {
			t.Fatalf("Total = %d, want %d", l.Total, n)
		}
		next, stop := iter.Pull2(l.Messages)
		defer stop()
		nexts = append(nexts, next)
	}
	start := time.Now()
	for read := 0; read < n; read++ {
		for i, next := range nexts {
			m, err, ok := next()
			if !ok || err != nil {
				t.Fatalf("listing %d, message %d: %v (more: %t)", i, read, err, ok)
			}
			want := filled(read, size)
			if read == n-1 {
				want = "replaced"
			}
			if m.Text != want {
				t.Fatalf("listing %d, message %d is %.20q…, want %.20q…", i, read, m.Text, want)
			}
		}
		if read != 0 && read != n/2 {
			continue
		}
		// Three timeouts' worth of slow readers, during which the others
		// change the collection and list it, each within its timeout:
		// a call that waited for a connection a listing held would fail
		// once its timeout passed, which fails the test.
		for time.Since(start) < 3*timeout {
			if err := s.Append(t.Context(), message.Message{Text: "appended"}); err != nil {
				t.Fatalf("Append while listings are read slowly: %v", err)
			}
			if err := s.Replace(t.Context(), n-1, message.Message{Text: "replaced"}); err != nil {
				t.Fatalf("Replace while listings are read slowly: %v", err)
			}
			if page, err := s.List(t.Context(), 10, 2); err != nil {
				t.Fatalf("List while listings are read slowly: %v", err)
			} else {
				page.Close()
			}
			if busy := busyConnections(t, url); busy != 0 {
				t.Errorf("%d connections are busy between the listings' chunks", busy)
			}
			time.Sleep(50 * time.Millisecond) // paces the rounds; how long they go on is the loop's condition
		}
		start = time.Now()
	}
	for i, next := range nexts {
		if m, err, ok := next(); ok {
			t.Errorf("listing %d yields more than its window: %.20q, %v", i, m.Text, err)
		}
	}
}

// TestListingChunkBoundaries lists windows that span several chunks, by
// their count of rows and by their bytes: every message comes once, in
// order.
func TestListingChunkBoundaries(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	s := db.Messages()
	fill(t, url, 2500, 8) // 1000 rows a chunk
	fill(t, url, 500, 3000)
	want := make([]string, 0, 3000)
	for i := range 2500 {
		want = append(want, filled(i, 8))
	}
	for i := range 500 {
		want = append(want, filled(i, 3000))
	}
	for _, w := range []struct{ offset, limit int64 }{{0, -1}, {0, 3000}, {1, 2999}, {999, 2}, {999, 1002}, {10, 2300}, {2400, 200}, {2999, 5}, {3000, -1}, {-5, 3}} {
		l, err := s.List(t.Context(), w.offset, w.limit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for m, err := range l.Messages {
			if err != nil {
				t.Fatalf("List(%d, %d): %v", w.offset, w.limit, err)
			}
			got = append(got, m.Text)
		}
		l.Close()
		lo := min(max(w.offset, 0), 3000)
		hi := int64(3000)
		if w.limit >= 0 {
			hi = min(hi, lo+w.limit)
		}
		if l.Total != 3000 || len(got) != int(hi-lo) {
			t.Errorf("List(%d, %d): Total %d, %d messages; want 3000, %d", w.offset, w.limit, l.Total, len(got), hi-lo)
			continue
		}
		for i := range got {
			if got[i] != want[lo+int64(i)] {
				t.Errorf("List(%d, %d): message %d is %.20q…, want %.20q…", w.offset, w.limit, i, got[i], want[lo+int64(i)])
				break
			}
		}
	}
}

// TestListingAcrossRemoves removes messages while a listing of several
// chunks is read: before where it has got to, in what it has yet to read,
// its last message, and past its window; and appends. It yields the window
// as it was at its first chunk, less the messages removed before their
// chunk was read: in order, none twice, none skipped. A listing of one
// chunk is a snapshot whatever happens.
func TestListingAcrossRemoves(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	s := db.Messages()
	const n = 3000
	fill(t, url, n, 8)
	// current is the index a message of the fill has now, given the
	// messages of the fill removed so far.
	var removed []int
	current := func(original int) int64 {
		i := original
		for _, r := range removed {
			if r < original {
				i--
			}
		}
		return int64(i)
	}
	remove := func(original int) {
		t.Helper()
		if err := s.Remove(t.Context(), current(original)); err != nil {
			t.Fatal(err)
		}
		removed = append(removed, original)
	}
	whole, err := s.List(t.Context(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	window, err := s.List(t.Context(), 500, 2000) // 500 to 2499
	if err != nil {
		t.Fatal(err)
	}
	defer window.Close()
	short, err := s.List(t.Context(), 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	nextWhole, stopWhole := iter.Pull2(whole.Messages)
	defer stopWhole()
	nextWindow, stopWindow := iter.Pull2(window.Messages)
	defer stopWindow()
	// readUpTo reads the messages of the fill from one to another but
	// those gone, which it must not yield.
	readUpTo := func(next func() (message.Message, error, bool), from, to int, gone map[int]bool, what string) {
		t.Helper()
		for i := from; i < to; i++ {
			if gone[i] {
				continue
			}
			m, err, ok := next()
			if !ok || err != nil || m.Text != filled(i, 8) {
				t.Fatalf("%s: message %d of the fill: %q, %v (more: %t)", what, i, m.Text, err, ok)
			}
		}
	}
	// Each has read its first chunk (1000 messages) at List. Removed
	// now: messages of those chunks (which come all the same), messages
	// before the window, ones the listings have yet to read, the last of
	// all; and an append, which they must not yield.
	for _, original := range []int{0, 1200, 2700, 100, 999, 1000, 1500, 2400, 2999} {
		remove(original)
	}
	if err := s.Append(t.Context(), message.Message{Text: "appended"}); err != nil {
		t.Fatal(err)
	}
	wholeGone := map[int]bool{1000: true, 1200: true, 1500: true, 2400: true, 2700: true, 2999: true}
	windowGone := map[int]bool{1500: true, 2400: true}
	// The second chunk of whole is 1001 to 2002 (less 1200 and 1500);
	// window's, the rest of it.
	readUpTo(nextWhole, 0, 2000, wholeGone, "whole")
	readUpTo(nextWindow, 500, 2000, windowGone, "window")
	// Removed now: messages sent, messages in the chunks read, and one
	// that whole has yet to read.
	for _, original := range []int{1999, 2001, 2100} {
		remove(original)
	}
	wholeGone[2100] = true
	readUpTo(nextWhole, 2000, n, wholeGone, "whole")
	readUpTo(nextWindow, 2000, 2500, windowGone, "window")
	for what, next := range map[string]func() (message.Message, error, bool){"whole": nextWhole, "window": nextWindow} {
		if m, err, ok := next(); ok {
			t.Errorf("%s yields more than its window: %q, %v", what, m.Text, err)
		}
	}
	read := 0
	for m, err := range short.Messages {
		if err != nil || m.Text != filled(read, 8) {
			t.Fatalf("message %d of a one-chunk listing: %q, %v", read, m.Text, err)
		}
		read++
	}
	if read != 10 {
		t.Errorf("the one-chunk listing yielded %d messages, want 10", read)
	}
}

// TestListingBehindTheLogEnds: a listing that more removals were made
// during than the log keeps ends with an error saying so.
func TestListingBehindTheLogEnds(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	s := db.Messages()
	fill(t, url, 3000, 8)
	l, err := s.List(t.Context(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := s.Remove(t.Context(), 2500); err != nil {
		t.Fatal(err)
	}
	query(t, url, "DELETE FROM greeter_message_removals") // as the log drops the oldest
	read := 0
	var end error
	for _, err := range l.Messages {
		if err != nil {
			end = err
			break
		}
		read++
	}
	if end == nil || !strings.Contains(end.Error(), "log of removals") || read != 1000 {
		t.Errorf("the listing ended after %d messages with %v; want it to end after its first chunk, saying why", read, end)
	}
}

// TestListingTimeout checks that a List whose statement waits longer
// than the timeout fails with an outage.
func TestListingTimeout(t *testing.T) {
	// Not parallel: it times the listing against its timeout.
	const timeout = 300 * time.Millisecond
	db, url := fresh(t, func(o *postgres.Options) { o.DataSource.QueryTimeout = timeout })
	conn := connect(t, url)
	tx, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(t.Context())
	if _, err := tx.Exec(t.Context(), "LOCK greeter_messages IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = db.Messages().List(t.Context(), 0, -1)
	expectOutage(t, "List of a locked table", err)
	// Without the timeout set, List would wait the default, 5s, however
	// idle the machine: under that, a busy one has 4.7s to spare.
	if took := time.Since(start); took < timeout || took >= datasource.DefaultQueryTimeout {
		t.Errorf("List took %v to fail, want about the timeout %v, and less than the default, %v", took, timeout, datasource.DefaultQueryTimeout)
	}
}
