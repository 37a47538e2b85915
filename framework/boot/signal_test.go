package boot_test

// tester run as a process, as a service runs in production: stopped by a
// signal, and exiting with a status.

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
)

// TestMain lets a test start this test binary as tester's program, whose
// main is a service's main (see boottest.StartProcess).
func TestMain(m *testing.M) {
	boottest.RunAsMain(func() { boot.Main(tester()) })
	os.Exit(m.Run())
}

// TestSIGTERM runs the service as a process and stops it with SIGTERM: it
// must shut down gracefully and exit with status 0.
func TestSIGTERM(t *testing.T) {
	t.Parallel()
	p := boottest.StartProcess(t)
	p.Signal(t, syscall.SIGTERM)
	if err := p.Wait(t); err != nil {
		t.Errorf("after SIGTERM the program exited with %v, want status 0; log:\n%s", err, p.Stdout)
	}
	if !strings.Contains(p.Stdout.String(), "msg=stopped") {
		t.Errorf("no 'stopped' line in the log:\n%s", p.Stdout)
	}
}

// TestBadSettingExitStatus: a service that fails to start exits with
// status 1, after the report.
func TestBadSettingExitStatus(t *testing.T) {
	t.Parallel()
	out, err := boottest.Command("--server.port=eighty").CombinedOutput()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("with a bad setting the program exited with %v, want status 1", err)
	}
	if !strings.Contains(string(out), "APPLICATION FAILED TO START") || !strings.Contains(string(out), "server.port") {
		t.Errorf("the startup report does not name the setting:\n%s", out)
	}
}
