package conformance_test

// The request corpus (corpus.http): the requests sent to greeter and to
// the Spring reference application alike, in the form of IntelliJ's and
// VS Code's HTTP client files, which Spring teams already write.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// corpusFile is the one file of requests.
const corpusFile = "corpus.http"

// exchange is one request of the corpus.
type exchange struct {
	Name   string // the word after ###, unique in the file
	Line   int    // of the ### line
	Setup  string // the configuration it runs in: the last "#### setup NAME" above it
	Shape  bool   // "# compare: shape": the body's values are random, only their kinds are compared
	Method string
	Target string      // path and query, as sent
	Header [][2]string // in the order written
	Body   string
}

// setupLine starts the cases of one configuration: "#### setup user".
var setupLine = regexp.MustCompile(`^####\s+setup\s+(\S+)\s*$`)

// caseName is what may follow ###: a name of letters, digits and dashes,
// then free text.
var caseName = regexp.MustCompile(`^###\s+([a-z0-9][a-z0-9-]*)(?:\s.*)?$`)

// readCorpus reads the corpus. A case is "### name what it shows", then
// comment lines ("# ..."; "# compare: shape" is a directive), the request
// line ("GET /path"), header lines ("Name: value") up to an empty line,
// and the body: every line from there to the next ### or ####, its last
// line breaks not sent. Cases run in the order written: a case may depend on
// what the ones above it did.
func readCorpus(path string) ([]exchange, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		cases  []exchange
		setup  = ""
		cur    *exchange
		state  int // 0 before the request line, 1 headers, 2 body
		body   []string
		seen   = map[string]int{}
		lineNo int
	)
	finish := func() {
		if cur == nil {
			return
		}
		cur.Body = strings.TrimRight(strings.Join(body, "\n"), "\n")
		cases = append(cases, *cur)
		cur, body, state = nil, nil, 0
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.HasPrefix(line, "####") {
			finish()
			m := setupLine.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("%s:%d: a #### line is \"#### setup NAME\": %q", path, lineNo, line)
			}
			setup = m[1]
			continue
		}
		if strings.HasPrefix(line, "###") {
			finish()
			m := caseName.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("%s:%d: a case starts \"### name\" (lower-case letters, digits, dashes): %q", path, lineNo, line)
			}
			if setup == "" {
				return nil, fmt.Errorf("%s:%d: case %s comes before any \"#### setup NAME\"", path, lineNo, m[1])
			}
			if first, ok := seen[m[1]]; ok {
				return nil, fmt.Errorf("%s:%d: case %s is named at line %d too", path, lineNo, m[1], first)
			}
			seen[m[1]] = lineNo
			cur = &exchange{Name: m[1], Line: lineNo, Setup: setup}
			continue
		}
		if cur == nil {
			if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
				return nil, fmt.Errorf("%s:%d: text outside a case: %q", path, lineNo, line)
			}
			continue
		}
		switch state {
		case 0:
			if d, ok := strings.CutPrefix(line, "# compare:"); ok {
				if strings.TrimSpace(d) != "shape" {
					return nil, fmt.Errorf("%s:%d: the only directive is \"# compare: shape\": %q", path, lineNo, line)
				}
				cur.Shape = true
				continue
			}
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			method, target, ok := strings.Cut(line, " ")
			if !ok || method == "" || !strings.HasPrefix(target, "/") {
				return nil, fmt.Errorf("%s:%d: case %s: want a request line \"METHOD /path\": %q", path, lineNo, cur.Name, line)
			}
			cur.Method, cur.Target = method, strings.TrimSpace(target)
			state = 1
		case 1:
			if line == "" {
				state = 2
				continue
			}
			name, value, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("%s:%d: case %s: want a header \"Name: value\": %q", path, lineNo, cur.Name, line)
			}
			cur.Header = append(cur.Header, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
		case 2:
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	finish()
	for _, c := range cases {
		if c.Method == "" {
			return nil, fmt.Errorf("%s:%d: case %s has no request line", path, c.Line, c.Name)
		}
	}
	return cases, nil
}

// TestCorpus: without Java, the corpus reads, every setup it names is
// defined, and a malformed case is refused with its line.
func TestCorpus(t *testing.T) {
	t.Parallel()
	cases, err := readCorpus(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if setups[c.Setup] == nil {
			t.Errorf("%s:%d: case %s is in setup %q, which setups_test.go does not define", corpusFile, c.Line, c.Name, c.Setup)
		}
	}
	if len(cases) < 100 {
		t.Errorf("%d cases read from %s, want the whole corpus", len(cases), corpusFile)
	}
	bad := filepath.Join(t.TempDir(), "bad.http")
	for text, want := range map[string]string{
		"#### setup plain\n### a\nGET /a\n\n### a\nGET /b\n": "bad.http:5: case a is named at line 2 too",
		"### a\nGET /a\n":                             "comes before any",
		"#### setup plain\n### a\nGET a\n":            "bad.http:3: case a: want a request line",
		"#### setup plain\n### a\nGET /a\nno colon\n": "want a header",
	} {
		if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readCorpus(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", text, err, want)
		}
	}
}
