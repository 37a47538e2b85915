// Package polltest waits in a test for what another goroutine or process
// does: it asks again and again, a little longer between tries each time
// (from 1 ms to 20 ms), until the answer is yes or a bound passes. It is
// the one poll loop of the framework's tests and of the services' built
// on it; no test sleeps a fixed time instead. Only tests import it.
package polltest

import (
	"fmt"
	"testing"
	"time"
)

// Timeout bounds a wait when the test names no other bound. It is
// generous: what tests wait for takes milliseconds, but they must pass
// under the race detector on a busy machine.
const Timeout = 10 * time.Second

// The pause between tries grows from minPause to maxPause.
const (
	minPause = time.Millisecond
	maxPause = 20 * time.Millisecond
)

// Check calls check until it returns nil, and returns nil; or, when
// within passes first, check's last error, saying how long it tried.
func Check(within time.Duration, check func() error) error {
	return try(within, minPause, maxPause, check)
}

// CheckEvery is Check for a check that costs much, such as one that sends
// traffic or asks a server many questions each time: it waits pause
// between tries, rather than Check's 1 to 20 ms. What it waits for still
// ends the wait at the first try that sees it.
func CheckEvery(within, pause time.Duration, check func() error) error {
	return try(within, pause, pause, check)
}

// try calls check until it returns nil or within passes, pausing between
// tries from first, doubling each time up to most.
func try(within, first, most time.Duration, check func() error) error {
	deadline := time.Now().Add(within)
	for pause := first; ; pause = min(2*pause, most) {
		err := check()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still not after %v: %w", within, err)
		}
		time.Sleep(pause)
	}
}

// errNotYet is what Poll's cond says while it does not hold.
var errNotYet = fmt.Errorf("the condition does not hold")

// Poll calls cond until it holds or within passes, and reports whether
// it held.
func Poll(within time.Duration, cond func() bool) bool {
	return Check(within, func() error {
		if cond() {
			return nil
		}
		return errNotYet
	}) == nil
}

// Until calls check until it returns nil, and fails the test, naming
// what it waited for and check's last error, when within passes first.
func Until(t testing.TB, within time.Duration, what string, check func() error) {
	t.Helper()
	if err := Check(within, check); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// WaitFor waits until cond holds, and fails the test, saying what it
// waited for, when it does not within Timeout.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !Poll(Timeout, cond) {
		t.Fatalf("after %v, still waiting for %s", Timeout, what)
	}
}
