package conformance_test

// The deliberate differences (differences.txt): every way greeter answers
// otherwise than Spring Boot on purpose, each with its reason. A
// difference the file does not list fails the test; so does an entry that
// no difference matched, so the file says only what is still true.

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// differencesFile is the checked-in list.
const differencesFile = "differences.txt"

// deliberate is one entry: which differences it covers, and why.
type deliberate struct {
	Line    int
	Case    string // a pattern: * matches any run of characters
	Aspect  string // a pattern
	Flavour string // boot4 or boot35, or "" for both
	Reason  string

	caseRE, aspectRE *regexp.Regexp
}

func (e *deliberate) matches(flavour string, d difference) bool {
	return (e.Flavour == "" || e.Flavour == flavour) && e.caseRE.MatchString(d.Case) && e.aspectRE.MatchString(d.Aspect)
}

func (e *deliberate) String() string {
	s := e.Case + " " + e.Aspect
	if e.Flavour != "" {
		s += " " + e.Flavour
	}
	return s
}

// pattern compiles a pattern in which * matches any run of characters
// and \* is a star itself (a uri tag of /**).
func pattern(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p) && p[i+1] == '*':
			b.WriteString(`\*`)
			i++
		case p[i] == '*':
			b.WriteString(".*")
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// readDeliberate reads the file: one or more lines "CASE ASPECT
// [FLAVOUR]", then the reason they share on indented lines; # starts a
// comment line.
func readDeliberate(path string) ([]*deliberate, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		out    []*deliberate
		group  []*deliberate // the entry lines above the reason being read
		lineNo int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			// A group ends at a blank line or a comment: its reason must
			// have come.
			if len(group) > 0 && group[0].Reason == "" {
				return nil, fmt.Errorf("%s:%d: %s has no reason: every deliberate difference says why, on indented lines below it", path, group[0].Line, group[0])
			}
			group = nil
		case line[0] == ' ' || line[0] == '\t':
			if len(group) == 0 {
				return nil, fmt.Errorf("%s:%d: a reason before any entry", path, lineNo)
			}
			reason := strings.TrimSpace(group[0].Reason + " " + strings.TrimSpace(line))
			for _, e := range group {
				e.Reason = reason
			}
		default:
			fs := strings.Fields(line)
			if len(fs) < 2 || len(fs) > 3 || (len(fs) == 3 && !isFlavour(fs[2])) {
				return nil, fmt.Errorf("%s:%d: want \"CASE ASPECT [%s]\": %q", path, lineNo, strings.Join(springFlavours, "|"), line)
			}
			e := &deliberate{Line: lineNo, Case: fs[0], Aspect: fs[1], caseRE: pattern(fs[0]), aspectRE: pattern(fs[1])}
			if len(fs) == 3 {
				e.Flavour = fs[2]
			}
			if len(group) > 0 && group[0].Reason != "" {
				group = nil
			}
			group = append(group, e)
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, e := range out {
		if e.Reason == "" {
			return nil, fmt.Errorf("%s:%d: %s has no reason: every deliberate difference says why, on indented lines below it", path, e.Line, e)
		}
	}
	return out, nil
}

func isFlavour(s string) bool {
	for _, f := range springFlavours {
		if s == f {
			return true
		}
	}
	return false
}

// ledger is the deliberate differences of one test run: each test that
// compares reports its differences to it, and the run's end checks that
// every entry matched one.
type ledger struct {
	mu      sync.Mutex
	entries []*deliberate
	used    map[*deliberate]bool
	// ran is the "case flavour" pairs compared: an entry for a
	// comparison that did not run (a -run filter, a skipped part) is not
	// called stale.
	ran map[string]bool
}

// newLedger reads the file of deliberate differences.
func newLedger(path string) (*ledger, error) {
	es, err := readDeliberate(path)
	if err != nil {
		return nil, err
	}
	return &ledger{entries: es, used: map[*deliberate]bool{}, ran: map[string]bool{}}, nil
}

// check reports, as one test error, the differences against flavour that
// no entry lists, and marks the entries that matched one.
func (l *ledger) check(t *testing.T, flavour string, ds []difference) {
	t.Helper()
	var lines []string
	for _, d := range l.unlisted(flavour, ds) {
		lines = append(lines, fmt.Sprintf("\t%s %s %s\n\t\tgreeter %s\n\t\t%s  %s", d.Case, d.Aspect, flavour, d.Greeter, flavour, d.Spring))
	}
	if len(lines) > 0 {
		t.Errorf("%d differences from %s that %s does not list: fix each, or list it with its reason:\n%s", len(lines), flavour, differencesFile, strings.Join(lines, "\n"))
	}
}

// unlisted returns the differences against flavour that no entry lists,
// in order, and marks the entries that matched one.
func (l *ledger) unlisted(flavour string, ds []difference) []difference {
	l.mu.Lock()
	defer l.mu.Unlock()
	sortDifferences(ds)
	var out []difference
	for _, d := range ds {
		matched := false
		for _, e := range l.entries {
			if e.matches(flavour, d) {
				l.used[e] = true
				matched = true
			}
		}
		if !matched {
			out = append(out, d)
		}
	}
	return out
}

// ranCases records that the cases were compared against flavour, so
// that entries for them can be called stale.
func (l *ledger) ranCases(flavour string, cases []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range cases {
		l.ran[c+" "+flavour] = true
	}
}

// stale lists the entries that could have matched (their cases ran
// against their flavours) but matched nothing.
func (l *ledger) stale() []*deliberate {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*deliberate
	for _, e := range l.entries {
		if l.used[e] {
			continue
		}
		couldRun := false
		for k := range l.ran {
			c, f, _ := strings.Cut(k, " ")
			if (e.Flavour == "" || e.Flavour == f) && e.caseRE.MatchString(c) {
				couldRun = true
				break
			}
		}
		if couldRun {
			out = append(out, e)
		}
	}
	return out
}
