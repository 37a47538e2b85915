package doctest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// doc is a page as the docs write them: sections, tables, a code block
// whose lines look like a heading and a table row.
const doc = "# Operations\n" +
	"\n" +
	"Intro.\n" +
	"\n" +
	"## Loggers\n" +
	"\n" +
	"| Logger | What it logs |\n" +
	"|---|---|\n" +
	"| `greeter.web` | requests |\n" +
	"| `greeter.security` | refusals (`401`, `403`) |\n" +
	"\n" +
	"```sh\n" +
	"# not a heading\n" +
	"| not | a row |\n" +
	"```\n" +
	"\n" +
	"### Levels\n" +
	"\n" +
	"Set at run time.\n" +
	"\n" +
	"## Metrics\n" +
	"\n" +
	"| Prometheus | `/actuator/metrics` | Spring's |\n" +
	"|---|---|---|\n" +
	"| `http_seconds` (and `_max`) | `http` | the same |\n" +
	"| `a_total`, `b_total` | `a`, `b` | |\n" +
	"\n" +
	"| Other | Table |\n" +
	"|---|---|\n" +
	"| `x` | `y` |\n"

func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, path); got != doc {
		t.Errorf("Read = %q, want the file's text", got)
	}
	r := record(func(t testing.TB) { Read(t, filepath.Join(filepath.Dir(path), "missing.md")) })
	if !strings.Contains(r.fatal, "missing.md") {
		t.Errorf("Read of a missing file: fatal %q, want one naming the file", r.fatal)
	}
}

func TestSection(t *testing.T) {
	loggers := Section(t, doc, "## Loggers")
	if !strings.HasPrefix(loggers, "\n| Logger |") || !strings.HasSuffix(loggers, "Set at run time.\n\n") {
		t.Errorf("the section ## Loggers is %q; want from the line after its heading to the one before ## Metrics, its ### and its code block included", loggers)
	}
	if !strings.Contains(loggers, "# not a heading\n") {
		t.Errorf("the section ## Loggers lost its code block: %q", loggers)
	}
	if got := Section(t, doc, "### Levels"); got != "\nSet at run time.\n\n" {
		t.Errorf("the section ### Levels is %q; want it to end at the next ## heading", got)
	}
	if got := Section(t, doc, "## Metrics"); !strings.HasSuffix(got, "| `x` | `y` |\n") {
		t.Errorf("the last section is %q; want it to run to the end of the doc", got)
	}

	for _, heading := range []string{"## Logger", "# not a heading", "## Levels"} {
		r := record(func(t testing.TB) { Section(t, doc, heading) })
		if !strings.Contains(r.fatal, fmt.Sprintf("%q has no heading %q", "# Operations", heading)) {
			t.Errorf("Section of %q: fatal %q, want it to say that the doc, by its title, has no such heading", heading, r.fatal)
		}
	}
	r := record(func(t testing.TB) { Section(t, doc, "## Logger") })
	if !strings.Contains(r.fatal, `["## Loggers" "## Metrics"]`) {
		t.Errorf("Section of a missing heading: fatal %q, want it to list the headings of its level", r.fatal)
	}
}

func TestWithoutCodeBlocks(t *testing.T) {
	got := WithoutCodeBlocks("a\n```go\n`x`\n~~~\nb\n   ~~~\n    ```\nc\n~~~\nd\n")
	if want := "a\nb\nd\n"; got != want {
		t.Errorf("WithoutCodeBlocks = %q, want %q (a fence indented 4 spaces closes no block)", got, want)
	}
	if got := WithoutCodeBlocks("a\n```\nb\n"); got != "a\n" {
		t.Errorf("WithoutCodeBlocks of an unclosed block = %q; want the block to run to the end", got)
	}
}

