package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/messagestore/postgres"
)

// operations are every call a DB answers, for checking that each fails
// the same way.
func operations(db *postgres.DB) []struct {
	name string
	do   func(context.Context) error
} {
	s := db.Messages()
	return []struct {
		name string
		do   func(context.Context) error
	}{
		{"Append", func(ctx context.Context) error { return s.Append(ctx, message.Message{Text: "x"}) }},
		{"Get", func(ctx context.Context) error { _, err := s.Get(ctx, 0); return err }},
		{"Replace", func(ctx context.Context) error { return s.Replace(ctx, 1, message.Message{Text: "y"}) }},
		{"Remove", func(ctx context.Context) error { return s.Remove(ctx, 1) }},
		{"List", func(ctx context.Context) error { _, err := message.All(ctx, s); return err }},
		{"Ping", db.Pool().Ping},
	}
}

// expectOutage checks that err wraps an *outage.Error of PostgreSQL.
func expectOutage(t *testing.T, what string, err error) {
	t.Helper()
	var o *outage.Error
	if !errors.As(err, &o) || o.Dependency != "PostgreSQL" {
		t.Errorf("%s: got %v, want an outage of PostgreSQL", what, err)
	}
}

func TestOutageAndRecovery(t *testing.T) {
	// Not parallel: it times each failure against the timeout.
	url := enginetest.Postgres(t)
	proxy := startProxy(t, url)
	const timeout = time.Second
	db := open(t, proxy.url(t, url), func(o *postgres.Options) {
		o.DataSource.QueryTimeout = timeout
		o.DataSource.ConnectionTimeout = 500 * time.Millisecond
	})
	s := db.Messages()
	if err := s.Append(t.Context(), message.Message{Text: "kept"}); err != nil {
		t.Fatal(err)
	}

	for _, fault := range []struct {
		name string
		mode proxyMode
	}{
		{"server gone", proxyDown},
		{"network silent", proxyBlackhole},
	} {
		t.Run(fault.name, func(t *testing.T) {
			proxy.set(fault.mode)
			for _, op := range operations(db) {
				start := time.Now()
				err := op.do(t.Context())
				expectOutage(t, op.name, err)
				t.Logf("%s failed after %v: %v", op.name, time.Since(start).Round(time.Millisecond), err)
				// Had the timeouts set not bounded it (waiting for a
				// connection and dialing one included), it would have
				// taken at least the default timeout, however idle the
				// machine: under that, a busy machine has 4s to spare.
				if elapsed := time.Since(start); elapsed >= datasource.DefaultQueryTimeout {
					t.Errorf("%s took %v, want about the timeout, %v, and less than the default, %v", op.name, elapsed, timeout, datasource.DefaultQueryTimeout)
				}
			}
			proxy.set(proxyUp)
			// The pool dials again by itself: no reopening.
			eventually(t, 10*time.Second, "Ping after the server came back", func() error { return db.Pool().Ping(t.Context()) })
			for _, op := range operations(db) {
				if err := op.do(t.Context()); err != nil {
					t.Errorf("%s after the server came back: %v", op.name, err)
				}
			}
		})
	}
	// Nothing reached the server during the faults, and each round of
	// operations after them appended a message and removed it.
	all, err := message.All(t.Context(), s)
	if err != nil || len(all) != 1 || all[0].Text != "kept" {
		t.Errorf("All = %v, %v; want only the message appended before the faults", all, err)
	}
}

// TestConnectionCutUnderLoad cuts every connection of the database
// several times while goroutines append, as a server restart would.
func TestConnectionCutUnderLoad(t *testing.T) {
	// Not parallel: it makes a load of its own, which others would skew.
	db, url := fresh(t)
	s := db.Messages()
	const writers = 8
	var (
		acked    [writers][]int // the appends that returned nil, per writer
		failed   atomic.Int64
		progress atomic.Int64
		stop     atomic.Bool
		wg       sync.WaitGroup
	)
	for w := range writers {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				err := s.Append(t.Context(), message.Message{Text: fmt.Sprintf("%d/%d", w, i)})
				if err != nil {
					expectOutage(t, "Append during a cut", err)
					failed.Add(1)
					continue
				}
				acked[w] = append(acked[w], i)
				progress.Add(1)
			}
		})
	}
	const cuts = 3
	for range cuts {
		before := progress.Load()
		eventually(t, 20*time.Second, "appends going on", func() error {
			if n := progress.Load() - before; n < 200 {
				return fmt.Errorf("%d appends since the last cut", n)
			}
			return nil
		})
		if n := enginetest.TerminateBackends(t, url); n == 0 {
			t.Error("TerminateBackends found no connection to cut")
		}
	}
	before := progress.Load()
	eventually(t, 20*time.Second, "appends after the last cut", func() error {
		if n := progress.Load() - before; n < 200 {
			return fmt.Errorf("%d appends since the last cut", n)
		}
		return nil
	})
	stop.Store(true)
	wg.Wait()
	t.Logf("%d appends acknowledged, %d failed during %d cuts", progress.Load(), failed.Load(), cuts)
	if failed.Load() == 0 {
		t.Error("no append failed while connections were cut: the test cut nothing in use")
	}

	// Every acknowledged append is stored once, in its writer's order; an
	// append that failed may or may not have been stored (it may have
	// committed before its connection was cut), but at most once.
	all, err := message.All(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	stored := make([][]int, writers)
	for _, m := range all {
		var w, i int
		if _, err := fmt.Sscanf(m.Text, "%d/%d", &w, &i); err != nil {
			t.Fatalf("unexpected message %q", m.Text)
		}
		if k := len(stored[w]); k > 0 && stored[w][k-1] >= i {
			t.Fatalf("writer %d: %d stored after %d", w, i, stored[w][k-1])
		}
		stored[w] = append(stored[w], i)
	}
	for w := range writers {
		have := map[int]bool{}
		for _, i := range stored[w] {
			have[i] = true
		}
		for _, i := range acked[w] {
			if !have[i] {
				t.Errorf("writer %d: acknowledged append %d was lost", w, i)
			}
		}
	}
}
