package main

import (
	"testing"
)

// TestAllocsPerRequest holds the service's allocations per request to
// their measured counts, so that a regression fails the build. The
// reference's counts are logged beside them for comparison. Lower a budget
// when a change saves an allocation; raise one only with a reason.
func TestAllocsPerRequest(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	budgets := map[string]float64{
		"hello":        1,
		"hi":           0,
		"hello-id":     3,
		"number":       1,
		"post-message": 9,
	}
	service := serviceHandler(t)
	ref := handlers(t)[1].h
	for _, br := range benchRequests {
		s := newServeOnce(service, br)
		got := testing.AllocsPerRun(1000, s.serve)
		if s.w.status != br.status {
			t.Fatalf("%s %s: status %d, want %d", br.method, br.target, s.w.status, br.status)
		}
		r := newServeOnce(ref, br)
		floor := testing.AllocsPerRun(1000, r.serve)
		t.Logf("%s %s: %v allocations per request (reference %v)", br.method, br.target, got, floor)
		if budget := budgets[br.name]; got > budget {
			t.Errorf("%s %s: %v allocations per request, more than the budget of %v", br.method, br.target, got, budget)
		}
	}
}
