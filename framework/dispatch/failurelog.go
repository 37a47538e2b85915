package dispatch

import (
	"sync"
	"time"
)

// failureLog keeps a client that makes the service fail at request rate
// from filling the log at that rate: of the failures of one kind (route,
// status, and whether a handler panicked), the first failuresPerInterval
// in each interval are logged, and the others only counted; the next line
// of the kind says how many were not logged before it. So a few failures
// are all logged, each with its request ID, the first of a flood always
// is, and no count is lost.
type failureLog struct {
	interval time.Duration
	now      func() time.Time

	mu    sync.Mutex
	kinds map[failureKind]*failureCount
}

// failureKind has a bounded set of values: routes are the declared ones
// and the dispatcher's few fixed names, and statuses are 5xx.
type failureKind struct {
	route    string
	status   int
	panicked bool
}

type failureCount struct {
	window  time.Time // when the current interval began
	logged  int       // failures of the kind logged in it
	dropped int       // failures of the kind not logged since the last logged one
}

const (
	failureLogInterval  = time.Second
	failuresPerInterval = 10
)

func newFailureLog() *failureLog {
	return &failureLog{interval: failureLogInterval, now: time.Now, kinds: map[failureKind]*failureCount{}}
}

// admit reports whether a failure of kind k is to be logged now and, if
// so, how many of its kind were not logged before it.
func (f *failureLog) admit(k failureKind) (logIt bool, dropped int) {
	now := f.now()
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.kinds[k]
	if c == nil {
		c = &failureCount{window: now}
		f.kinds[k] = c
	}
	if now.Sub(c.window) >= f.interval {
		c.window, c.logged = now, 0
	}
	if c.logged >= failuresPerInterval {
		c.dropped++
		return false, 0
	}
	c.logged++
	dropped, c.dropped = c.dropped, 0
	return true, dropped
}

// notLogged is the attribute that tells how many failures of a kind went
// unlogged before this one; none when there were none.
func notLogged(dropped int) []any {
	if dropped == 0 {
		return nil
	}
	return []any{"not_logged_since", dropped}
}
