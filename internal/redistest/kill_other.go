//go:build !linux

package redistest

import "os/exec"

// killWithParent does nothing where the kernel cannot kill a child with
// its parent: the servers are killed by the tests' cleanups alone.
func killWithParent(*exec.Cmd) {}
