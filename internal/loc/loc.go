// Package loc counts the lines of Go code in files: the lines that hold
// something besides comments and blanks. The tests that hold a service to
// a size budget use it, so that the count is the same wherever it runs.
package loc

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// Count returns the number of lines of code in the Go files of dir,
// test files excluded.
func Count(dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, err
	}
	total := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return 0, err
		}
		n, err := CountSource(src)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// CountSource returns the number of lines of code in one Go source file:
// the lines on which a token other than a comment starts or continues.
func CountSource(src []byte) (int, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	var errs scanner.ErrorList
	s.Init(file, src, func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	lines := map[int]bool{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line's end: not code of its own
		}
		start := file.Line(pos)
		end := start + strings.Count(lit, "\n") // a raw string spans lines
		for l := start; l <= end; l++ {
			lines[l] = true
		}
	}
	if len(errs) > 0 {
		return 0, errs.Err()
	}
	return len(lines), nil
}
