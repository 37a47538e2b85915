package polltest

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCheckReturnsOnceTheCheckPasses(t *testing.T) {
	t.Parallel()
	var tries atomic.Int32
	err := Check(Timeout, func() error {
		if tries.Add(1) < 4 {
			return errors.New("not yet")
		}
		return nil
	})
	if err != nil || tries.Load() != 4 {
		t.Errorf("Check: %v after %d tries, want nil after 4", err, tries.Load())
	}
}

func TestCheckGivesUpWithTheLastError(t *testing.T) {
	t.Parallel()
	n := 0
	err := Check(30*time.Millisecond, func() error {
		n++
		return errors.New("try " + strings.Repeat("I", n))
	})
	if err == nil || !strings.HasSuffix(err.Error(), ": try "+strings.Repeat("I", n)) || n < 2 {
		t.Errorf("Check: %v after %d tries, want the last try's error, after more than one", err, n)
	}
}

func TestPoll(t *testing.T) {
	t.Parallel()
	if Poll(10*time.Millisecond, func() bool { return false }) {
		t.Errorf("Poll of a condition that never holds reported it held")
	}
	start := time.Now()
	if !Poll(Timeout, func() bool { return time.Since(start) > 5*time.Millisecond }) {
		t.Errorf("Poll of a condition that comes to hold reported it did not")
	}
}

func TestCheckEveryPausesBetweenTries(t *testing.T) {
	t.Parallel()
	const pause = 20 * time.Millisecond
	tries := 0
	start := time.Now()
	err := CheckEvery(Timeout, pause, func() error {
		if tries++; tries < 4 {
			return errors.New("not yet")
		}
		return nil
	})
	// A lower bound only: a busy machine makes the pauses longer, never
	// shorter.
	if took := time.Since(start); err != nil || tries != 4 || took < 3*pause {
		t.Errorf("CheckEvery: %v after %d tries in %v, want nil after 4 tries and 3 pauses of %v", err, tries, took, pause)
	}
}
