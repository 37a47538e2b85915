package main

import (
	"testing"

	"github.com/springport/greeter/framework/boot"
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
