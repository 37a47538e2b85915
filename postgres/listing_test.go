package postgres_test

import (
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/postgres"
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
	const timeout = 500 * time.Millisecond
	db, url := fresh(t, func(o *postgres.Options) { o.MaxConns, o.Timeout = 3, timeout })
	s := db.Messages()
	const n, size = 3000, 4096
	fill(t, url, n, size)
	var listings []*message.Listing
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
		listings, nexts = append(listings, l), append(nexts, next)
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
		// change the collection and list it, each within its timeout.
		for time.Since(start) < 3*timeout {
			began := time.Now()
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
			if took := time.Since(began); took > timeout {
				t.Errorf("Append, Replace and List took %v while listings were read slowly; want less than the timeout %v", took, timeout)
			}
			if busy := busyConnections(t, url); busy != 0 {
				t.Errorf("%d connections are busy between the listings' chunks", busy)
			}
			time.Sleep(50 * time.Millisecond)
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

// TestListingEndsWhenAMessageIsRemoved: a Remove while a listing of
// several chunks is read would move the keys it continues from, so the
// listing ends with an error rather than yield a list with a message lost
// or doubled; a listing of one chunk is a snapshot whatever happens.
func TestListingEndsWhenAMessageIsRemoved(t *testing.T) {
	db, url := fresh(t)
	s := db.Messages()
	fill(t, url, 3000, 8)
	long, err := s.List(t.Context(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer long.Close()
	short, err := s.List(t.Context(), 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	if err := s.Remove(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	read := 0
	var end error
	for m, err := range long.Messages {
		if err != nil {
			end = err
			break
		}
		if m.Text != filled(read, 8) {
			t.Fatalf("message %d is %q", read, m.Text)
		}
		read++
	}
	if end == nil || !strings.Contains(end.Error(), "removed while the collection was listed") || read != 1000 {
		t.Errorf("the listing read across a Remove ended after %d messages with %v; want it to end after its first chunk, saying why", read, end)
	}
	read = 0
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

// TestListingTimeout checks that a List whose statement waits longer
// than the timeout fails with an outage.
func TestListingTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	db, url := fresh(t, func(o *postgres.Options) { o.Timeout = timeout })
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
	if time.Since(start) > timeout+time.Second {
		t.Errorf("List took %v to fail, want about the timeout %v", time.Since(start), timeout)
	}
}

