package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/message/messagetest"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/messagestore/postgres"

	"github.com/springport/greeter/framework/testing/polltest"
)

// The tests of batching hold the bounds row in a transaction of their own,
// as a Remove on another instance would, so that a batch stays in flight
// until they let it go, and watch the queue through AppendQueue.

// lockBounds locks the bounds row on a connection of its own, in a
// transaction that the returned function commits.
func lockBounds(t *testing.T, url string) (release func()) {
	t.Helper()
	conn := connect(t, url)
	tx, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), "SELECT 1 FROM greeter_message_bounds FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if err := tx.Commit(context.Background()); err != nil {
				t.Errorf("releasing the bounds row: %v", err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// waitForQueue polls s until inFlight Appends are in the batch in flight
// and queued wait behind it.
func waitForQueue(t *testing.T, s *postgres.Messages, inFlight, queued int) {
	t.Helper()
	polltest.Until(t, polltest.Timeout, "the batch in flight and the queue", func() error {
		if f, q := postgres.AppendQueue(s); f != inFlight || q != queued {
			return fmt.Errorf("%d Appends in flight and %d queued, want %d and %d", f, q, inFlight, queued)
		}
		return nil
	})
}

// waitForLockWaiters polls until n backends of the service on the
// database of url wait for a lock: its batches, blocked by lockBounds.
func waitForLockWaiters(t *testing.T, url string, n int) {
	t.Helper()
	eventually(t, 10*time.Second, "a batch waiting for the bounds row", func() error {
		var waiting int
		query(t, url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greeter' AND wait_event_type = 'Lock'", &waiting)
		if waiting != n {
			return fmt.Errorf("%d backends wait for a lock, want %d", waiting, n)
		}
		return nil
	})
}

// appendAsync appends text on a goroutine of its own and returns where
// its outcome arrives.
func appendAsync(ctx context.Context, s *postgres.Messages, text string) <-chan error {
	done := make(chan error, 1)
	go func() { done <- s.Append(ctx, message.Message{Text: text}) }()
	return done
}

// outcome waits for the outcome of an appendAsync.
func outcome(t *testing.T, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no outcome after 20 s", what)
		return nil
	}
}

// queueBehind starts one Append of first, waits until it is in flight and
// blocked, then queues texts one at a time, each after the one before is
// queued, so that their order of arrival is known.
func queueBehind(t *testing.T, s *postgres.Messages, url, first string, texts []string) (firstDone <-chan error, done []<-chan error) {
	t.Helper()
	firstDone = appendAsync(t.Context(), s, first)
	waitForQueue(t, s, 1, 0)
	waitForLockWaiters(t, url, 1)
	for i, text := range texts {
		done = append(done, appendAsync(t.Context(), s, text))
		waitForQueue(t, s, 1, i+1)
	}
	return firstDone, done
}

func TestBatchFormsWhileOneIsInFlight(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t)
	// Small pages, so that one batch fills the last page and opens others.
	for _, size := range []int{0, 3} {
		t.Run(pageSizeName(size), func(t *testing.T) {
			db, url := fresh(t)
			setPageSize(t, url, size)
			s := db.Messages()
			if err := s.Append(t.Context(), message.Message{Text: "before"}); err != nil {
				t.Fatal(err)
			}
			release := lockBounds(t, url)
			before := postgres.AppendBatches(s)
			texts := make([]string, 100)
			for i := range texts {
				texts[i] = fmt.Sprintf("queued %d", i)
			}
			texts[7] = "" // an empty text is a message too
			firstDone, done := queueBehind(t, s, url, "first", texts)
			release()

			if err := outcome(t, firstDone, "first"); err != nil {
				t.Errorf("Append(first): %v", err)
			}
			for i, d := range done {
				if err := outcome(t, d, texts[i]); err != nil {
					t.Errorf("Append(%q): %v", texts[i], err)
				}
			}
			if n := postgres.AppendBatches(s) - before; n != 2 {
				t.Errorf("%d Appends were sent in %d batches, want 2: the one in flight and the %d queued behind it", len(texts)+1, n, len(texts))
			}
			want := append([]string{"before", "first"}, texts...)
			if got := stored(t, s); !slices.Equal(got, want) {
				t.Errorf("stored, in order:\n%q\nwant %q", got, want)
			}
			pageSize := size
			if pageSize == 0 {
				pageSize = 1024
			}
			if err := checkLayout(t.Context(), connect(t, url), pageSize, want); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestBatchBounds(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t)
	for _, c := range []struct {
		name            string
		messages, bytes int
		texts           []string
		batches         int64 // behind the one in flight
	}{
		{"messages", 10, 1 << 20, numbered(25, 10), 3},
		{"bytes", 256, 100, numbered(10, 40), 5},
		{"a text larger than the bound goes alone", 256, 100, []string{"a", strings.Repeat("b", 150), "c"}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, url := fresh(t)
			s := db.Messages()
			postgres.SetBatchBounds(s, c.messages, c.bytes)
			release := lockBounds(t, url)
			before := postgres.AppendBatches(s)
			firstDone, done := queueBehind(t, s, url, "first", c.texts)
			release()
			if err := outcome(t, firstDone, "first"); err != nil {
				t.Errorf("Append(first): %v", err)
			}
			for i, d := range done {
				if err := outcome(t, d, c.texts[i]); err != nil {
					t.Errorf("Append(%q): %v", c.texts[i], err)
				}
			}
			if n := postgres.AppendBatches(s) - before; n != 1+c.batches {
				t.Errorf("sent in %d batches, want 1 + %d", n, c.batches)
			}
			if got, want := stored(t, s), append([]string{"first"}, c.texts...); !slices.Equal(got, want) {
				t.Errorf("stored, in order:\n%q\nwant %q", got, want)
			}
		})
	}
}

// numbered returns n texts of size bytes each, their numbers.
func numbered(n, size int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%0*d", size, i)
	}
	return out
}

// TestQueuedAppendCancelled checks that a caller who leaves while its
// message is queued takes the message out, and that the others do not
// notice.
func TestQueuedAppendCancelled(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	s := db.Messages()
	release := lockBounds(t, url)
	firstDone := appendAsync(t.Context(), s, "first")
	waitForQueue(t, s, 1, 0)
	ctx, cancel := context.WithCancel(t.Context())
	leaving := appendAsync(ctx, s, "left")
	waitForQueue(t, s, 1, 1)
	staying := appendAsync(t.Context(), s, "stayed")
	waitForQueue(t, s, 1, 2)

	cancel()
	err := outcome(t, leaving, "left")
	var o *outage.Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &o) || !strings.Contains(err.Error(), "not appended") {
		t.Errorf("Append(left) after its context was cancelled: got %v, want context.Canceled saying it was not appended", err)
	}
	waitForQueue(t, s, 1, 1)
	release()
	for _, d := range []struct {
		text string
		done <-chan error
	}{{"first", firstDone}, {"stayed", staying}} {
		if err := outcome(t, d.done, d.text); err != nil {
			t.Errorf("Append(%q): %v", d.text, err)
		}
	}
	if got, want := stored(t, s), []string{"first", "stayed"}; !slices.Equal(got, want) {
		t.Errorf("stored %q, want %q", got, want)
	}
}

