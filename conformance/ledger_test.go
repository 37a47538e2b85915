package conformance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLedger: without Java, the checks that make TestSideBySide fail work:
// a difference no entry lists is reported, an entry no difference matched
// in a run that sent its cases is stale, an entry for cases that did not
// run is not, and an entry without a reason is refused; the checked-in
// file reads.
func TestLedger(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "differences.txt")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`# a comment
hello header:Vary
hi header:Vary
	greeter says Vary: Accept.

gone status boot35
	a difference that no longer occurs.

other-setup status
	a case that did not run.

post-\* body
	the star itself.
`)
	l, err := newLedger(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.entries[1].Reason; got != "greeter says Vary: Accept." {
		t.Errorf("the second line of a group has reason %q, want the group's", got)
	}
	ds := []difference{
		{Case: "hello", Aspect: "header:Vary"},
		{Case: "new", Aspect: "status"},
		{Case: "post-x", Aspect: "body"},
		{Case: "post-*", Aspect: "body"},
	}
	l.ranCases("boot35", []string{"hello", "hi", "new", "gone", "post-x", "post-*"})
	unlisted := l.unlisted("boot35", ds)
	if len(unlisted) != 2 || unlisted[0].Case != "new" || unlisted[1].Case != "post-x" {
		t.Errorf("unlisted: %v, want the differences of new and post-x (\\* is a star, not a pattern)", unlisted)
	}
	var stale []string
	for _, e := range l.stale() {
		stale = append(stale, e.String())
	}
	if got := strings.Join(stale, "; "); got != "hi header:Vary; gone status boot35" {
		t.Errorf("stale: %q, want hi's and gone's entries (not other-setup's, whose case did not run)", got)
	}

	if _, err := newLedger(differencesFile); err != nil {
		t.Errorf("the checked-in file: %v", err)
	}
	write("hello status\n\nhi status\n\tits reason\n")
	if _, err := newLedger(file); err == nil || !strings.Contains(err.Error(), "has no reason") {
		t.Errorf("an entry without a reason: %v, want it refused", err)
	}
}
