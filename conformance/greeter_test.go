package conformance_test

// greeter as the Spring application is run: its binary, built once per
// test binary with the go command, started as a process on a free port.

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

var (
	greeterBinary    string
	greeterBuildErr  error
	greeterBuildOnce sync.Once
	greeterBuildDir  string
)

// buildGreeter builds ./cmd/greeter once for the whole test binary.
func buildGreeter(t *testing.T) string {
	t.Helper()
	greeterBuildOnce.Do(func() {
		greeterBuildDir, greeterBuildErr = os.MkdirTemp("", "conformance-greeter-")
		if greeterBuildErr != nil {
			return
		}
		greeterBinary = filepath.Join(greeterBuildDir, "greeter")
		cmd := exec.Command("go", "build", "-o", greeterBinary, "../cmd/greeter")
		var out []byte
		out, greeterBuildErr = cmd.CombinedOutput()
		if greeterBuildErr != nil {
			greeterBuildErr = &buildError{err: greeterBuildErr, out: string(out)}
		}
	})
	if greeterBuildErr != nil {
		t.Fatalf("building greeter: %v", greeterBuildErr)
	}
	return greeterBinary
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// launchGreeter starts greeter on a free loopback port with args,
// without the environment's APP_, SPRING_, MANAGEMENT_, SERVER_, LOGGING_ and
// OTEL_ variables, and stops it when the test ends; waitListening waits.
func launchGreeter(t *testing.T, args ...string) *app {
	t.Helper()
	bin := buildGreeter(t)
	argv := append([]string{"--server.port=0", "--server.address=127.0.0.1"}, args...)
	return launchProcess(t, "greeter", bin, argv, []string{"APP_", "SPRING_", "MANAGEMENT_", "SERVER_", "LOGGING_", "OTEL_"}, boottest.StartedAddr)
}

// startedGreeter starts greeter with its embedded defaults and returns
// its base URL once it listens.
func startedGreeter(t *testing.T) string {
	t.Helper()
	a := launchGreeter(t)
	a.waitListening(t)
	return a.URL
}
