package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test start this test binary as the real program: with
// GREETER_AS_MAIN=1 it runs main instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("GREETER_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSIGTERM runs the program as a process and stops it with SIGTERM: it
// must shut down gracefully and exit with status 0.
func TestSIGTERM(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--server.port=0")
	cmd.Env = append(os.Environ(), "GREETER_AS_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	var log []string
	for lines.Scan() {
		log = append(log, lines.Text())
		if strings.Contains(lines.Text(), "msg=started") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		log = append(log, lines.Text())
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM the program exited with %v, want status 0; log:\n%s", err, strings.Join(log, "\n"))
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the program did not exit within 10s of SIGTERM")
	}
	if !strings.Contains(strings.Join(log, "\n"), "msg=stopped") {
		t.Errorf("no 'stopped' line in the log:\n%s", strings.Join(log, "\n"))
	}
}

func TestBadSettingExitStatus(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--server.port=eighty")
	cmd.Env = append(os.Environ(), "GREETER_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("with a bad setting the program exited with %v, want status 1", err)
	}
	if !strings.Contains(string(out), "APPLICATION FAILED TO START") || !strings.Contains(string(out), "server.port") {
		t.Errorf("the startup report does not name the setting:\n%s", out)
	}
}
