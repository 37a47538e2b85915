package metrics

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// operationsDoc lists, in its section "Metrics", the Prometheus families
// whose /actuator/metrics name is Micrometer's own rather than the one
// made from the family's name. Whether the names it gives are served is
// checked where a service serves them (cmd/greeter); that it gives every
// one of micrometerNames, here.
const operationsDoc = "../../../docs/operations.md"

// TestDocsNameMicrometersOwnNames: the table of names of
// docs/operations.md's section "Metrics" pairs every family of
// micrometerNames with its Micrometer name, the family in the first
// column, the name at the same place in the second.
func TestDocsNameMicrometersOwnNames(t *testing.T) {
	const where = operationsDoc + "'s table of Prometheus and /actuator/metrics names"
	pairs := map[string][]string{} // family → the names the table pairs it with
	rows := 0
	for _, row := range namesTable(markdownSection(t, readDoc(t, operationsDoc), "## Metrics")) {
		rows++
		families, names := fullNames(row[0]), fullNames(row[1])
		if len(families) != len(names) {
			t.Errorf("%s has a row of %d Prometheus names and %d /actuator/metrics names: %v, %v", where, len(families), len(names), families, names)
			continue
		}
		for i, f := range families {
			pairs[f] = append(pairs[f], names[i])
		}
	}
	if rows < len(micrometerNames) {
		t.Fatalf("found %d rows in %s; the parse is wrong", rows, where)
	}
	for family, n := range micrometerNames {
		if got, ok := pairs[family]; !ok {
			t.Errorf("%s misses %s, whose /actuator/metrics name is Micrometer's own, %s (micrometerNames)", where, family, n.name)
		} else if !slices.Equal(got, []string{n.name}) {
			t.Errorf("%s pairs %s with %v; micrometerNames names it %s", where, family, got, n.name)
		}
	}
}

// fullNames returns the code spans of a cell, but those that continue the
// name before them (`_max`).
func fullNames(cell string) []string {
	var names []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell, -1) {
		if !strings.HasPrefix(m[1], "_") {
			names = append(names, m[1])
		}
	}
	return names
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fence is a code block, whose lines are no headings.
var fence = regexp.MustCompile("(?ms)^ {0,3}(```|~~~).*?^ {0,3}(```|~~~)[^\\n]*$")

// markdownSection returns the lines of doc below the heading, up to the
// next heading of its level or higher, without its code blocks.
func markdownSection(t *testing.T, doc, heading string) string {
	t.Helper()
	level := strings.Index(heading, " ")
	var out []string
	in := false
	for line := range strings.Lines(fence.ReplaceAllString(doc, "")) {
		if in {
			if n := strings.Index(line, " "); n > 0 && n <= level && strings.Trim(line[:n], "#") == "" {
				break
			}
			out = append(out, line)
		} else if strings.TrimSpace(line) == heading {
			in = true
		}
	}
	if !in {
		t.Fatalf("no heading %q in the doc", heading)
	}
	return strings.Join(out, "")
}

// namesTable returns the rows of the table of text whose first column is
// headed Prometheus, its header row left out.
func namesTable(text string) [][]string {
	var rows [][]string
	in := false
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(strings.TrimSpace(line), "|") {
			in = false
			continue
		}
		row := tableRows(line)
		if len(row) == 0 {
			continue
		}
		if row[0][0] == "Prometheus" {
			in = true
		} else if in && len(row[0]) >= 2 {
			rows = append(rows, row[0])
		}
	}
	return rows
}

// tableRows returns the cells of the Markdown table rows in text, the
// header rows included, the separator rows not.
func tableRows(text string) [][]string {
	var rows [][]string
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") {
			continue
		}
		var cells []string
		for c := range strings.SplitSeq(strings.Trim(line, "|"), " | ") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}
