package main

import (
	"os"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestMain lets a test start this test binary as the real program (see
// boottest.StartProcess): load_test.go and scaleout_test.go stop greeter's
// main with SIGTERM. That a service's main stops gracefully on SIGTERM and
// exits with status 1 when it cannot start is framework/boot's, tested
// there (signal_test.go).
func TestMain(m *testing.M) {
	boottest.RunAsMain(main)
	os.Exit(m.Run())
}
