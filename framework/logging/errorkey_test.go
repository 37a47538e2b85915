package logging

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// logCalls are the functions and methods that take a log line's keys:
// slog.Logger's methods and slog's attribute constructors.
var logCalls = map[string]bool{
	"Debug": true, "Info": true, "Warn": true, "Error": true, "Log": true, "LogAttrs": true, "With": true,
	"DebugContext": true, "InfoContext": true, "WarnContext": true, "ErrorContext": true,
	"String": true, "Any": true, "Attr": true, "Group": true,
}

// TestErrorsHaveOneKey: the code logs an error under ErrorKey ("error")
// only, never "err" or another spelling, so that a log pipeline finds it
// in one place (and the structured formats write it as an exception).
// It reads the Go files of the framework, the services and the examples.
func TestErrorsHaveOneKey(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	found := 0
	for _, dir := range []string{"framework", "cmd", "api", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !logCalls[sel.Sel.Name] {
					return true
				}
				for _, arg := range call.Args {
					lit, ok := arg.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					key, _ := strconv.Unquote(lit.Value)
					switch strings.ToLower(key) {
					case "error":
						found++
					case "err", "errors", "exception", "cause", "failure":
						t.Errorf("%s: an error logged under %q: log it under %q (logging.ErrorKey)", fset.Position(lit.Pos()), key, ErrorKey)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found == 0 {
		t.Error("no error logged under \"error\" found: the test reads no code")
	}
}
