package main

import (
	"github.com/springport/greeter/framework/boot/boottest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestMain lets a test start this test binary as the real program (see
// boottest.StartProcess).
func TestMain(m *testing.M) {
	boottest.RunAsMain(main)
	os.Exit(m.Run())
}

// TestSIGTERM runs the program as a process and stops it with SIGTERM: it
// must shut down gracefully and exit with status 0.
func TestSIGTERM(t *testing.T) {
	p := startProcess(t)
	p.Signal(t, syscall.SIGTERM)
	if err := p.Wait(t); err != nil {
		t.Errorf("after SIGTERM the program exited with %v, want status 0; log:\n%s", err, p.Stdout)
	}
	if !strings.Contains(p.Stdout.String(), "msg=stopped") {
		t.Errorf("no 'stopped' line in the log:\n%s", p.Stdout)
	}
}

func TestBadSettingExitStatus(t *testing.T) {
	out, err := programCommand("--server.port=eighty").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("with a bad setting the program exited with %v, want status 1", err)
	}
	if !strings.Contains(string(out), "APPLICATION FAILED TO START") || !strings.Contains(string(out), "server.port") {
		t.Errorf("the startup report does not name the setting:\n%s", out)
	}
}
