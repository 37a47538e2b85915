package redistest

import (
	"os/exec"
	"syscall"
)

// killWithParent has the kernel kill the server when the test binary
// dies without running its cleanups (a panic in another goroutine, a
// timeout, SIGKILL), so that no redis-server outlives the tests. (The
// kernel watches the thread that started the server; the Go runtime
// keeps its threads for the life of the process unless a goroutine
// locked to one exits, which the tests do not do.)
func killWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
