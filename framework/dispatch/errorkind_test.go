package dispatch

import (
	"errors"
	"net/http"
	"sync"
	"testing"
)

// TestClassifiedKindIsObserved: the Kind that Classify gives reaches the
// observers with the handler's own error; without a Kind the observers
// see the handler's error as it was.
func TestClassifiedKindIsObserved(t *testing.T) {
	t.Parallel()
	errFull := errors.New("store full")
	var mu sync.Mutex
	var last Observation
	d := newDispatcher(t, Options{
		Classify: func(err error) *Error {
			switch {
			case errors.Is(err, errFull):
				return &Error{Status: http.StatusInsufficientStorage, Detail: "Full.", Kind: "StoreFullException"}
			case errors.Is(err, errNotFound):
				return &Error{Status: http.StatusNotFound, Detail: "No such thing.", Err: err}
			}
			return nil
		},
		Observers: []func(Observation){func(o Observation) { mu.Lock(); last = o; mu.Unlock() }},
	},
		Route{Method: "GET", Pattern: "/full", Handler: fails(errFull)},
		Route{Method: "GET", Pattern: "/missing", Handler: fails(errNotFound)},
	)
	w := serve(d, "GET", "/full", nil)
	checkProblem(t, "GET /full", w, http.StatusInsufficientStorage, "/full", "Full.")
	mu.Lock()
	got := last.Err
	mu.Unlock()
	e, ok := errors.AsType[*Error](got)
	if !ok || e.Kind != "StoreFullException" || !errors.Is(got, errFull) || got.Error() != "store full" {
		t.Errorf("observed %v (%T); want the handler's error, unwrapping to the *Error with its Kind", got, got)
	}
	serve(d, "GET", "/missing", nil)
	mu.Lock()
	got = last.Err
	mu.Unlock()
	if got != errNotFound {
		t.Errorf("observed %v (%T); want the handler's error as it was", got, got)
	}
}
