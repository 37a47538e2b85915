package outage

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestErrorWrapsTheCause(t *testing.T) {
	err := fmt.Errorf("saving: %w", &Error{Dependency: "PostgreSQL", Err: context.DeadlineExceeded})
	var o *Error
	if !errors.As(err, &o) || o.Dependency != "PostgreSQL" {
		t.Fatalf("errors.As found %v, want the outage of PostgreSQL", o)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("the cause is not reachable through errors.Is")
	}
	if got, want := err.Error(), "saving: PostgreSQL is unavailable: context deadline exceeded"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
