package metrics

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// linkTakenError is a named error type of a service's.
type linkTakenError struct{ code string }

func (e *linkTakenError) Error() string { return "code " + e.code + " is taken" }

// storeError is a generic one.
type storeError[T any] struct{ _ [0]T }

func (storeError[T]) Error() string { return "store" }

// Error is a type that names no kind by its name alone.
type Error struct{}

func (Error) Error() string { return "error" }

func runtimeError() (err error) {
	defer func() { err = recover().(error) }()
	var s []int
	_ = s[len(os.Args)+1] // index out of range: a runtime.Error
	return nil
}

// TestErrorName: the exception tag names the kind of error, by the Kind
// Classify gave, else by the service's own type in the chain, else
// RuntimeException; never a Go runtime type, never the error's text.
func TestErrorName(t *testing.T) {
	t.Parallel()
	taken := &linkTakenError{code: "abc"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"errors.New", errors.New("boom"), "RuntimeException"},
		{"fmt.Errorf", fmt.Errorf("saving: %w", errors.New("boom")), "RuntimeException"},
		{"dispatch.Error without a cause", &dispatch.Error{Status: 500, Detail: "x"}, "RuntimeException"},
		{"dispatch.Error of errors.New", &dispatch.Error{Status: 500, Err: errors.New("boom")}, "RuntimeException"},
		{"a panic", &dispatch.PanicError{Value: "nil map"}, "RuntimeException"},
		{"a runtime error", runtimeError(), "RuntimeException"},
		{"the standard library's types", fmt.Errorf("x: %w", &fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist}), "RuntimeException"},
		{"context", context.DeadlineExceeded, "RuntimeException"},
		{"the service's type", taken, "linkTakenError"},
		{"wrapped", fmt.Errorf("shorten: %w", taken), "linkTakenError"},
		{"in a dispatch.Error", &dispatch.Error{Status: 500, Err: fmt.Errorf("shorten: %w", taken)}, "linkTakenError"},
		{"the first of a join", errors.Join(errors.New("a"), fmt.Errorf("b: %w", taken), storeError[int]{}), "linkTakenError"},
		{"under a standard library type", &fs.PathError{Op: "open", Err: taken}, "linkTakenError"},
		{"generic", storeError[string]{}, "storeError"},
		{"named Error", fmt.Errorf("x: %w", Error{}), "metrics.Error"},
		{"Kind", &dispatch.Error{Status: 507, Kind: "StoreFullException", Err: taken}, "StoreFullException"},
		{"Kind, wrapped", fmt.Errorf("x: %w", &dispatch.Error{Status: 500, Kind: "IllegalStateException"}), "IllegalStateException"},
		{"Kind beside the cause", errors.Join(taken, &dispatch.Error{Status: 500, Kind: "LinkException"}), "LinkException"},
		{"a Kind that is text", &dispatch.Error{Status: 500, Kind: "code abc is taken", Err: taken}, "linkTakenError"},
		{"a Kind that is text, alone", &dispatch.Error{Status: 500, Kind: "code abc is taken"}, "RuntimeException"},
	}
	for _, tt := range tests {
		if got := errorName(tt.err); got != tt.want {
			t.Errorf("%s (%T): %q, want %q", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestStandardLibrary(t *testing.T) {
	t.Parallel()
	for pkg, want := range map[string]bool{
		"fmt": true, "net/http": true, "internal/poll": true, "runtime": true,
		"main": false, "github.com/springport/greeter/framework/outage": false, "golang.org/x/net/http2": false,
		dispatchPackage: false, // not the standard library's, but passed over by serviceTypeName
	} {
		if got := standardLibrary(pkg); got != want {
			t.Errorf("standardLibrary(%q) = %v, want %v", pkg, got, want)
		}
	}
}
