//go:build !linux

package testproc

import (
	"os/exec"
	"syscall"
)

// KillWithParent does nothing where the kernel cannot signal a child when
// its parent dies: the servers are ended by the tests' cleanups alone.
func KillWithParent(*exec.Cmd, syscall.Signal) {}
