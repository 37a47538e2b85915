package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/messagestore/postgres"
)

// scaleVar enables TestMillionMessages, which takes a few minutes and a
// gigabyte of disk, so it is not part of the normal run.
const scaleVar = "GREETER_TEST_POSTGRES_MILLION"

// indexStore is what TestMillionMessages measures of both the store and
// its version 1 reference.
type indexStore interface {
	Append(ctx context.Context, m message.Message) error
	Get(ctx context.Context, index int64) (message.Message, error)
	Replace(ctx context.Context, index int64, m message.Message) error
	Remove(ctx context.Context, index int64) error
}

// TestMillionMessages measures the store at one million messages, beside
// the store of version 1 of the schema on a database of its own: it times
// the migration of a million messages of version 1 to pages, then runs
// each operation on both, alternating, so that a drift in the machine's
// load weighs on both alike. Get and Replace should cost about what they
// did (two index lookups instead of one), and Remove milliseconds where
// version 1 took seconds.
//
//	GREETER_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres \
//	GREETER_TEST_POSTGRES_MILLION=1 go test -run MillionMessages -v -timeout 30m ./postgres/
func TestMillionMessages(t *testing.T) {
	// Not parallel: it writes a million rows, timed.
	if os.Getenv(scaleVar) == "" {
		t.Skipf("set %s=1 (and the engine's variable) to measure the store at one million messages", scaleVar)
	}
	const n = 1_000_000
	ctx := t.Context()
	refURL, url := enginetest.Postgres(t), enginetest.Postgres(t)
	for _, u := range []string{refURL, url} {
		start := time.Now()
		if err := postgres.MigrateTo(ctx, u, 1); err != nil {
			t.Fatal(err)
		}
		query(t, u, fmt.Sprintf("INSERT INTO greeter_messages (position, text) SELECT g, 'message number ' || g FROM generate_series(0, %d) g", n-1))
		query(t, u, fmt.Sprintf("UPDATE greeter_message_bounds SET n = %d", n))
		query(t, u, "VACUUM ANALYZE greeter_messages")
		t.Logf("inserted %d messages in version 1 of the schema in %v", n, time.Since(start).Round(time.Millisecond))
	}
	start := time.Now()
	if err := postgres.MigrateTo(ctx, url, 2); err != nil {
		t.Fatal(err)
	}
	t.Logf("migrated %d messages from version 1 to pages in %v", n, time.Since(start).Round(time.Millisecond))
	query(t, url, "VACUUM ANALYZE greeter_messages, greeter_message_pages")
	var pages int64
	query(t, url, "SELECT count(*) FROM greeter_message_pages", &pages)
	t.Logf("%d pages of at most 1024 messages", pages)

	db := open(t, url, func(o *postgres.Options) { o.DataSource.QueryTimeout = 10 * time.Minute })
	ref, paged := openVersion1(t, refURL), db.Messages()
	refLen, pagedLen := int64(n), int64(n)

	// both returns a call of do on the reference and one on the store.
	both := func(name string, do func(s indexStore, length *int64) error) (*call, *call) {
		return &call{name: name, do: func() error { return do(ref, &refLen) }},
			&call{name: name, do: func() error { return do(paged, &pagedLen) }}
	}
	get := func(i int64) func(indexStore, *int64) error {
		return func(s indexStore, _ *int64) error { _, err := s.Get(ctx, i); return err }
	}
	replace := func(i int64) func(indexStore, *int64) error {
		return func(s indexStore, _ *int64) error { return s.Replace(ctx, i, message.Message{Text: "replaced"}) }
	}
	appendOne := func(s indexStore, length *int64) error {
		*length++
		return s.Append(ctx, message.Message{Text: "appended"})
	}
	// removeAt removes the message at the index that at gives for the
	// length of the moment.
	removeAt := func(at func(length int64) int64) func(indexStore, *int64) error {
		return func(s indexStore, length *int64) error {
			i := at(*length)
			*length--
			return s.Remove(ctx, i)
		}
	}

	// Between groups of calls, both databases are vacuumed, as autovacuum
	// would do (the project's machine runs PostgreSQL with it off): every
	// Remove leaves behind the row versions it replaced, which later
	// statements would otherwise step over.
	vacuum := func() {
		query(t, refURL, "VACUUM greeter_messages, greeter_message_bounds")
		query(t, url, "VACUUM greeter_messages, greeter_message_pages, greeter_message_bounds")
	}

	const runs = 201
	for _, group := range [][]struct {
		name string
		do   func(indexStore, *int64) error
	}{
		{{"Get(0)", get(0)}, {"Get(999999)", get(n - 1)}, {"Get(500000)", get(n / 2)}},
		{{"Replace(0)", replace(0)}, {"Replace(999999)", replace(n - 1)}},
		{{"Append", appendOne}},
		{
			{"Remove(0)", removeAt(func(int64) int64 { return 0 })},
			{"Remove(1)", removeAt(func(int64) int64 { return 1 })},
			{"Remove(last)", removeAt(func(length int64) int64 { return length - 1 })},
		},
	} {
		vacuum()
		var calls []*call
		for _, c := range group {
			before, after := both(c.name, c.do)
			calls = append(calls, before, after)
		}
		alternate(t, runs, calls...)
		for k := 0; k < len(calls); k += 2 {
			compare(t, calls[k], calls[k+1])
		}
	}

	// In the middle version 1 moves a quarter or half of the collection,
	// seconds a call: three calls of it, against many of the pages,
	// whose dearest removal is the first (every page start moves).
	var middle []*call
	for _, at := range []struct {
		name string
		at   func(length int64) int64
	}{
		{"Remove(n/4)", func(length int64) int64 { return length / 4 }},
		{"Remove(n/2)", func(length int64) int64 { return length / 2 }},
	} {
		before, after := both(at.name, removeAt(at.at))
		vacuum()
		alternate(t, 3, before)
		middle = append(middle, before, after)
	}
	vacuum()
	alternate(t, runs, middle[1], middle[3])
	compare(t, middle[0], middle[1])
	compare(t, middle[2], middle[3])

	// Anywhere: pages merge as removals empty them.
	rng := rand.New(rand.NewPCG(1, 2))
	anywhere := &call{name: "Remove(random)", do: func() error {
		return removeAt(func(length int64) int64 { return rng.Int64N(length) })(paged, &pagedLen)
	}}
	vacuum()
	alternate(t, 1001, anywhere)
	t.Logf("%-16s pages: median %9v p90 %9v max %9v (%d runs)", anywhere.name,
		median(anywhere.took), percentile(anywhere.took, 0.9), percentile(anywhere.took, 1), len(anywhere.took))
	query(t, url, "SELECT count(*) FROM greeter_message_pages", &pages)
	t.Logf("%d messages in %d pages after the removals", pagedLen, pages)
}

// call is one operation that TestMillionMessages times, and its times.
type call struct {
	name string
	do   func() error
	took []time.Duration
}

// alternate makes every call runs times, in turn.
func alternate(t *testing.T, runs int, calls ...*call) {
	t.Helper()
	for range runs {
		for _, c := range calls {
			began := time.Now()
			if err := c.do(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			c.took = append(c.took, time.Since(began))
		}
	}
}

// compare logs the times of the same operation on version 1 and on pages.
func compare(t *testing.T, before, after *call) {
	t.Helper()
	b, a := median(before.took), median(after.took)
	t.Logf("%-16s version 1: median %9v (%d runs) | pages: median %9v p90 %9v max %9v (%d runs) | %.3f×",
		after.name, b, len(before.took), a, percentile(after.took, 0.9), percentile(after.took, 1), len(after.took),
		float64(a)/float64(b))
}

func median(d []time.Duration) time.Duration { return percentile(d, 0.5) }

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)].Round(time.Microsecond)
}
