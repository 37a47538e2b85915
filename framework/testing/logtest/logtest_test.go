package logtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWrites writes from many goroutines while reading: under
// the race detector this fails if Buffer is not safe for that, and every
// write must be whole in the result.
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				fmt.Fprintf(&b, "g%d-%d\n", g, i)
				_ = b.String()
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 800 {
		t.Fatalf("%d lines written, want 800", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		var g, i int
		if _, err := fmt.Sscanf(l, "g%d-%d", &g, &i); err != nil || seen[l] {
			t.Fatalf("line %q is torn or repeated", l)
		}
		seen[l] = true
	}
}
