package main

import (
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/internal/loc"
)

// TestSettingsAreDocumented: every setting greeter reads has a meaning
// for --help and docs/configuration.md, and every meaning a setting.
func TestSettingsAreDocumented(t *testing.T) {
	gaps, err := boot.Undocumented(greeter())
	if err != nil {
		t.Fatal(err)
	}
	for _, gap := range gaps {
		t.Error(gap)
	}
}

// TestSize: cmd/greeter holds greeter alone, in at most 500 lines of Go;
// the lifecycle every service shares is framework/boot's.
func TestSize(t *testing.T) {
	n, err := loc.Count(".")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cmd/greeter: %d lines of Go (not blank, not comments, tests excluded)", n)
	if n > 500 {
		t.Errorf("cmd/greeter has %d lines of Go, more than 500", n)
	}
}
