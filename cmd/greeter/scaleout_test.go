package main

// Two instances on one PostgreSQL database and one Redis: they must agree
// on every message and every session, whichever of them a client reaches,
// across restarts and while one of them stops.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestInstancesAgreeOnMessages sends a few thousand POSTs from concurrent
// clients, each alternating between the two instances, and checks that
// both then list the same messages, each exactly once, each client's in
// the order it sent them.
func TestInstancesAgreeOnMessages(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	a, b := start(t, e.args(), nil), start(t, e.args(), nil)
	const clients, each = 8, 300
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Go(func() {
			for i := range each {
				base := []string{a.base, b.base}[(c+i)%2]
				if status, err := post(base, label(c, i)); err != nil || status != 201 {
					errs <- fmt.Errorf("client %d, message %d: %d %v", c, i, status, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	fromA, fromB := texts(t, a.base), texts(t, b.base)
	if !slices.Equal(fromA, fromB) {
		t.Fatalf("the instances disagree: %d messages on one, %d on the other", len(fromA), len(fromB))
	}
	if len(fromA) != clients*each {
		t.Fatalf("%d messages stored, want %d", len(fromA), clients*each)
	}
	next := make([]int, clients) // each client's next expected message
	for _, text := range fromA {
		var c, i int
		if _, err := fmt.Sscanf(text, "client-%d-%d", &c, &i); err != nil {
			t.Fatalf("unexpected message %q", text)
		}
		if i != next[c] {
			t.Fatalf("client %d: message %d is listed where %d should be: its order was not kept", c, i, next[c])
		}
		next[c]++
	}
}

// TestInstancesRemoveAndReplaceAtomically sends DELETEs and PUTs by index
// to both instances at once. Deleting index 0 k times, in any order and
// on any instance, must leave exactly the messages after the first k; and
// PUTs racing with such DELETEs must each land on one message, leaving
// the untouched ones in their order.
func TestInstancesRemoveAndReplaceAtomically(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	a, b := start(t, e.args(), nil), start(t, e.args(), nil)
	bases := []string{a.base, b.base}
	const n = 200
	originals := make([]string, n)
	for i := range n {
		originals[i] = fmt.Sprintf("m%03d", i)
		if status, err := post(a.base, originals[i]); err != nil || status != 201 {
			t.Fatalf("seeding: %d %v", status, err)
		}
	}

	concurrently := func(ops []func(base string) (int, error)) {
		t.Helper()
		var wg sync.WaitGroup
		statuses := make([]int, len(ops))
		for i, op := range ops {
			wg.Go(func() {
				status, err := op(bases[i%2])
				if err != nil {
					t.Errorf("op %d: %v", i, err)
				}
				statuses[i] = status
			})
		}
		wg.Wait()
		for i, s := range statuses {
			if s != 204 {
				t.Errorf("op %d answered %d, want 204", i, s)
			}
		}
	}
	remove := func(base string) (int, error) {
		status, _, err := send("DELETE", base+"/api/messages/0")
		return status, err
	}

	// 120 removals of the first message.
	ops := make([]func(string) (int, error), 120)
	for i := range ops {
		ops[i] = remove
	}
	concurrently(ops)
	want := originals[120:]
	for _, base := range bases {
		if got := texts(t, base); !slices.Equal(got, want) {
			t.Fatalf("after 120 concurrent removals of index 0, %s lists %d messages:\n%q\nwant %q", base, len(got), got, want)
		}
	}

	// 40 more removals, racing with 40 replacements of indexes 0 to 39:
	// the list ends with 40 messages, every index valid throughout.
	ops = ops[:0]
	for i := range 40 {
		ops = append(ops, remove, func(base string) (int, error) {
			return putText(base, i, fmt.Sprintf("put%02d", i))
		})
	}
	concurrently(ops)
	got := texts(t, a.base)
	if !slices.Equal(got, texts(t, b.base)) {
		t.Fatal("the instances disagree after the race")
	}
	if len(got) != 40 {
		t.Fatalf("%d messages left, want 40: %q", len(got), got)
	}
	// A serial replay keeps the untouched originals in their order, and
	// puts each replacement on one message at most.
	var kept []string
	for text, count := range countOf(got) {
		if count > 1 {
			t.Errorf("%q appears %d times", text, count)
		}
	}
	for _, text := range got {
		switch {
		case strings.HasPrefix(text, "put"):
		case slices.Contains(originals[120:], text):
			kept = append(kept, text)
		default:
			t.Errorf("unexpected message %q", text)
		}
	}
	if !slices.IsSorted(kept) {
		t.Errorf("the untouched messages are out of order: %q", kept)
	}
}

// putText replaces the message at index with text.
func putText(base string, index int, text string) (int, error) {
	req, err := http.NewRequest("PUT", fmt.Sprintf("%s/api/messages/%d", base, index), strings.NewReader(`{"text":"`+text+`"}`))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestSessionsAreSharedAndSurviveRestarts: under app.number.scope=session,
// a client's session cookie gives the same number on either instance, and
// after both have restarted.
func TestSessionsAreSharedAndSurviveRestarts(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	args := append(e.args(), "--app.number.scope=session")
	a, b := start(t, args, nil), start(t, args, nil)
	jar, _ := cookiejar.New(nil) // cookies ignore ports: one jar serves both
	browser := &http.Client{Jar: jar}
	valA := func(s *service) string {
		t.Helper()
		r := s.doWith(t, browser, "GET", "/api/number/val-a", "")
		if r.status != 200 {
			t.Fatalf("val-a on %s: %d %s", s.base, r.status, r.body)
		}
		return r.body
	}
	first := valA(a)
	if got := valA(b); got != first {
		t.Fatalf("the other instance gives %s for the session, the first gave %s", got, first)
	}
	if r := b.doWith(t, browser, "GET", "/api/number/val-b", ""); r.body != first {
		t.Errorf("val-b in the same session: %s, want %s", r.body, first)
	}
	if other := valA(a); other != first {
		t.Fatalf("the first instance changed its answer: %s, then %s", first, other)
	}

	// Another client gets a session, and a number, of its own.
	if r := a.do(t, "GET", "/api/number/val-a", ""); r.header.Get("Set-Cookie") == "" {
		t.Error("a client without a cookie got no session")
	}

	for _, s := range []*service{a, b} {
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	restarted := start(t, args, nil)
	if got := valA(restarted); got != first {
		t.Errorf("after a restart of both instances the session gives %s, want %s", got, first)
	}
}

// TestMessagesSurviveARestart stops the only instance and starts another
// on the same database.
func TestMessagesSurviveARestart(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	first := start(t, e.args(), nil)
	for _, text := range []string{"one", "two", "three"} {
		if r := first.do(t, "POST", "/api/messages", `{"text":"`+text+`"}`, "Content-Type: application/json"); r.status != 201 {
			t.Fatalf("POST: %d %s", r.status, r.body)
		}
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	second := start(t, e.args(), nil)
	if got := texts(t, second.base); !slices.Equal(got, []string{"one", "two", "three"}) {
		t.Errorf("after the restart: %q", got)
	}
}

// TestOneInstanceStopsUnderLoad sends SIGTERM to one of two instances
// while clients post to both: the other keeps serving, and every POST
// that was acknowledged, by either, is stored once.
func TestOneInstanceStopsUnderLoad(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	a, b := startProcess(t, e.args()...), startProcess(t, e.args()...)
	load := startPostLoad(6, func(c, i int) string { return []string{a.base, b.base}[(c+i)%2] })
	waitFor(t, "300 acknowledged POSTs", func() bool { return load.acknowledged("") >= 300 })
	a.Signal(t, syscall.SIGTERM)
	if err := a.Wait(t); err != nil {
		t.Errorf("the stopped instance exited with %v", err)
	}
	before := load.acknowledged(b.base)
	waitFor(t, "the other instance to acknowledge 200 more", func() bool { return load.acknowledged(b.base) >= before+200 })
	load.finish()
	for base, statuses := range load.statuses {
		for status, n := range statuses {
			if status != 0 && status != 201 && status != 503 {
				t.Errorf("%d POSTs to %s answered %d", n, base, status)
			}
		}
	}
	checkAcknowledgedOnce(t, texts(t, b.base), load.acked, load.sent)
	a.WaitForLog(t, regexp.MustCompile(`msg=stopped`))
}

// TestChangedMigrationStopsStartUp: a database whose history does not
// match the migrations (here V3's checksum, as if its file had been
// edited after it was applied) is left alone, and start-up stops saying
// why, as Flyway's validate-on-migrate does.
func TestChangedMigrationStopsStartUp(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	first := start(t, e.args(), nil)
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(context.Background(), e.databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '3'"); err != nil {
		t.Fatal(err)
	}
	stderr, err := boottest.FailToStart(t, greeter(), append([]string{"--server.port=0"}, e.args()...), nil)
	if err == nil {
		t.Fatal("the service started against a history that does not match its migrations")
	}
	for _, want := range []string{"Property: app.datasource.url", "Migration checksum mismatch for migration version 3 (classpath:db/migration/V3__append_batches.sql)",
		"Action:\n\nRevert the changed migrations to what the database applied, or record the new ones with Flyway's repair"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the report lacks %q:\n%s", want, stderr)
		}
	}
	// The database was reached: the report does not send the reader to
	// check that it runs.
	if strings.Contains(stderr, "can be reached") {
		t.Errorf("the report's action is about reaching the engine:\n%s", stderr)
	}
}
