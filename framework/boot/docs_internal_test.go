package boot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/testing/doctest"
)

// The docs that list what this package declares. Their lists are checked
// against the code here, so that a logger, a method or a field added,
// removed or renamed fails the tests until the docs say so too.
const (
	frameworkDoc  = "../../docs/framework.md"
	operationsDoc = "../../docs/operations.md"
)

// TestDocsListTheFrameworkLoggers: every list of the framework's loggers
// (Service.Loggers' comment, docs/framework.md's Service table, the table
// of docs/operations.md's Loggers section) names exactly frameworkLoggers,
// and every mention of the group web exactly webGroup.
func TestDocsListTheFrameworkLoggers(t *testing.T) {
	service := structFieldDocs(t, "Service")
	framework := doctest.Read(t, frameworkDoc)
	operations := doctest.Read(t, operationsDoc)

	loggersRow := tableRow(t, framework, "`Loggers`")
	doctest.CheckList(t, "Service.Loggers' comment (boot.go)", "the code declares", parenthesised(t, service["Loggers"], "framework's ("), frameworkLoggers)
	doctest.CheckList(t, frameworkDoc+"'s Loggers row", "the code declares", parenthesised(t, loggersRow, "framework's ("), frameworkLoggers)
	doctest.CheckList(t, "Service.LoggerGroups' comment (boot.go)", "the code declares", parenthesised(t, service["LoggerGroups"], "group web ("), webGroup)

	section := doctest.Section(t, operations, "## Loggers")
	var tabled []string
	for _, row := range doctest.TableRows(section) {
		if name, ok := strings.CutPrefix(strings.Trim(row[0], "`"), "greeter."); ok {
			tabled = append(tabled, name)
		}
	}
	doctest.CheckList(t, operationsDoc+"'s table of loggers", "the code declares", tabled, frameworkLoggers)
	doctest.CheckList(t, operationsDoc+"'s group web", "the code declares", parenthesised(t, section, "`web` ("), webGroup)
}

// TestDocsListTheAppMethods: docs/framework.md's two tables of methods
// name exactly the exported methods of the two phases, as the code
// declares them: the first those of *App, which Start may call, the
// second those of *Running, which serves what was built.
func TestDocsListTheAppMethods(t *testing.T) {
	const section = "Run, New, the App and the Running"
	tables := methodTables(doctest.Section(t, doctest.Read(t, frameworkDoc), "## "+section))
	if len(tables) != 2 {
		t.Fatalf("%s's section %q has %d tables of methods; want 2 (what Start may call on the App, what the Running offers)",
			frameworkDoc, section, len(tables))
	}
	for i, typ := range []string{"App", "Running"} {
		methods := exportedMethods(t, typ)
		if len(methods) < 4 {
			t.Fatalf("found %d exported methods of %s in the package's files; the parse is wrong: %v", len(methods), typ, methods)
		}
		doctest.CheckList(t, frameworkDoc+"'s table of "+typ+"'s methods", "the code declares", tables[i], methods)
	}
}

// TestAppMethodsPanicAfterStart: every exported method of App that adds
// to it calls mustBeStarting, so that one called after Start returned
// panics rather than add what nothing would serve. The others only read.
func TestAppMethodsPanicAfterStart(t *testing.T) {
	readOnly := []string{"Name", "Environment", "Logger", "EngineError", "SettingError", "Sessions"}
	for name, startOnly := range appMethods(t) {
		if !startOnly && !slices.Contains(readOnly, name) {
			t.Errorf("App.%s does not call mustBeStarting, and is not among the methods that only read (%v)", name, readOnly)
		}
	}
}

