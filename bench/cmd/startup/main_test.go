package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOnce starts the bare reference server as bench/run starts a binary,
// with requests after the first 200, and checks what once measures.
func TestOnce(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "reference")
	if out, err := exec.Command("go", "build", "-o", bin, "../reference").CombinedOutput(); err != nil {
		t.Fatalf("building bench/cmd/reference: %v\n%s", err, out)
	}
	took, kib, err := once(bin, nil, "/api/hello", 5, 0, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if took <= 0 || kib < 1024 {
		t.Errorf("start-up %v and VmRSS %d KiB; want both above zero, and at least a MiB resident", took, kib)
	}
}

// TestOnceTimeout: a process that never answers is given up on after
// -timeout, and the error says how long was waited.
func TestOnceTimeout(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	began := time.Now()
	_, _, err = once(sh, []string{"-c", "sleep 5"}, "/api/hello", 1, 0, 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "within 300ms") {
		t.Fatalf("once of a silent process: %v; want an error naming the 300ms timeout", err)
	}
	if took := time.Since(began); took < 300*time.Millisecond || took > 4*time.Second {
		t.Errorf("gave up after %v; want about 300ms (and the process stopped)", took)
	}
}