// terminateLockWaiters ends the backends of the service that wait for a
// lock on the database of url, as an operator's pg_terminate_backend or a
// crash of the backend would: their transactions roll back.
func terminateLockWaiters(t *testing.T, url string) {
	t.Helper()
	var n int
	query(t, url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greeter' AND wait_event_type = 'Lock'", &n)
	if n != 1 {
		t.Fatalf("terminated %d backends waiting for the bounds row, want 1", n)
	}
}

// TestOutageDuringABatch checks that when the connection of a batch in
// flight is lost, every member gets an outage error, and that what was
// acknowledged before is kept.
func TestOutageDuringABatch(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	s := db.Messages()
	acked := []string{"acknowledged 0", "acknowledged 1"}
	for _, text := range acked {
		if err := s.Append(t.Context(), message.Message{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	release := lockBounds(t, url)
	members := numbered(10, 8)
	firstDone, done := queueBehind(t, s, url, "first", members)

	// The first batch's backend goes, rolling it back; the next batch
	// takes every queued Append and waits for the bounds row in turn.
	terminateLockWaiters(t, url)
	expectOutage(t, "Append(first)", outcome(t, firstDone, "first"))
	waitForQueue(t, s, len(members), 0)
	waitForLockWaiters(t, url, 1)
	terminateLockWaiters(t, url)
	for i, d := range done {
		err := outcome(t, d, members[i])
		expectOutage(t, fmt.Sprintf("Append(%q)", members[i]), err)
		if i == 0 {
			t.Logf("a member of the lost batch: %v", err)
		}
	}
	release()
	if err := s.Append(t.Context(), message.Message{Text: "after"}); err != nil {
		t.Fatalf("Append after the outage: %v", err)
	}
	// Both batches rolled back with their backends: nothing of them is
	// stored, and nothing acknowledged is lost.
	if got, want := stored(t, s), append(slices.Clone(acked), "after"); !slices.Equal(got, want) {
		t.Errorf("stored %q, want %q", got, want)
	}
}

// TestOutageDuringABatchThroughTheNetwork cuts the network under a batch in
// flight and the Appends queued behind it: every one of them fails with an
// outage. The cut batch may still commit (its backend does not see the cut
// while it waits for the lock), so its members' messages are stored all or
// none, each at most once; what was acknowledged is kept.
func TestOutageDuringABatchThroughTheNetwork(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	proxy := startProxy(t, url)
	db := open(t, proxy.url(t, url), func(o *postgres.Options) {
		o.DataSource.QueryTimeout = 2 * time.Second
		o.DataSource.ConnectionTimeout = 500 * time.Millisecond
	})
	s := db.Messages()
	if err := s.Append(t.Context(), message.Message{Text: "acknowledged"}); err != nil {
		t.Fatal(err)
	}
	release := lockBounds(t, url)
	members := numbered(10, 8)
	firstDone, done := queueBehind(t, s, url, "first", members)
	proxy.set(proxyDown)
	expectOutage(t, "Append(first)", outcome(t, firstDone, "first"))
	for i, d := range done {
		expectOutage(t, fmt.Sprintf("Append(%q)", members[i]), outcome(t, d, members[i]))
	}
	proxy.set(proxyUp)
	release()
	// The cut batch's backend ends once it has run, before what follows.
	eventually(t, 10*time.Second, "the cut batch's backend ending", func() error {
		var active int
		query(t, url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'greeter' AND state <> 'idle'", &active)
		if active > 0 {
			return fmt.Errorf("%d backends of the service still busy", active)
		}
		return nil
	})
	eventually(t, 10*time.Second, "Append after the network came back", func() error {
		return s.Append(t.Context(), message.Message{Text: "after"})
	})
	got := stored(t, s)
	if got[0] != "acknowledged" || got[len(got)-1] != "after" {
		t.Fatalf("stored %q, want the acknowledged message first and the one appended after the cut last", got)
	}
	switch middle := got[1 : len(got)-1]; {
	case len(middle) == 0:
		t.Log("the cut batch rolled back")
	case slices.Equal(middle, []string{"first"}):
		t.Log("the cut batch committed")
	default:
		t.Errorf("stored between them %q, want nothing or the cut batch's one message, once", middle)
	}
}

// TestInFlightMemberLeaves checks that a caller who leaves once its
// message is in a batch in flight gets its context's error, and that the
// batch goes on for the other members and commits its message too.
func TestInFlightMemberLeaves(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	s := db.Messages()
	release := lockBounds(t, url)
	// A first batch, then one of two members that waits for the row.
	firstDone := appendAsync(t.Context(), s, "first")
	waitForQueue(t, s, 1, 0)
	waitForLockWaiters(t, url, 1)
	ctx, cancel := context.WithCancel(t.Context())
	leaving := appendAsync(ctx, s, "left")
	waitForQueue(t, s, 1, 1)
	staying := appendAsync(t.Context(), s, "stayed")
	waitForQueue(t, s, 1, 2)
	terminateLockWaiters(t, url)
	expectOutage(t, "Append(first)", outcome(t, firstDone, "first"))
	waitForQueue(t, s, 2, 0)
	waitForLockWaiters(t, url, 1)

	cancel()
	err := outcome(t, leaving, "left")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "may or may not be stored") {
		t.Errorf("Append(left) cancelled in flight: got %v, want context.Canceled saying the outcome is unknown", err)
	}
	release()
	if err := outcome(t, staying, "stayed"); err != nil {
		t.Errorf("Append(stayed), in the batch of a caller who left: %v", err)
	}
	if got, want := stored(t, s), []string{"left", "stayed"}; !slices.Equal(got, want) {
		t.Errorf("stored %q, want %q: the batch committed", got, want)
	}
}

// TestCloseWithAppendsQueued closes the DB while a batch is in flight and
// Appends wait behind it: those fail at once, not appended, the batch in
// flight ends with its outcome, and no goroutine of the store is left.
func TestCloseWithAppendsQueued(t *testing.T) {
	// Not parallel: it looks for the appender among every goroutine's stack.
	url := enginetest.Postgres(t)
	db, err := postgres.Open(t.Context(), postgres.Options{DataSource: datasource.Options{URL: url}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close) // again: Close may be called twice
	s := db.Messages()
	release := lockBounds(t, url)
	members := numbered(5, 8)
	firstDone, done := queueBehind(t, s, url, "first", members)

	closed := make(chan struct{})
	go func() {
		db.Close()
		close(closed)
	}()
	for i, d := range done {
		err := outcome(t, d, members[i])
		if err == nil || !strings.Contains(err.Error(), "the store is closed") {
			t.Errorf("Append(%q) queued when the DB closed: got %v, want an error saying the store is closed", members[i], err)
		}
	}
	select {
	case <-closed:
		t.Fatal("Close returned while a batch was in flight")
	default:
	}
	if err := s.Append(t.Context(), message.Message{Text: "late"}); err == nil || !strings.Contains(err.Error(), "the store is closed") {
		t.Errorf("Append after Close: got %v, want an error saying the store is closed", err)
	}
	release()
	if err := outcome(t, firstDone, "first"); err != nil {
		t.Errorf("Append(first), in flight when the DB closed: %v", err)
	}
	<-closed
	buf := make([]byte, 1<<20)
	if stacks := string(buf[:runtime.Stack(buf, true)]); strings.Contains(stacks, "postgres.(*appender)") {
		t.Errorf("a goroutine of the appender outlived Close:\n%s", stacks)
	}
	conn := connect(t, url)
	rows, err := conn.Query(t.Context(), "SELECT convert_from(text, 'UTF8') FROM greeter_messages ORDER BY page_id, slot")
	if err != nil {
		t.Fatal(err)
	}
	texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || !slices.Equal(texts, []string{"first"}) {
		t.Errorf("stored %q, %v; want only the batch in flight when the DB closed", texts, err)
	}
}

// TestTwoInstancesAppendInBatches appends from many writers spread over
// two instances: every message is stored once, each writer's in its
// order, and the instances sent fewer batches than messages.
func TestTwoInstancesAppendInBatches(t *testing.T) {
	t.Parallel()
	a, url := fresh(t)
	b := open(t, url)
	const writers, each = 64, 40
	messagetest.ConcurrentAppends(t, writers, each, a.Messages(), b.Messages())
	batches := postgres.AppendBatches(a.Messages()) + postgres.AppendBatches(b.Messages())
	t.Logf("%d appends in %d batches", writers*each, batches)
	if batches >= writers*each {
		t.Errorf("%d appends were sent in %d batches: none formed", writers*each, batches)
	}
}

// TestAppendMessagesArrays calls greeter_append_messages with the arrays
// that the store never sends, as another client of the database might.
func TestAppendMessagesArrays(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	setPageSize(t, url, 2)
	if err := db.Messages().Append(t.Context(), message.Message{Text: "a"}); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, url)
	ctx := t.Context()
	want := []string{"a"}
	for _, c := range []struct {
		array string
		adds  []string // nil: refused
	}{
		{"'{}'::bytea[]", []string{}},
		{"NULL::bytea[]", []string{}},
		{"'{b,c,d,e}'::bytea[]", []string{"b", "c", "d", "e"}},
		{"'[5:7]={f,g,h}'::bytea[]", []string{"f", "g", "h"}}, // not numbered from 1
		{"'{{i},{j}}'::bytea[]", nil},
		{"ARRAY['k'::bytea, NULL]", nil},
	} {
		_, err := conn.Exec(ctx, "SELECT greeter_append_messages("+c.array+")")
		switch {
		case c.adds == nil && err == nil:
			t.Errorf("%s: accepted, want a refusal", c.array)
		case c.adds != nil && err != nil:
			t.Errorf("%s: %v", c.array, err)
		}
		want = append(want, c.adds...)
		if err := checkLayout(ctx, conn, 2, want); err != nil {
			t.Fatalf("after %s: %v", c.array, err)
		}
	}
}

// TestAppendMessagesAdmitsInOrder checks that a batch admits each message
// iff it fits at its turn, as Appends one after another would: a smaller
// message after a refused one may fit.
func TestAppendMessagesAdmitsInOrder(t *testing.T) {
	t.Parallel()
	_, url := fresh(t)
	var n, bytes int64
	var refused []int32
	query(t, url, "SELECT len, size, refused FROM greeter_append_messages('{aaaa, bbbbbbbbb, cc, d, e}'::bytea[], 3, 10)", &n, &bytes, &refused)
	if n != 0 || bytes != 0 || !slices.Equal(refused, []int32{1, 4}) {
		t.Errorf("greeter_append_messages = %d, %d, %v; want 0, 0, [1 4]", n, bytes, refused)
	}
	if err := checkLayout(t.Context(), connect(t, url), 1024, []string{"aaaa", "cc", "d"}); err != nil {
		t.Error(err)
	}
}
