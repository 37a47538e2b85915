package postgres_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/postgres"
)

// scaleVar enables TestMillionMessages, which takes a minute or two and a
// few hundred megabytes of disk, so it is not part of the normal run.
const scaleVar = "GREETER_TEST_POSTGRES_MILLION"

// TestMillionMessages measures the store at one million messages: Get and
// Replace at the first and the last position should cost the same (an
// index lookup), and Remove costs what it renumbers.
//
//	GREETER_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres \
//	GREETER_TEST_POSTGRES_MILLION=1 go test -run MillionMessages -v ./postgres/
func TestMillionMessages(t *testing.T) {
	if os.Getenv(scaleVar) == "" {
		t.Skipf("set %s=1 (and the engine's variable) to measure the store at one million messages", scaleVar)
	}
	_, url := fresh(t)
	db := open(t, url, func(o *postgres.Options) { o.Timeout = 10 * time.Minute })
	s := db.Messages()
	const n = 1_000_000
	start := time.Now()
	query(t, url, fmt.Sprintf("INSERT INTO greeter_messages (position, text) SELECT g, 'message number ' || g FROM generate_series(0, %d) g", n-1))
	query(t, url, fmt.Sprintf("UPDATE greeter_message_bounds SET n = %d", n))
	query(t, url, "VACUUM ANALYZE greeter_messages")
	t.Logf("inserted %d messages in %v", n, time.Since(start).Round(time.Millisecond))
	ctx := t.Context()

	// Operations at both ends alternate, so that a drift in the machine's
	// load weighs on both alike.
	const runs = 201
	type timed struct {
		name string
		op   func() error
		took []time.Duration
	}
	measure := func(ops ...*timed) {
		for range runs {
			for _, o := range ops {
				began := time.Now()
				if err := o.op(); err != nil {
					t.Fatalf("%s: %v", o.name, err)
				}
				o.took = append(o.took, time.Since(began))
			}
		}
		for _, o := range ops {
			t.Logf("%-22s median %8v  p90 %8v  (%d runs)", o.name, median(o.took), percentile(o.took, 0.9), len(o.took))
		}
	}
	get := func(i int64) func() error { return func() error { _, err := s.Get(ctx, i); return err } }
	replace := func(i int64) func() error {
		return func() error { return s.Replace(ctx, i, message.Message{Text: "replaced"}) }
	}
	measure(
		&timed{name: "Get(0)", op: get(0)},
		&timed{name: "Get(999999)", op: get(n - 1)},
		&timed{name: "Get(500000)", op: get(n / 2)},
	)
	measure(
		&timed{name: "Replace(0)", op: replace(0)},
		&timed{name: "Replace(999999)", op: replace(n - 1)},
	)
	measure(&timed{name: "Append", op: func() error { return s.Append(ctx, message.Message{Text: "appended"}) }})

	// Removing at either end moves nothing; one position in, one row.
	var length int64 = n + runs
	removeAt := func(at func() int64) func() error {
		return func() error {
			err := s.Remove(ctx, at())
			length--
			return err
		}
	}
	measure(&timed{name: "Remove(0)", op: removeAt(func() int64 { return 0 })})
	measure(&timed{name: "Remove(last)", op: removeAt(func() int64 { return length - 1 })})
	measure(&timed{name: "Remove(1)", op: removeAt(func() int64 { return 1 })})
	// Elsewhere, the shorter side of the gap moves: half the collection
	// in the middle.
	for _, at := range []struct {
		name string
		at   func() int64
	}{
		{"Remove(n/4)", func() int64 { return length / 4 }},
		{"Remove(n/2)", func() int64 { return length / 2 }},
	} {
		var took []time.Duration
		var i int64
		for range 3 {
			i = at.at()
			began := time.Now()
			if err := removeAt(func() int64 { return i })(); err != nil {
				t.Fatalf("%s: %v", at.name, err)
			}
			took = append(took, time.Since(began))
		}
		t.Logf("%-22s median %8v  (3 runs: %v), moving %d rows", at.name, median(took), took, min(i, length-i))
	}
}

func median(d []time.Duration) time.Duration { return percentile(d, 0.5) }

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)].Round(time.Microsecond)
}
