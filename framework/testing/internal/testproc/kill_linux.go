package testproc

import (
	"os/exec"
	"syscall"
)

// KillWithParent has the kernel send sig to the server when the test
// binary dies without running its cleanups (a panic in another goroutine,
// a timeout, SIGKILL), so that no server outlives the tests. (The kernel
// watches the thread that started the server; the Go runtime keeps its
// threads for the life of the process unless a goroutine locked to one
// exits, which the tests do not do.) It keeps any credential already set
// in cmd.SysProcAttr: Go sets the signal after changing the user, which
// would otherwise clear it.
func KillWithParent(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = sig
}
