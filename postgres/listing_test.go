package postgres_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/postgres"
)

// fill appends n messages of size bytes each in one statement, so that a
// listing of them is more than the connection's buffers hold: its
// statement is still running on the server while it is read slowly.
func fill(t *testing.T, url string, n, size int) {
	t.Helper()
	query(t, url, fmt.Sprintf("SELECT FROM greeter_append_messages(array(SELECT convert_to(lpad(g::text, %d, '.'), 'UTF8') FROM generate_series(0, %d) g), 0, 0)", size, n-1))
}

// TestSlowListingBlocksNoOne reads a listing of 12 MB slowly, for longer
// than the operation timeout, while other goroutines change the
// collection: they must not wait for it, and it must not be cut.
func TestSlowListingBlocksNoOne(t *testing.T) {
	const timeout = 500 * time.Millisecond
	db, url := fresh(t, func(o *postgres.Options) { o.Timeout = timeout })
	s := db.Messages()
	const n, size = 3000, 4096
	fill(t, url, n, size)
	l, err := s.List(t.Context(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Total != n {
		t.Fatalf("Total = %d, want %d", l.Total, n)
	}
	read := 0
	for m, err := range l.Messages {
		if err != nil {
			t.Fatalf("after %d messages: %v", read, err)
		}
		if want := fmt.Sprintf("%*d", size, read); m.Text != strings.ReplaceAll(want, " ", ".") {
			t.Fatalf("message %d is %.20q…", read, m.Text)
		}
		if read == 0 {
			// Three timeouts' worth of a slow reader, during which the
			// others change the collection, each within its timeout.
			start := time.Now()
			for time.Since(start) < 3*timeout {
				for what, err := range map[string]error{
					"Append":  s.Append(t.Context(), message.Message{Text: "appended"}),
					"Replace": s.Replace(t.Context(), n, message.Message{Text: "replaced"}),
					"Remove":  s.Remove(t.Context(), n),
				} {
					if err != nil {
						t.Fatalf("%s while a listing is read slowly: %v", what, err)
					}
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		read++
	}
	if read != n {
		t.Errorf("the listing yielded %d messages, want %d", read, n)
	}
	if u, err := s.Usage(t.Context()); err != nil || u.Count != n {
		t.Errorf("Usage = %+v, %v; want %d messages", u, err, n)
	}
}

// TestListingSlots checks that listings take at most half the pool, so
// that slow readers leave connections to the other operations, and that
// a listing closed with most of its window unread gives its slot back at
// once.
func TestListingSlots(t *testing.T) {
	const timeout = 300 * time.Millisecond
	db, url := fresh(t, func(o *postgres.Options) { o.MaxConns, o.Timeout = 3, timeout })
	s := db.Messages()
	fill(t, url, 3000, 4096)
	l, err := s.List(t.Context(), 0, -1) // the only slot of 3 / 2
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = s.List(t.Context(), 0, 1)
	expectOutage(t, "a second List", err)
	if elapsed := time.Since(start); elapsed < timeout || elapsed > timeout+time.Second {
		t.Errorf("the second List failed after %v, want after the timeout, %v", elapsed, timeout)
	}
	if err == nil || !strings.Contains(err.Error(), "listings") || !strings.Contains(err.Error(), "busy") {
		t.Errorf("the second List's error does not say the listings are busy: %v", err)
	}
	if _, err := s.Get(t.Context(), 2999); err != nil {
		t.Errorf("Get while the listings are busy: %v", err)
	}
	for _, err := range l.Messages {
		if err != nil {
			t.Fatal(err)
		}
		break // closes it with 2999 messages unread
	}
	l.Close()
	l, err = s.List(t.Context(), 2999, 1)
	if err != nil {
		t.Fatalf("List after the first was closed: %v", err)
	}
	defer l.Close()
	var got []message.Message
	for m, err := range l.Messages {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	if len(got) != 1 || !strings.HasSuffix(got[0].Text, "2999") {
		t.Errorf("List(2999, 1) = %d messages, want the last", len(got))
	}
	var active int
	query(t, url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greeter' AND state <> 'idle'", &active)
	if active != 0 {
		t.Errorf("%d of the store's connections are still busy after every listing ended", active)
	}
}

// TestListingTimeout checks that a List whose statement waits longer
// than the timeout for its first row fails with an outage.
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
