// Package clocktest gives tests a clock that moves only when they move it,
// for code that takes its time from a Now func. Only tests import it.
package clocktest

import (
	"sync"
	"time"
)

// Clock is a fake clock that is safe for concurrent use: Now returns the
// time it was started at, plus every Advance since.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a clock that reads 2025-01-02 03:04:05 UTC.
func New() *Clock {
	return &Clock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