func TestTableRows(t *testing.T) {
	got := TableRows(Section(t, doc, "## Loggers"))
	want := [][]string{
		{"Logger", "What it logs"},
		{"`greeter.web`", "requests"},
		{"`greeter.security`", "refusals (`401`, `403`)"},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("TableRows = %q, want %q: the header, no separator, no row of a code block", got, want)
	}
	if got := TableRows("no table\n"); got != nil {
		t.Errorf("TableRows of no table = %q, want none", got)
	}
}

func TestTable(t *testing.T) {
	got := Table(doc, "Prometheus")
	want := [][]string{
		{"`http_seconds` (and `_max`)", "`http`", "the same"},
		{"`a_total`, `b_total`", "`a`, `b`", ""},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Table(Prometheus) = %q, want %q: the body rows of that table only", got, want)
	}
	if got := Table(doc, "Nothing"); got != nil {
		t.Errorf("Table of a header no table has = %q, want none", got)
	}
	inCode := "```\n| Prometheus | m |\n|---|---|\n| `a` | `b` |\n```\n"
	if got := Table(inCode, "Prometheus"); got != nil {
		t.Errorf("Table of a table in a code block = %q, want none", got)
	}
}

func TestCodeSpans(t *testing.T) {
	if got, want := CodeSpans("`GET /a`, `b` and c, ``"), []string{"GET /a", "b"}; !slices.Equal(got, want) {
		t.Errorf("CodeSpans = %q, want %q", got, want)
	}
}

func TestNamePairs(t *testing.T) {
	pairs, rows := NamePairs(t, "the table", doc, "Prometheus")
	want := [][2]string{{"http_seconds", "http"}, {"a_total", "a"}, {"b_total", "b"}}
	if !slices.Equal(pairs, want) || rows != 2 {
		t.Errorf("NamePairs = %q, %d rows; want %q, 2 rows (`_max` continues the name before it)", pairs, rows, want)
	}

	mismatched := "| Prometheus | `/actuator/metrics` |\n|---|---|\n| `a`, `b` | `a` |\n| `c` | `c` |\n| `d` |\n"
	r := record(func(t testing.TB) { pairs, rows = NamePairs(t, "the table", mismatched, "Prometheus") })
	if want := [][2]string{{"c", "c"}}; !slices.Equal(pairs, want) || rows != 2 {
		t.Errorf("NamePairs of a row that does not pair = %q, %d rows; want %q, 2 rows (the row left out, the row of one cell not counted)", pairs, rows, want)
	}
	if want := []string{"the table has a row of 2 Prometheus names and 1 /actuator/metrics names: [a b], [a]"}; !slices.Equal(r.errors, want) {
		t.Errorf("NamePairs reported %q, want %q", r.errors, want)
	}
}

func TestCheckList(t *testing.T) {
	r := record(func(t testing.TB) {
		CheckList(t, "the table", "the code declares", []string{"a", "b", "c"}, []string{"c", "b", "a"})
	})
	if r.errors != nil || r.fatal != "" {
		t.Errorf("CheckList of the same names in another order reported %q %q", r.errors, r.fatal)
	}

	r = record(func(t testing.TB) {
		CheckList(t, "the table", "the code declares", []string{"a", "x", "a"}, []string{"a", "b"})
	})
	want := []string{
		"the table misses b, which the code declares",
		"the table names x, which is not one the code declares",
		"the table names a twice",
	}
	if !slices.Equal(r.errors, want) {
		t.Errorf("CheckList reported %q, want %q", r.errors, want)
	}
	if r.fatal != "" {
		t.Errorf("CheckList stopped the test: %q", r.fatal)
	}
}

// recorder is a testing.TB that records what a helper reports instead
// of failing the test.
type recorder struct {
	testing.TB // nil: a helper calls only the methods below
	errors     []string
	fatal      string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.fatal = fmt.Sprint(args...)
	runtime.Goexit()
}

// record runs f with a recorder, in a goroutine of its own, which Fatal
// ends as it ends a test's.
func record(f func(t testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}
