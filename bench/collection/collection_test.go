package collection

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/testing/heaptest"
	"github.com/springport/greeter/messagestore/inmem"
)

// heldBudget is the target for one million 20-byte messages.
const heldBudget = 80 << 20

// text returns a distinct 20-byte text in its own allocation, as a decoded
// request body gives the store.
func text(i int) string {
	return fmt.Sprintf("message %012d", i)
}

// TestMillionMessagesHeld appends one million 20-byte messages to an
// inmem.Messages and measures the growth of the heap in use
// (runtime.MemStats.HeapInuse after a GC), texts included. bench/run reads
// the "held:" line.
func TestMillionMessagesHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("appends a million messages")
	}
	const n = 1_000_000
	if len(text(n-1)) != 20 {
		t.Fatalf("texts are %d bytes, want 20", len(text(n-1)))
	}
	before := heaptest.Live()
	c := &inmem.Messages{}
	for i := range n {
		c.Append(context.Background(), message.Message{Text: text(i)})
	}
	after := heaptest.Live()
	if c.Len() != n {
		t.Fatalf("%d messages held, want %d", c.Len(), n)
	}
	held := int64(after) - int64(before)
	runtime.KeepAlive(c)
	t.Logf("held: %d bytes (%.1f MiB) for %d messages of 20 bytes, %.1f bytes each", held, float64(held)/(1<<20), n, float64(held)/n)
	if held >= heldBudget {
		t.Errorf("%d messages hold %.1f MiB of heap, want under %d MiB", n, float64(held)/(1<<20), heldBudget>>20)
	}
}

// filled returns a store of n messages.
func filled(n int) *inmem.Messages {
	c := &inmem.Messages{}
	for i := range n {
		c.Append(context.Background(), message.Message{Text: text(i)})
	}
	return c
}

// BenchmarkIndex reads and replaces the message in the middle of
// stores of 1e3 and 1e6 messages; the per-operation cost should not
// depend on the size.
func BenchmarkIndex(b *testing.B) {
	replacement := message.Message{Text: text(-1)}
	for _, n := range []int{1_000, 1_000_000} {
		c := filled(n)
		mid := int64(n / 2)
		b.Run(fmt.Sprintf("op=get/size=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Get(context.Background(), mid); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("op=replace/size=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Replace(context.Background(), mid, replacement); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
