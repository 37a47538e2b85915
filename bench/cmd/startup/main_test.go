package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestOnce starts the bare reference server as bench/run starts a binary,
// with requests after the first 200, and checks what once measures.
func TestOnce(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "reference")
	if out, err := exec.Command("go", "build", "-o", bin, "../reference").CombinedOutput(); err != nil {
		t.Fatalf("building bench/cmd/reference: %v\n%s", err, out)
	}
	took, kib, err := once(bin, nil, "/api/hello", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	if took <= 0 || kib < 1024 {
		t.Errorf("start-up %v and VmRSS %d KiB; want both above zero, and at least a MiB resident", took, kib)
	}
}
