package openapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// TestYAMLLayout pins what the encoder is asked for: block style, two
// spaces to a level, sequences indented under their key.
func TestYAMLLayout(t *testing.T) {
	in := object{"paths": object{"/a": object{"get": object{"parameters": []any{object{"in": "path", "name": "id"}}}}}, "tags": []string{"x"}}
	want := `paths:
  /a:
    get:
      parameters:
        - in: path
          name: id
tags:
  - x
`
	if got := mustYAML(t, in); got != want {
		t.Errorf("YAML:\ngot\n%s\nwant\n%s", got, want)
	}
}

// TestYAMLRoundTrip reads what encodeYAML writes with a YAML parser: it
// must be the same data as the JSON.
func TestYAMLRoundTrip(t *testing.T) {
	_, _, doc := serviceDocument(t)
	inputs := []any{
		doc,
		object{
			"": "empty key", " ": "space key", "200": 200, "true": true, "null": nil, "a: b": "x #y",
			"long": strings.Repeat("word ", 100), "lines": "line one\nline two\n",
			strings.Repeat("k", 1100): object{"long": "key"},
			"list":                    []any{object{"a": []any{}, "b": object{}}, []any{[]any{"deep"}}},
			"numbers":                 []any{0, -1, 1.5, -0.25, 1 << 53, int32(-1 << 31)},
		},
		[]any{"top", "level", []any{}},
		"just a string",
	}
	for _, in := range inputs {
		assertSameYAML(t, in)
	}
}

// TestYAMLStrings checks strings that YAML 1.1 or 1.2 would read as
// something else when written plain (booleans, null, numbers, dates,
// indicators, comments) or that need escaping: each must come back as the
// same string, as a value and as a key.
func TestYAMLStrings(t *testing.T) {
	for _, s := range []string{
		"", " lead", "trail ", "plain", "two words", "application/*+json", "$ref", "#/components", "about:blank",
		"true", "False", "yes", "No", "on", "OFF", "y", "N", "null", "Null", "~",
		"123", "-1", "1.5", "0x10", "0x1F", "0o7", "1e3", ".inf", "-.Inf", ".nan", "3.1.0", "2024-01-01", "12:30", "1_000",
		"a: b", "ends:", "a #b", "- item", "-", "? x", "*alias", "&anchor", "!tag", "%directive", "@at", "`tick",
		"|", ">", "[a]", "{a}", `"q"`, "'q'", "<<", "=", `\start`, "---", "...",
		"tab\there", "line\nbreak", "cr\r", "nul\x00", "del\x7f", "nel\u0085", "ls\u2028", "ps\u2029",
		"\ufeffbom", "c1\u0090", "nonchar\uffff", "emoji😀", "Größe",
	} {
		assertSameYAML(t, object{s: []any{s}})
	}
}

// FuzzYAML writes arbitrary strings as keys and values and reads them back.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"", "a", "a: b", " x", "#", "-", "- x", "? x", "1", "0o7", "yes", "~", "\x00", "\u0085", "\ufeff", "\"", "'", "\\", "x\ny", "a #", "[", "{}", "*", "&", "!", "|", ">", "%", "@", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// The document's strings are Go source text and type names,
			// always UTF-8. Other bytes YAML keeps exactly, as !!binary,
			// where JSON writes U+FFFD, so the two rightly differ.
			t.Skip()
		}
		assertSameYAML(t, object{s: []any{s, object{"k": s, s: 1}}})
	})
}

func mustYAML(t *testing.T, v any) string {
	t.Helper()
	out, err := encodeYAML(v)
	if err != nil {
		t.Fatalf("encodeYAML: %v", err)
	}
	return string(out)
}

func assertSameYAML(t *testing.T, in any) {
	t.Helper()
	out := mustYAML(t, in)
	var fromYAML any
	if err := yaml.Unmarshal([]byte(out), &fromYAML); err != nil {
		t.Fatalf("the YAML does not parse: %v\n%s", err, out)
	}
	want, got := normalized(t, in), normalized(t, fromYAML)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("YAML reads back differently:\ngot  %#v\nwant %#v\nYAML:\n%s", got, want, out)
	}
}

// normalized is v as JSON decodes it, so that ints and floats, and the map
// types of different decoders, compare equal.
func normalized(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%v: %v", v, err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
