// Package doctest is for the tests that check a doc's lists against the
// code: the loggers, endpoints, packages, metrics or variables that a
// page of README.md or docs/ names, each compared with what the code
// declares or serves, so that a doc cannot drift from what it describes.
// It reads a doc, cuts out the section under a heading, splits its tables
// into cells and a cell into its code spans (or pairs the names of a
// table's two columns), and reports a documented list against the
// declared one: what it misses, what it has in excess, what it has twice.
// Lines in code blocks are no headings and no table rows. It is the one
// copy of these helpers for the doc tests of docs/, of the framework's
// packages and of the services; only tests import it.
package doctest

import (
	"iter"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Read returns the text of the doc at path, failing the test if it
// cannot be read.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Section returns the lines of doc below heading (a whole line, such as
// "## Metrics"), up to the next heading of its level or higher; its code
// blocks are kept, but their lines are no headings. It fails the test if
// doc has no such heading.
func Section(t testing.TB, doc, heading string) string {
	t.Helper()
	level := headingLevel(heading)
	var out, siblings []string
	in := false
	for line, code := range lines(doc) {
		n := 0
		if !code {
			n = headingLevel(line)
		}
		switch {
		case in && n > 0 && n <= level:
			return strings.Join(out, "")
		case in:
			out = append(out, line)
		case !code && strings.TrimSpace(line) == heading:
			in = true
		case level > 0 && n == level:
			siblings = append(siblings, strings.TrimSpace(line))
		}
	}
	if !in {
		t.Fatalf("the doc %q has no heading %q; its headings of that level: %q", title(doc), heading, siblings)
	}
	return strings.Join(out, "")
}

// headingLevel returns the number of #s that start line, followed by a
// space: 2 for "## Metrics"; 0 when line is no heading.
func headingLevel(line string) int {
	n := strings.Index(line, " ")
	if n <= 0 || strings.Trim(line[:n], "#") != "" {
		return 0
	}
	return n
}

// title returns doc's first heading of level 1, or its first line if it
// has none.
func title(doc string) string {
	first := ""
	for line, code := range lines(doc) {
		if first == "" {
			first = strings.TrimSpace(line)
		}
		if !code && headingLevel(line) == 1 {
			return strings.TrimSpace(line)
		}
	}
	return first
}

// WithoutCodeBlocks returns text without its fenced code blocks, where
// a # starts no heading and a backtick no code span.
func WithoutCodeBlocks(text string) string {
	var b strings.Builder
	for line, code := range lines(text) {
		if !code {
			b.WriteString(line)
		}
	}
	return b.String()
}

// lines yields the lines of text, each with its newline, and whether it
// is part of a fenced code block: a fence (``` or ~~~, indented by at
// most three spaces), the lines after it, and the next fence, which
// closes the block.
func lines(text string) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		in := false
		for line := range strings.Lines(text) {
			fence := isFence(line)
			if !yield(line, in || fence) {
				return
			}
			if fence {
				in = !in
			}
		}
	}
}

func isFence(line string) bool {
	rest := strings.TrimLeft(line, " ")
	return len(line)-len(rest) <= 3 && (strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, "~~~"))
}

// TableRows returns the cells of the Markdown table rows of text, the
// header rows included, the separator rows and the lines of code blocks
// not. A row's cells are split at " | " and trimmed.
func TableRows(text string) [][]string {
	var rows [][]string
	for line, code := range lines(text) {
		if cells := tableRow(line); !code && cells != nil {
			rows = append(rows, cells)
		}
	}
	return rows
}

// tableRow returns the cells of line if it is a table row but a
// separator, nil otherwise.
func tableRow(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") {
		return nil
	}
	var cells []string
	for c := range strings.SplitSeq(strings.Trim(line, "|"), " | ") {
		cells = append(cells, strings.TrimSpace(c))
	}
	return cells
}

// Table returns the body rows of the tables of text whose header's first
// cell is header (a table of "| Prometheus | `/actuator/metrics` |" for
// "Prometheus"): the rows after the header, up to the first line that is
// not a table row. A row may have fewer cells than the header.
func Table(text, header string) [][]string {
	var rows [][]string
	in := false
	for line, code := range lines(text) {
		if code || !strings.HasPrefix(strings.TrimSpace(line), "|") {
			in = false
			continue
		}
		row := tableRow(line)
		switch {
		case row == nil: // the separator
		case row[0] == header:
			in = true
		case in:
			rows = append(rows, row)
		}
	}
	return rows
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// CodeSpans returns the text of the code spans of a Markdown text, in
// order: "name" for `name`.
func CodeSpans(text string) []string {
	var spans []string
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		spans = append(spans, m[1])
	}
	return spans
}

// NamePairs reads the table of text whose header's first cell is header
// (see Table), whose first two columns name the same things in two ways
// (a Prometheus family and its /actuator/metrics meter), a cell listing
// names as code spans. It returns the rows' names paired in order, each
// name of a row's first cell with the one at the same place in its
// second, and the number of rows of two cells or more. A span that
// starts with an underscore continues the name before it and is no name:
// "`http_server_requests_seconds` (and `_max`)" names one. A row whose
// two cells name different numbers of names is reported as an error of
// t, where naming the table, and its names left out.
func NamePairs(t testing.TB, where, text, header string) (pairs [][2]string, rows int) {
	t.Helper()
	second := "second column's"
	for _, row := range TableRows(text) {
		if row[0] == header && len(row) >= 2 {
			second = strings.Trim(row[1], "`")
			break
		}
	}
	for _, row := range Table(text, header) {
		if len(row) < 2 {
			continue
		}
		rows++
		firsts, seconds := fullNames(row[0]), fullNames(row[1])
		if len(firsts) != len(seconds) {
			t.Errorf("%s has a row of %d %s names and %d %s names: %v, %v", where, len(firsts), header, len(seconds), second, firsts, seconds)
			continue
		}
		for i := range firsts {
			pairs = append(pairs, [2]string{firsts[i], seconds[i]})
		}
	}
	return pairs, rows
}

// fullNames returns the code spans of a table cell but those that start
// with an underscore, which continue the name before them.
func fullNames(cell string) []string {
	var names []string
	for _, span := range CodeSpans(cell) {
		if !strings.HasPrefix(span, "_") {
			names = append(names, span)
		}
	}
	return names
}

// CheckList reports, as errors of t, the names that a doc's list misses
// (those of declared it does not name), those it has in excess (not in
// declared) and those it has twice. where names the list, such as
// "docs/operations.md's table of loggers"; what says where the declared
// names come from, as a clause that follows "which": "the code declares",
// "go.mod requires directly".
func CheckList(t testing.TB, where, what string, documented, declared []string) {
	t.Helper()
	for _, name := range declared {
		if !slices.Contains(documented, name) {
			t.Errorf("%s misses %s, which %s", where, name, what)
		}
	}
	for i, name := range documented {
		if !slices.Contains(declared, name) {
			t.Errorf("%s names %s, which is not one %s", where, name, what)
		}
		if slices.Contains(documented[:i], name) {
			t.Errorf("%s names %s twice", where, name)
		}
	}
}
