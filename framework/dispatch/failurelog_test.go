package dispatch

import (
	"testing"
	"time"
)

func TestFailureLogLimitsEachKind(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	f := newFailureLog()
	f.now = func() time.Time { return now }
	kind := failureKind{route: "GET /a", status: 500}
	logged := 0
	for range failuresPerInterval + 5 {
		if ok, dropped := f.admit(kind); ok {
			logged++
			if dropped != 0 {
				t.Errorf("a logged failure in the first interval reports %d dropped", dropped)
			}
		}
	}
	if logged != failuresPerInterval {
		t.Errorf("%d of %d failures logged in one interval, want %d", logged, failuresPerInterval+5, failuresPerInterval)
	}
	if ok, _ := f.admit(failureKind{route: "GET /b", status: 500}); !ok {
		t.Error("the first failure of another kind was not logged")
	}
	now = now.Add(failureLogInterval)
	if ok, dropped := f.admit(kind); !ok || dropped != 5 {
		t.Errorf("the first failure of the next interval: logged %v, dropped %d; want logged, 5", ok, dropped)
	}
	if _, dropped := f.admit(kind); dropped != 0 {
		t.Errorf("the count was told twice: %d", dropped)
	}
}