// TestDocsListTheServiceFields: docs/framework.md's table of
// boot.Service names exactly the struct's exported fields, and every
// Service.<Name> or App.<Name> the docs mention is a field of Service or a
// method of App.
func TestDocsListTheServiceFields(t *testing.T) {
	fields := structFieldDocs(t, "Service")
	var exported []string
	for name := range fields {
		exported = append(exported, name)
	}
	section := doctest.Section(t, doctest.Read(t, frameworkDoc), "## boot.Service")
	var documented []string
	for _, row := range doctest.TableRows(section) {
		if name := strings.Trim(row[0], "`"); name != "Field" {
			documented = append(documented, name)
		}
	}
	doctest.CheckList(t, frameworkDoc+"'s table of boot.Service", "the code declares", documented, exported)

	methods := appMethods(t)
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) < 5 {
		t.Fatalf("docs/*.md: %v, %d files", err, len(docs))
	}
	mention := regexp.MustCompile(`\b(Service|App)\.([A-Z]\w*)`)
	for _, doc := range append(docs, "../../README.md") {
		for _, m := range mention.FindAllStringSubmatch(doctest.Read(t, doc), -1) {
			_, isField := fields[m[2]]
			_, isMethod := methods[m[2]]
			if m[1] == "Service" && !isField || m[1] == "App" && !isMethod {
				t.Errorf("%s names %s, which boot does not declare", doc, m[0])
			}
		}
	}
}

// appMethods returns App's exported methods, parsed from the package's
// files.
// appMethods are App's exported methods, each with whether it calls
// mustBeStarting.
func appMethods(t *testing.T) map[string]bool {
	t.Helper()
	methods := map[string]bool{}
	for _, fn := range methodDecls(t, "App") {
		startOnly := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "mustBeStarting" {
				startOnly = true
			}
			return true
		})
		methods[fn.Name.Name] = startOnly
	}
	return methods
}

// exportedMethods names the exported methods of the package's type typ.
func exportedMethods(t *testing.T, typ string) []string {
	t.Helper()
	var names []string
	for _, fn := range methodDecls(t, typ) {
		names = append(names, fn.Name.Name)
	}
	return names
}

// methodDecls are the declarations of the exported methods of typ.
func methodDecls(t *testing.T, typ string) []*ast.FuncDecl {
	t.Helper()
	var fns []*ast.FuncDecl
	for _, f := range packageFiles(t) {
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.IsExported() && receiverType(fn) == typ {
				fns = append(fns, fn)
			}
		}
	}
	return fns
}

func receiverType(fn *ast.FuncDecl) string {
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// structFieldDocs returns the exported fields of the package's struct
// type name, each with its doc comment's text.
func structFieldDocs(t *testing.T, name string) map[string]string {
	t.Helper()
	fields := map[string]string{}
	for _, f := range packageFiles(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || spec.Name.Name != name {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, field := range st.Fields.List {
				for _, id := range field.Names {
					if id.IsExported() {
						fields[id.Name] = field.Doc.Text()
					}
				}
			}
			return false
		})
	}
	if len(fields) == 0 {
		t.Fatalf("found no struct %s with exported fields in the package's files", name)
	}
	return fields
}

// packageFiles parses the package's non-test files, with their comments.
func packageFiles(t *testing.T) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// tableRow returns the table row of doc whose first cell is first.
func tableRow(t *testing.T, doc, first string) string {
	t.Helper()
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(line, "| "+first+" |") {
			return line
		}
	}
	t.Fatalf("no table row starting with %s", first)
	return ""
}

// methodTables returns the method names of each table in section whose
// rows name methods, as `Name(...)`.
func methodTables(section string) [][]string {
	var tables [][]string
	var current []string
	method := regexp.MustCompile("^`([A-Z]\\w*)\\(.*\\)`$")
	for line := range strings.Lines(section) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if current != nil {
				tables = append(tables, current)
			}
			current = nil
			continue
		}
		cells := doctest.TableRows(line)
		if len(cells) == 0 {
			continue
		}
		if m := method.FindStringSubmatch(cells[0][0]); m != nil {
			current = append(current, m[1])
		}
	}
	if current != nil {
		tables = append(tables, current)
	}
	return tables
}

// parenthesised returns the comma-separated names in text between after
// and the closing parenthesis (up to a semicolon), without backticks and
// without "greeter." prefixes.
func parenthesised(t *testing.T, text, after string) []string {
	t.Helper()
	text = strings.Join(strings.Fields(text), " ") // a comment's lines as one
	_, rest, ok := strings.Cut(text, after)
	if !ok {
		t.Fatalf("no %q in %q", after, text)
	}
	list, _, _ := strings.Cut(rest, ")")
	list, _, _ = strings.Cut(list, ";")
	var names []string
	for n := range strings.SplitSeq(list, ",") {
		names = append(names, strings.TrimPrefix(strings.Trim(strings.TrimSpace(n), "`"), "greeter."))
	}
	return names
}
