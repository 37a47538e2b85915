package dispatch_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPackageCommentNamesEveryFile: the package comment (doc.go) walks a
// request through the package's files; it names every non-test file, and
// every file it names exists, so that a file added, split or renamed
// fails here until the walk says where it comes in.
func TestPackageCommentNamesEveryFile(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package comment")
	}
	named := regexp.MustCompile(`\b[a-z0-9_]+\.go\b`).FindAllString(f.Doc.Text(), -1)

	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, name := range files {
		if !strings.HasSuffix(name, "_test.go") && name != "doc.go" {
			sources = append(sources, name)
		}
	}
	if len(sources) < 10 {
		t.Fatalf("found %d source files (%v); the glob is wrong", len(sources), sources)
	}
	for _, name := range sources {
		if !slices.Contains(named, name) {
			t.Errorf("the package comment (doc.go) does not name %s: say where a request meets it", name)
		}
	}
	for _, name := range named {
		if !slices.Contains(sources, name) {
			t.Errorf("the package comment (doc.go) names %s, which is not a source file of the package", name)
		}
	}
}
