package config

import (
	"fmt"
	"strings"
	"testing"
)

// chainFile is a properties file of n keys c0..c(n-1), each ${the next},
// the last holding "end".
func chainFile(n int) string {
	var b strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&b, "c%d=${c%d}\n", i, i+1)
	}
	fmt.Fprintf(&b, "c%d=end\n", n-1)
	return b.String()
}

// TestRememberedNamesKeepTheDepthLimit looks the keys of one chain up in
// every order: what the Environment remembers of a name must give the
// answer a fresh resolution gives, where the name is met deep or
// shallow.
func TestRememberedNamesKeepTheDepthLimit(t *testing.T) {
	t.Parallel()
	const n = 40 // c0..c7 nest more than 32 deep; c8..c39 do not
	orders := map[string][]int{"first to last": {}, "last to first": {}, "from the middle": {}}
	for i := range n {
		orders["first to last"] = append(orders["first to last"], i)
		orders["last to first"] = append(orders["last to first"], n-1-i)
		orders["from the middle"] = append(orders["from the middle"], (i+n/2)%n)
	}
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			env := mustLoad(t, loadCase{files: map[string]string{"application.properties": chainFile(n)}})
			for _, i := range order {
				v, _, err := env.Lookup(fmt.Sprintf("c%d", i))
				tooDeep := n-1-i > maxPlaceholderDepth
				switch {
				case tooDeep && (err == nil || !strings.Contains(err.Error(), "nested more than 32 deep")):
					t.Errorf("c%d: got %q, %v; want an error: it nests %d deep", i, v.Resolved, err, n-1-i)
				case !tooDeep && (err != nil || v.Resolved != "end"):
					t.Errorf("c%d: got %q, %v; want end", i, v.Resolved, err)
				}
			}
		})
	}
}

// TestRememberedNamesKeepCyclesAndSecrets: a cycle is an error from
// wherever it is entered, and a value taken from a secret stays masked
// however often it is read.
func TestRememberedNamesKeepCyclesAndSecrets(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{files: map[string]string{"application.properties": "a=${b}\nb=${c}\nc=${a}\nx=${db.password}\ny=${x}\ndb.password=s3cret\n"}})
	for _, k := range []string{"a", "b", "c", "a"} {
		if _, _, err := env.Lookup(k); err == nil || !strings.Contains(err.Error(), "circular") {
			t.Errorf("%s: got %v, want a circular reference", k, err)
		}
	}
	for range 2 {
		_, _, err := env.Lookup("y")
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := env.Lookup("y")
		if se := (&SettingError{Value: v, Reason: "bad"}); strings.Contains(se.Error(), "s3cret") {
			t.Errorf("the secret shows: %s", se)
		}
	}
}

// TestLongChainsResolveInLinearTime reads every key of a long chain: each
// is too deep, and the whole takes about as many steps as the chain is
// long, not 32 times as many.
func TestLongChainsResolveInLinearTime(t *testing.T) {
	t.Parallel()
	const n = 20_000
	env := mustLoad(t, loadCase{files: map[string]string{"application.properties": chainFile(n)}})
	for _, lenient := range []bool{false, true} {
		lookups := 0
		for i := range n {
			r := env.resolver(func(name string) (string, bool, error) {
				lookups++
				return env.rawValue(name)
			}, lenient, false)
			if _, err := resolveWith(r, fmt.Sprintf("${c%d}", i)); i < n-maxPlaceholderDepth-1 && err == nil {
				t.Fatalf("lenient=%v: c%d resolved; want too deep", lenient, i)
			}
		}
		if lookups > 3*n {
			t.Errorf("lenient=%v: %d look-ups for a chain of %d, want at most %d", lenient, lookups, n, 3*n)
		}
	}
}

// TestLimitsAdmitSpringsBigFile: Spring's test of a big YAML file, 4 MB
// of list entries, stays within the limits on settings.
func TestLimitsAdmitSpringsBigFile(t *testing.T) {
	t.Parallel()
	line := "- some list entry\n"
	text := "list:\n" + strings.Repeat("  "+line, 4_194_304/len(line)+1)
	docs, err := ParseYAML(text)
	if err != nil || len(docs) != 1 || len(docs[0]) != 233_017 {
		t.Fatalf("got %d documents (%v), want one of 233,017 settings", len(docs), err)
	}
}
