// Package docs_test checks the documentation against the repository: the
// lists in README.md and docs/ that name files, directories and fuzz
// targets, the links between the pages, and the decision records' index,
// so that they cannot drift from what they describe. The checks of what
// one package declares (its loggers, its methods) live in that package's
// tests.
package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/springport/greeter/framework/testing/doctest"
)

// root is the repository's root, seen from this package's directory.
const root = ".."

// TestFuzzListIsTheFuzzTargets: the table of docs/testing.md's Fuzzing
// section lists exactly the repository's fuzz targets (the func Fuzz… of
// its test files), each with its package's directory.
func TestFuzzListIsTheFuzzTargets(t *testing.T) {
	var declared []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && isFuzzTarget(fn) {
				declared = append(declared, repoPath(t, filepath.Dir(path))+" "+fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) < 5 {
		t.Fatalf("found %d fuzz targets in the repository (%v); the walk is wrong", len(declared), declared)
	}

	const doc = "docs/testing.md"
	var listed []string
	for _, row := range doctest.TableRows(doctest.Section(t, doctest.Read(t, filepath.Join(root, doc)), "## Fuzzing")) {
		if len(row) < 2 || row[0] == "Package" {
			continue
		}
		for target := range strings.SplitSeq(row[1], ",") {
			listed = append(listed, strings.Trim(row[0], "`")+" "+strings.Trim(strings.TrimSpace(target), "`"))
		}
	}
	for _, target := range declared {
		if !slices.Contains(listed, target) {
			t.Errorf("%s's fuzz table misses %s (package directory, target), which the repository declares", doc, target)
		}
	}
	for _, target := range listed {
		if !slices.Contains(declared, target) {
			t.Errorf("%s's fuzz table lists %s (package directory, target), which the repository does not declare", doc, target)
		}
	}
}

// isFuzzTarget reports whether fn is a fuzz target as go test finds
// them: FuzzXxx(*testing.F).
func isFuzzTarget(fn *ast.FuncDecl) bool {
	name, ok := strings.CutPrefix(fn.Name.Name, "Fuzz")
	if !ok || name != "" && !unicode.IsUpper(rune(name[0])) || len(fn.Type.Params.List) != 1 {
		return false
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "F"
}

// TestRelativeLinksResolve: every relative Markdown link in README.md and
// docs/ names a file or directory inside the repository, and its anchor,
// if any, a heading of the page it points to.
func TestRelativeLinksResolve(t *testing.T) {
	pages := markdownPages(t)
	links := 0
	for _, page := range pages {
		for _, link := range markdownLinks(doctest.Read(t, page)) {
			if regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`).MatchString(link) {
				continue // a URL: https:, mailto:
			}
			links++
			target, anchor, _ := strings.Cut(link, "#")
			path := page
			if target != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(target))
			}
			rel, err := filepath.Rel(root, path)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				t.Errorf("%s links to %s, outside the repository", repoPath(t, page), link)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s: no such file in the repository", repoPath(t, page), link)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !slices.Contains(anchors(doctest.Read(t, path)), anchor) {
				t.Errorf("%s links to %s: %s has no heading with the anchor #%s", repoPath(t, page), link, repoPath(t, path), anchor)
			}
		}
	}
	if links < 50 {
		t.Fatalf("found %d relative links in %d pages; the parse is wrong", links, len(pages))
	}
}

// TestDecisionIndex: docs/README.md's decision index lists every record of
// docs/decisions/, in order, under its number and its title; a superseded
// record is marked so in the index, and no other record points to it but
// the one that supersedes it.
func TestDecisionIndex(t *testing.T) {
	records, err := filepath.Glob(filepath.Join(root, "docs", "decisions", "*.md"))
	if err != nil || len(records) < 5 {
		t.Fatalf("docs/decisions/*.md: %v, %d files", err, len(records))
	}
	slices.Sort(records)
	index := doctest.Section(t, doctest.Read(t, filepath.Join(root, "docs/README.md")), "## Decision records")
	entry := regexp.MustCompile(`(?m)^(\d+)\. \[(.*)\]\(decisions/([^)]+)\)(.*)$`)
	entries := entry.FindAllStringSubmatch(index, -1)
	if len(entries) != len(records) {
		t.Errorf("docs/README.md's decision index has %d entries; docs/decisions/ has %d records", len(entries), len(records))
	}
	supersededBy := map[string]string{} // record file → the file of the record that supersedes it
	status := regexp.MustCompile(`(?m)^Status: superseded by \[decision \d+\]\(([^)#]+)\)`)
	for i, record := range records {
		file := filepath.Base(record)
		text := doctest.Read(t, record)
		number := strings.TrimLeft(strings.SplitN(file, "-", 2)[0], "0")
		title, _, _ := strings.Cut(text, "\n")
		title = strings.TrimPrefix(title, "# ")
		if want := number + ". "; !strings.HasPrefix(title, want) {
			t.Errorf("docs/decisions/%s's title %q does not start with its number, %q", file, title, want)
		}
		title = strings.TrimPrefix(title, number+". ")
		if m := status.FindStringSubmatch(text); m != nil {
			supersededBy[file] = m[1]
		}
		if i >= len(entries) {
			continue
		}
		e := entries[i]
		if e[1] != number || e[3] != file || strings.ReplaceAll(e[2], `\`, "") != title {
			t.Errorf("docs/README.md's decision entry %d is %q; want %s. [%s](decisions/%s)", i+1, e[0], number, title, file)
		}
		if by, ok := supersededBy[file]; ok {
			byNumber := strings.TrimLeft(strings.SplitN(by, "-", 2)[0], "0")
			if !strings.Contains(e[4], "superseded by "+byNumber) {
				t.Errorf("docs/README.md's decision entry %d does not say that decision %s supersedes it: %q", i+1, byNumber, e[0])
			}
		}
	}
	for _, record := range records {
		file := filepath.Base(record)
		for _, link := range markdownLinks(doctest.Read(t, record)) {
			target, _, _ := strings.Cut(link, "#")
			if by, ok := supersededBy[target]; ok && by != file {
				t.Errorf("docs/decisions/%s points to %s, which %s supersedes: point to the record in force", file, target, by)
			}
		}
	}
}

// TestReadmeLayout: the layout in README.md names every directory at the
// repository's root and every directory of framework/, and only those.
func TestReadmeLayout(t *testing.T) {
	_, block, ok := strings.Cut(doctest.Section(t, doctest.Read(t, filepath.Join(root, "README.md")), "## Layout"), "```\n")
	if !ok {
		t.Fatal("README.md's Layout section has no code block")
	}
	block, _, _ = strings.Cut(block, "```")
	listed := map[string][]string{} // parent ("" or "framework") → the directories it lists
	parent := ""
	for line := range strings.Lines(block) {
		indented := strings.HasPrefix(line, " ")
		for _, word := range strings.Fields(line) {
			dir, ok := strings.CutSuffix(word, "/")
			if !ok {
				break // the description
			}
			dir, _, _ = strings.Cut(dir, "/") // cmd/greeter/ is in cmd/
			switch {
			case !indented:
				parent = dir
				listed[""] = append(listed[""], dir)
			case parent == "framework":
				listed[parent] = append(listed[parent], dir)
			}
		}
	}
	for _, parent := range []string{"", "framework"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				dirs = append(dirs, e.Name())
			}
		}
		where := "README.md's layout"
		if parent != "" {
			where += " under " + parent + "/"
		}
		for _, d := range dirs {
			if !slices.Contains(listed[parent], d) {
				t.Errorf("%s misses %s/", where, d)
			}
		}
		for _, d := range listed[parent] {
			if !slices.Contains(dirs, d) {
				t.Errorf("%s names %s/, which is not in the repository", where, d)
			}
		}
	}
}

// markdownPages returns README.md and the Markdown files under docs/.
func markdownPages(t *testing.T) []string {
	t.Helper()
	pages := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

var (
	codeSpan   = regexp.MustCompile("(`+)[^`]*?(`+)")
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
)

// prose returns text without its code blocks and code spans, where
// brackets and parentheses are code, not links.
func prose(text string) string {
	text = doctest.WithoutCodeBlocks(text)
	return codeSpan.ReplaceAllString(text, "")
}

// markdownLinks returns the destinations of the inline links, images and
// link definitions of a Markdown text.
func markdownLinks(text string) []string {
	text = prose(text)
	var links []string
	for _, re := range []*regexp.Regexp{inlineLink, refLink} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			links = append(links, m[1])
		}
	}
	return links
}

// anchors returns the anchors GitHub gives the headings of a Markdown
// text: lower case, punctuation dropped, spaces as hyphens, a repeated
// one suffixed -1, -2….
func anchors(text string) []string {
	var out []string
	seen := map[string]int{}
	stripLinks := regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	for line := range strings.Lines(doctest.WithoutCodeBlocks(text)) {
		heading, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "#")
		if !ok {
			continue
		}
		heading = strings.TrimLeft(heading, "#")
		if !strings.HasPrefix(heading, " ") {
			continue
		}
		heading = stripLinks.ReplaceAllString(strings.TrimSpace(heading), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			seen[anchor]++
			anchor = fmt.Sprintf("%s-%d", anchor, n)
		} else {
			seen[anchor] = 1
		}
		out = append(out, anchor)
	}
	return out
}

// repoPath returns path relative to the repository's root, with slashes.
func repoPath(t *testing.T, path string) string {
	t.Helper()
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(rel)
}

// notInRepository are the paths the docs name that are not in the
// repository, each for a reason the doc gives beside it.
var notInRepository = map[string]string{
	"cmd/greeter/default.pgo": "docs/performance.md: a profile tried and not adopted",
}

// TestNamedPathsExist: every path of the repository that README.md and
// docs/*.md name as code (`framework/boot/boot.go`, `messagestore/inmem/`)
// exists, so that a file or directory moved or removed fails here until
// the docs follow. The decision records are left out: their context tells
// the layout of their time.
func TestNamedPathsExist(t *testing.T) {
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var tops []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			tops = append(tops, e.Name())
		}
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	span := regexp.MustCompile("`([^`\\s]+)`")
	named, exempted := 0, map[string]bool{}
	for _, page := range append(pages, filepath.Join(root, "README.md")) {
		for _, m := range span.FindAllStringSubmatch(doctest.WithoutCodeBlocks(doctest.Read(t, page)), -1) {
			top, _, ok := strings.Cut(m[1], "/")
			if !ok || !slices.Contains(tops, top) {
				continue
			}
			// Up to a pattern or a placeholder: framework/management/{actuator,…}, testdata/fuzz/<Target>.
			path := regexp.MustCompile(`[{*<#:]`).Split(m[1], 2)[0]
			named++
			if _, ok := notInRepository[path]; ok {
				exempted[path] = true
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil {
				t.Errorf("%s names %s, which is not in the repository", repoPath(t, page), m[1])
			}
		}
	}
	if named < 30 {
		t.Fatalf("found %d paths named in the docs; the parse is wrong", named)
	}
	for path, why := range notInRepository {
		if !exempted[path] {
			t.Errorf("notInRepository lists %s (%s), which no doc names any more: remove it", path, why)
		}
	}
}

// TestFrameworkPackagesTable: the table of docs/framework.md's section
// "The packages" names every package of framework/ (but the internal
// ones), and only packages that exist; a {a,b} in a name stands for each.
func TestFrameworkPackagesTable(t *testing.T) {
	var packages []string
	err := filepath.WalkDir(filepath.Join(root, "framework"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "internal" || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		sources, err := filepath.Glob(filepath.Join(path, "*.go"))
		for _, s := range sources {
			if !strings.HasSuffix(s, "_test.go") {
				packages = append(packages, repoPath(t, path))
				break
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(packages) < 10 {
		t.Fatalf("found %d framework packages (%v); the walk is wrong", len(packages), packages)
	}
	var named []string
	braces := regexp.MustCompile(`^(.*)\{([^}]*)\}(.*)$`)
	for _, row := range doctest.TableRows(doctest.Section(t, doctest.Read(t, filepath.Join(root, "docs/framework.md")), "## The packages")) {
		if len(row) < 2 {
			continue
		}
		for _, m := range regexp.MustCompile("`(framework/[^`]*)`").FindAllStringSubmatch(row[1], -1) {
			if b := braces.FindStringSubmatch(m[1]); b != nil {
				for part := range strings.SplitSeq(b[2], ",") {
					named = append(named, b[1]+part+b[3])
				}
			} else {
				named = append(named, m[1])
			}
		}
	}
	for _, p := range packages {
		if !slices.Contains(named, p) {
			t.Errorf("docs/framework.md's table of packages misses %s", p)
		}
	}
	for _, p := range named {
		if !slices.Contains(packages, p) {
			t.Errorf("docs/framework.md's table of packages names %s, which is no package of framework/", p)
		}
	}
}

// testVariable is a variable of the tests' own: GREETER_TEST_….
var testVariable = regexp.MustCompile(`GREETER_TEST_[A-Z0-9_]*[A-Z0-9]`)

// TestTestVariablesAreTheOnesRead: the table of docs/testing.md's section
// "The tests" lists exactly the GREETER_TEST_… variables that the Go code
// reads (a string literal names them: the tests and their helpers, such
// as framework/testing/enginetest); every one that README.md and docs/*.md
// name is one of them; and the CI table's row of go test names exactly
// those that .ci/run exports.
func TestTestVariablesAreTheOnesRead(t *testing.T) {
	readBy := map[string]string{} // variable → a file that reads it
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				for _, v := range testVariable.FindAllString(lit.Value, -1) {
					readBy[v] = repoPath(t, path)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(readBy) < 3 {
		t.Fatalf("found %d GREETER_TEST_ variables in the Go code (%v); the walk is wrong", len(readBy), readBy)
	}
	var variables []string
	for v := range readBy {
		variables = append(variables, v)
	}

	const doc = "docs/testing.md"
	var listed []string
	for _, row := range doctest.TableRows(doctest.Section(t, doctest.Read(t, filepath.Join(root, doc)), "## The tests")) {
		if row[0] != "Variable" {
			listed = append(listed, testVariable.FindAllString(strings.Join(doctest.CodeSpans(row[0]), " "), -1)...)
		}
	}
	doctest.CheckList(t, doc+"'s table of variables", "the Go code reads", listed, variables)

	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range append(pages, filepath.Join(root, "README.md")) {
		for _, v := range testVariable.FindAllString(doctest.Read(t, page), -1) {
			if _, ok := readBy[v]; !ok {
				t.Errorf("%s names %s, which no Go code reads", repoPath(t, page), v)
			}
		}
	}

	var exported []string
	for _, m := range regexp.MustCompile(`(?m)^export (GREETER_TEST_\w+)=`).FindAllStringSubmatch(doctest.Read(t, filepath.Join(root, ".ci", "run")), -1) {
		exported = append(exported, m[1])
	}
	var ci []string
	for _, row := range doctest.TableRows(doctest.Section(t, doctest.Read(t, filepath.Join(root, doc)), "## CI")) {
		if row[0] == "`go test -race ./...`" {
			ci = testVariable.FindAllString(row[1], -1)
		}
	}
	doctest.CheckList(t, doc+"'s CI row of go test", ".ci/run exports", ci, exported)
	for _, v := range exported {
		if _, ok := readBy[v]; !ok {
			t.Errorf(".ci/run exports %s, which no Go code reads", v)
		}
	}
}

// module is the repository's module path.
const module = "github.com/springport/greeter"

// TestDependenciesTable: the table of docs/dependencies.md lists exactly
// the direct requirements of go.mod (not those marked // indirect); a
// module marked "(tests only)" is linked into neither cmd/greeter nor
// examples/counter, and one not so marked into one of them, as the page
// defines it; and its "Used by" column names every package of the
// repository whose code (not its tests) imports a package of the module,
// and only packages that, with their tests, depend on every module of the
// row.
func TestDependenciesTable(t *testing.T) {
	var direct []string
	inBlock := false
	for line := range strings.Lines(doctest.Read(t, filepath.Join(root, "go.mod"))) {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inBlock = true
		case inBlock && line == ")":
			inBlock = false
		case inBlock || strings.HasPrefix(line, "require "):
			fields := strings.Fields(strings.TrimPrefix(line, "require "))
			if len(fields) >= 2 && !strings.HasSuffix(line, "// indirect") {
				direct = append(direct, fields[0])
			}
		}
	}
	if len(direct) < 5 {
		t.Fatalf("found %d direct requirements in go.mod (%v); the parse is wrong", len(direct), direct)
	}

	const doc = "docs/dependencies.md"
	type row struct {
		modules   []string
		testsOnly bool
		usedBy    string
	}
	var rows []row
	var listed []string
	for _, cells := range doctest.TableRows(doctest.Section(t, doctest.Read(t, filepath.Join(root, doc)), "# Dependencies")) {
		if len(cells) < 3 || cells[0] == "Module" {
			continue
		}
		r := row{modules: doctest.CodeSpans(cells[0]), testsOnly: strings.Contains(cells[0], "(tests only)"), usedBy: cells[1]}
		rows = append(rows, r)
		listed = append(listed, r.modules...)
	}
	doctest.CheckList(t, doc+"'s table", "go.mod requires directly", listed, direct)

	// The modules linked into the services.
	linked := strings.Fields(goList(t, "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./cmd/greeter", "./examples/counter"))
	// The module of every package the repository's packages and tests
	// depend on.
	moduleOf := map[string]string{}
	for line := range strings.Lines(goList(t, "-deps", "-test", "-f", "{{.ImportPath}}\t{{with .Module}}{{.Path}}{{end}}", "./...")) {
		pkg, mod, _ := strings.Cut(strings.TrimSpace(line), "\t")
		moduleOf[variantOf(pkg)] = mod
	}
	// What each package of the repository imports (its code's), and what
	// it and its tests depend on.
	imports, deps := map[string][]string{}, map[string][]string{}
	for line := range strings.Lines(goList(t, "-test", "-f", "{{.ImportPath}}\t{{join .Imports \",\"}}\t{{join .Deps \",\"}}", "./...")) {
		fields := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(fields) != 3 {
			t.Fatalf("go list wrote %q", line)
		}
		pkg := strings.TrimPrefix(variantOf(fields[0]), module+"/")
		pkg = strings.TrimSuffix(strings.TrimSuffix(pkg, ".test"), "_test")
		for dep := range strings.SplitSeq(fields[2], ",") {
			deps[pkg] = append(deps[pkg], variantOf(dep))
		}
		if !strings.Contains(fields[0], " ") && !strings.HasSuffix(fields[0], ".test") {
			for imp := range strings.SplitSeq(fields[1], ",") {
				imports[pkg] = append(imports[pkg], variantOf(imp))
			}
		}
	}
	if len(imports) < 20 {
		t.Fatalf("go list named %d packages of the repository; the parse is wrong", len(imports))
	}
	uses := func(pkgs []string, mod string) bool {
		return slices.ContainsFunc(pkgs, func(p string) bool { return moduleOf[p] == mod })
	}

	for _, r := range rows {
		var named []string
		for _, span := range doctest.CodeSpans(r.usedBy) {
			if _, ok := imports[strings.TrimSuffix(span, "/")]; ok {
				named = append(named, strings.TrimSuffix(span, "/"))
			}
		}
		for _, mod := range r.modules {
			if !slices.Contains(direct, mod) {
				continue // reported above
			}
			if got := !slices.Contains(linked, mod); got != r.testsOnly {
				if got {
					t.Errorf("%s's row of %s is not marked (tests only), but neither cmd/greeter nor examples/counter links it", doc, mod)
				} else {
					t.Errorf("%s's row of %s is marked (tests only), but cmd/greeter or examples/counter links it", doc, mod)
				}
			}
			for pkg, imported := range imports {
				if uses(imported, mod) && !slices.Contains(named, pkg) {
					t.Errorf("%s's row of %s does not name %s, which imports it", doc, mod, pkg)
				}
			}
			for _, pkg := range named {
				if !uses(deps[pkg], mod) {
					t.Errorf("%s's row of %s names %s, which does not depend on it, nor do its tests", doc, mod, pkg)
				}
			}
		}
	}
}

// variantOf returns the package of a path that go list -test may write
// as a test's variant of it: "p [p.test]" is p.
func variantOf(path string) string {
	p, _, _ := strings.Cut(path, " ")
	return p
}

// goList runs go list in the repository's root and returns what it
// wrote.
func goList(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %v: %v: %s", args, err, exit.Stderr)
		}
		t.Fatalf("go list %v: %v", args, err)
	}
	return string(out)
}
