package boot_test

// A service told to stop while it is still starting stops there: it does
// not wait for its settings, and never listens.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
)

// TestStopWhileLoadingSettings makes ./application.properties a pipe that
// nobody writes to, so that loading the settings waits for ever, then
// cancels Run's context (what SIGTERM does) once the service is reading
// the pipe: Run must return at once, without listening or logging
// "started".
func TestStopWhileLoadingSettings(t *testing.T) {
	workIn(t, nil)
	fifo, err := filepath.Abs("application.properties")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// Held open for writing, so that the service's open does not wait
	// for a writer, and its read waits for data instead.
	writer, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if openCount(fifo) < 0 {
		t.Skip("no /proc/self/fd here, to see when the service reads the pipe")
	}

	var listened atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = boot.WithListening(ctx, func([]boot.Address) { listened.Store(true) })
	var stdout, stderr boottest.Output
	returned := make(chan error, 1)
	go func() {
		returned <- boot.Run(ctx, tester(), []string{"--server.port=0"}, boottest.Env(nil), &stdout, &stderr)
	}()

	boottest.WaitFor(t, "the service to open the pipe", func() bool { return openCount(fifo) >= 2 })
	cancel()
	select {
	case err = <-returned:
	case <-time.After(boottest.Timeout):
		t.Fatalf("Run did not return within %v of its context's cancelling; it still waits for its settings", boottest.Timeout)
	}
	if err == nil || !strings.Contains(err.Error(), "stopped while starting") {
		t.Errorf("Run returned %v, want that it stopped while starting", err)
	}
	if listened.Load() || strings.Contains(stdout.String(), "started") {
		t.Errorf("the service listened after it was told to stop; log:\n%s", stdout.String())
	}
	if strings.Contains(stderr.String(), "APPLICATION FAILED TO START") {
		t.Errorf("a stop is not a failure to report:\n%s", stderr.String())
	}
}

// openCount is how many of this process's file descriptors are open on
// path; -1 when the system does not say (no /proc).
func openCount(path string) int {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			n++
		}
	}
	return n
}

// TestStopWhileServiceStarts cancels Run's context while Service.Start
// runs: Run must close what was built and return without listening.
func TestStopWhileServiceStarts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var listened, closed atomic.Bool
	ctx = boot.WithListening(ctx, func([]boot.Address) { listened.Store(true) })
	svc := tester()
	start := svc.Start
	svc.Start = func(ctx context.Context, app *boot.App, s testerSettings) error {
		app.OnClose(func() error { closed.Store(true); return nil })
		cancel() // as SIGTERM would, while the service starts
		return start(ctx, app, s)
	}
	var stdout, stderr boottest.Output
	err := boot.Run(ctx, svc, []string{"--server.port=0"}, boottest.Env(nil), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "stopped while starting") {
		t.Errorf("Run returned %v, want that it stopped while starting", err)
	}
	if listened.Load() || strings.Contains(stdout.String(), "msg=started") {
		t.Errorf("the service listened after it was told to stop; log:\n%s", stdout.String())
	}
	if !closed.Load() {
		t.Error("what Service.Start opened was not closed")
	}
}
