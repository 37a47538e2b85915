package framework_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// boot orders the start-up and owns nothing else: each subsystem binds
// its settings and does its work in a package of its own (server, config's
// key check, actuator, metrics, tracing, logging, session, security). It
// grew into the framework's catch-all once (4,418 lines, a build function
// of 186); these bounds keep it from growing back unnoticed.
const (
	maxBootLines    = 2000 // lines of boot's non-test Go files
	maxFunctionSize = 80   // lines of any function in them
)

// TestBootStaysTheLifecycle checks boot's size and the size of its
// largest function.
func TestBootStaysTheLifecycle(t *testing.T) {
	files, err := filepath.Glob("boot/*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines, counted := 0, 0
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(src), "\n")
		counted++
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFunctionSize {
				t.Errorf("%s: %s is %d lines; boot's functions stay within %d: cut it into its steps", name, fn.Name.Name, n, maxFunctionSize)
			}
		}
	}
	if counted < 10 {
		t.Fatalf("found %d of boot's files; the glob is wrong", counted)
	}
	if lines > maxBootLines {
		t.Errorf("framework/boot is %d lines of non-test Go; it stays within %d: move what is not the lifecycle to the package it belongs to", lines, maxBootLines)
	}
	t.Logf("framework/boot: %d lines in %d files", lines, counted)
}
