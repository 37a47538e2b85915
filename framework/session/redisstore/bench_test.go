package redisstore_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/springport/greeter/framework/session/redisstore"
)

// BenchmarkSessionRoundTrip is what one request of a session-scoped
// component costs against the real Redis: a session created, a state
// saved into it and loaded back, three round trips.
func BenchmarkSessionRoundTrip(b *testing.B) {
	s := open(b, redisstore.Options{IdleTimeout: time.Hour})
	ctx := b.Context()
	state := bytes.Repeat([]byte("n"), 64)
	b.ReportAllocs()
	for b.Loop() {
		id, err := s.Create(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.SaveState(ctx, id, "number", state); err != nil {
			b.Fatal(err)
		}
		if _, ok, err := s.LoadState(ctx, id, "number"); err != nil || !ok {
			b.Fatalf("LoadState: %t, %v", ok, err)
		}
	}
}
