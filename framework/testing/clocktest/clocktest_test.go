package clocktest

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	c := New()
	start := c.Now()
	if again := c.Now(); !again.Equal(start) {
		t.Errorf("the clock moved by itself: %v, then %v", start, again)
	}
	c.Advance(90 * time.Second)
	if got := c.Now().Sub(start); got != 90*time.Second {
		t.Errorf("after Advance(90s) the clock moved %v", got)
	}
}
