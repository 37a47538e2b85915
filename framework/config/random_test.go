package config

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRandomValues checks each form of random value against its range,
// many times over, since a value outside it would show only sometimes.
func TestRandomValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind   string
		lo, hi int64 // lo <= n < hi, for numbers
		format string
	}{
		{kind: "int", lo: -1 << 31, hi: 1 << 31},
		{kind: "long", lo: -1 << 63, hi: 1<<63 - 1},
		{kind: "int(10)", lo: 0, hi: 10},
		{kind: "int(1)", lo: 0, hi: 1},
		{kind: "int[5,10]", lo: 5, hi: 10},
		{kind: "int[-3, 2]", lo: -3, hi: 2},
		{kind: "int[7]", lo: 0, hi: 7},
		{kind: "int(5,6)", lo: 5, hi: 6},
		{kind: "long(10000000000)", lo: 0, hi: 10000000000},
		{kind: "long[-9223372036854775808,9223372036854775807]", lo: -1 << 63, hi: 1<<63 - 1},
		{kind: "uuid", format: `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`},
		{kind: "value", format: `^[0-9a-f]{32}$`},
		{kind: "anything", format: `^[0-9a-f]{32}$`}, // as in Spring
	}
	for _, tt := range tests {
		for range 200 {
			v, err := randomValue(tt.kind)
			if err != nil {
				t.Fatalf("random.%s: %v", tt.kind, err)
			}
			if tt.format != "" {
				if !regexp.MustCompile(tt.format).MatchString(v) {
					t.Fatalf("random.%s = %q, want it to match %s", tt.kind, v, tt.format)
				}
				continue
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < tt.lo || (n >= tt.hi && tt.hi != 1<<63-1) {
				t.Fatalf("random.%s = %q, want %d <= n < %d", tt.kind, v, tt.lo, tt.hi)
			}
		}
	}
}

func TestRandomValueErrors(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"int(0)", "int(-5)", "int[10,5]", "int[5,5]", "int(x)", "int()", "int(1,2,3)", "int(10", "int10",
		"int(2147483648)", "long(9223372036854775808)", "long[1,x]", "integer"} {
		if v, err := randomValue(kind); err == nil {
			t.Errorf("random.%s = %q, want an error", kind, v)
		} else if !strings.Contains(err.Error(), "want (max)") {
			t.Errorf("random.%s: the error %q does not list the accepted forms", kind, err)
		}
	}
}

// TestRandomPlaceholders: each distinct placeholder has one value wherever
// it is used and however often it is read, the environment and the
// command line override random.*, and a bad range is a *SettingError
// naming the setting, the placeholder and the origin.
func TestRandomPlaceholders(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args:  []string{"--a=${random.int(10)}", "--b=${random.int(10)}", "--u=${random.uuid}", "--bad=x${random.int[10,5]}"},
		env:   map[string]string{"RANDOM_LONG": "42"},
		files: map[string]string{"application.properties": "v=${random.value}\nl=${random.long}\n"},
	})
	a := get(t, env, "a").Resolved
	if n, err := strconv.Atoi(a); err != nil || n < 0 || n >= 10 {
		t.Errorf("a = %q, want 0 <= n < 10", a)
	}
	for range 20 {
		if b := get(t, env, "b").Resolved; b != a {
			t.Fatalf("b = %q, a = %q: the same placeholder should have one value", b, a)
		}
		if again := get(t, env, "a").Resolved; again != a {
			t.Fatalf("a read again = %q, first %q", again, a)
		}
	}
	if v := get(t, env, "v").Resolved; len(v) != 32 || env.Resolve("${random.value}") != v {
		t.Errorf("v = %q, want 32 hex characters, the same for every use", v)
	}
	if l := get(t, env, "l").Resolved; l != "42" {
		t.Errorf("l = %q, want 42: RANDOM_LONG in the environment is above the random source", l)
	}
	if u := get(t, env, "u"); u.Raw != "${random.uuid}" || len(u.Resolved) != 36 {
		t.Errorf("u = %+v, want a UUID with the raw value kept", u)
	}

	_, _, err := env.Lookup("bad")
	se, ok := err.(*SettingError)
	if !ok {
		t.Fatalf("bad: %v, want a *SettingError", err)
	}
	for _, w := range []string{"setting bad=", "command-line argument --bad=", `placeholder "${random.int[10,5]}"`, "min < max"} {
		if !strings.Contains(se.Error(), w) {
			t.Errorf("%q lacks %q", se.Error(), w)
		}
	}
}
