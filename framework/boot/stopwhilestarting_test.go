package boot_test

// A service told to stop while it is still starting stops there: it does
// not wait for its settings, and never listens.

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/server"
)

// TestStopWhileLoadingSettings makes ./application.properties a pipe, so
// that loading the settings waits for ever, then cancels Run's context
// (what SIGTERM does) once the service waits on it: Run must return at
// once, without listening or logging "started". With a writer holding
// the pipe open, the service waits reading it; with none, it waits in
// opening it, which the kernel does not let a deadline interrupt.
func TestStopWhileLoadingSettings(t *testing.T) {
	t.Run("reading a pipe", func(t *testing.T) {
		fifo := makeFifo(t)
		// Held open for writing, so that the service's open does not
		// wait for a writer, and its read waits for data instead.
		writer, err := os.OpenFile(fifo, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer writer.Close()
		if openCount(fifo) < 0 {
			t.Skip("no /proc/self/fd here, to see when the service reads the pipe")
		}
		stopWhileLoading(t, "the service to open the pipe", func() bool { return openCount(fifo) >= 2 })
	})
	t.Run("opening a pipe nobody writes to", func(t *testing.T) {
		fifo := makeFifo(t)
		// The service's open is left waiting; a writer lets it finish,
		// so that it does not outlive the test.
		defer func() {
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		}()
		stopWhileLoading(t, "the service to wait opening the pipe", func() bool {
			buf := make([]byte, 1<<20)
			stacks := string(buf[:runtime.Stack(buf, true)])
			return strings.Contains(stacks, "config.openSettingsFile.func") && strings.Contains(stacks, "os.Open(")
		})
	})
}

// makeFifo makes ./application.properties, in a directory of the test's
// own, a named pipe, and returns its path.
func makeFifo(t *testing.T) string {
	workIn(t, nil)
	fifo, err := filepath.Abs("application.properties")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	return fifo
}

// stopWhileLoading runs the service, cancels its context once waiting
// says the service waits on its settings, and checks that Run returns at
// once, without listening.
func stopWhileLoading(t *testing.T, what string, waiting func() bool) {
	var listened atomic.Bool
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr boottest.Output
	p := boottest.Inputs([]string{"--server.port=0"}, nil)
	p.Stdout, p.Stderr = &stdout, &stderr
	p.Listening = func([]server.Address) { listened.Store(true) }
	returned := make(chan error, 1)
	go func() {
		returned <- boot.Run(ctx, tester(), p)
	}()

	boottest.WaitFor(t, what, waiting)
	cancel()
	var err error
	select {
	case err = <-returned:
	case <-time.After(boottest.Timeout):
		t.Fatalf("Run did not return within %v of its context's cancelling; it still waits for its settings", boottest.Timeout)
	}
	if err == nil || !strings.Contains(err.Error(), "stopped while starting") {
		t.Errorf("Run returned %v, want that it stopped while starting", err)
	}
	if listened.Load() || strings.Contains(strings.ToLower(stdout.String()), "started") {
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
	svc := tester()
	start := svc.Start
	svc.Start = func(ctx context.Context, app *boot.App, s testerSettings) error {
		app.OnClose(func() error { closed.Store(true); return nil })
		cancel() // as SIGTERM would, while the service starts
		return start(ctx, app, s)
	}
	var stdout, stderr boottest.Output
	p := boottest.Inputs([]string{"--server.port=0"}, nil)
	p.Stdout, p.Stderr = &stdout, &stderr
	p.Listening = func([]server.Address) { listened.Store(true) }
	err := boot.Run(ctx, svc, p)
	if err == nil || !strings.Contains(err.Error(), "stopped while starting") {
		t.Errorf("Run returned %v, want that it stopped while starting", err)
	}
	if listened.Load() || strings.Contains(stdout.String(), "Started ") {
		t.Errorf("the service listened after it was told to stop; log:\n%s", stdout.String())
	}
	if !closed.Load() {
		t.Error("what Service.Start opened was not closed")
	}
}
