package openapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/inmem"
)

func TestYAMLGolden(t *testing.T) {
	in := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "greeter", "version": "(devel)"},
		"paths": map[string]any{
			"/api/hello/{id}": map[string]any{"get": map[string]any{
				"parameters": []any{map[string]any{"in": "path", "name": "id", "required": true}},
				"responses": map[string]any{
					"200": map[string]any{"description": "OK"},
					"404": map[string]any{"$ref": "#/components/responses/NotFound"},
				},
			}},
		},
		"empty":  map[string]any{},
		"none":   []any{},
		"null":   nil,
		"nested": []any{[]any{1, 2}, []any{}, "x", map[string]any{}},
		"number": 1.5,
		"text":   "line one\nline two",
	}
	want := `empty: {}
info:
  title: greeter
  version: (devel)
nested:
  - - 1
    - 2
  - []
  - x
  - {}
none: []
"null": null
number: 1.5
openapi: "3.1.0"
paths:
  /api/hello/{id}:
    get:
      parameters:
        - in: path
          name: id
          required: true
      responses:
        "200":
          description: OK
        "404":
          $ref: "#/components/responses/NotFound"
text: "line one\nline two"
`
	if got := string(YAML(in)); got != want {
		t.Errorf("YAML:\ngot\n%s\nwant\n%s", got, want)
	}
}

func TestYAMLScalars(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"plain", "plain"},
		{"two words", "two words"},
		{"application/json", "application/json"},
		{"application/*+json", "application/*+json"},
		{"$ref", "$ref"},
		{"_x", "_x"},
		{"about:blank", "about:blank"},
		{"GET, HEAD", "GET, HEAD"},
		{"it's", "it's"},
		{"Größe", "Größe"},
		{"", `""`},
		{" lead", `" lead"`},
		{"trail ", `"trail "`},
		{"a: b", `"a: b"`},
		{"ends:", `"ends:"`},
		{"a #b", `"a #b"`},
		{"#/components", `"#/components"`},
		{"-1", `"-1"`},
		{"- item", `"- item"`},
		{"123", `"123"`},
		{"1.5", `"1.5"`},
		{"0x1F", `"0x1F"`},
		{"1e3", `"1e3"`},
		{".inf", `".inf"`},
		{"3.1.0", `"3.1.0"`},
		{"2024-01-01", `"2024-01-01"`},
		{"12:30", `"12:30"`},
		{"true", `"true"`},
		{"False", `"False"`},
		{"yes", `"yes"`},
		{"No", `"No"`},
		{"on", `"on"`},
		{"OFF", `"OFF"`},
		{"y", `"y"`},
		{"N", `"N"`},
		{"null", `"null"`},
		{"Null", `"Null"`},
		{"~", `"~"`},
		{"*alias", `"*alias"`},
		{"&anchor", `"&anchor"`},
		{"!tag", `"!tag"`},
		{"%directive", `"%directive"`},
		{"@at", `"@at"`},
		{"`tick", "\"`tick\""},
		{"|", `"|"`},
		{">", `">"`},
		{"[a]", `"[a]"`},
		{"{a}", `"{a}"`},
		{`"q"`, `"\"q\""`},
		{"'q'", `"'q'"`},
		{`back\slash`, `back\slash`},
		{`\start`, `"\\start"`},
		{"tab\there", `"tab\there"`},
		{"cr\r", `"cr\r"`},
		{"nul\x00", `"nul\x00"`},
		{"del\x7f", `"del\x7F"`},
		{"nel\u0085", `"nel\N"`},
		{"ls\u2028", `"ls\L"`},
		{"ps\u2029", `"ps\P"`},
		{"bom\ufeff", `"bom\uFEFF"`},
		{"c1\u0090", `"c1\x90"`},
		{"nonchar\uffff", `"nonchar\uFFFF"`},
		{"emoji😀", "emoji😀"},
		{nil, "null"},
		{true, "true"},
		{42, "42"},
		{-0.25, "-0.25"},
	}
	for _, tt := range tests {
		if got := strings.TrimSuffix(string(YAML(tt.in)), "\n"); got != tt.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestYAMLRoundTrip reads what YAML writes with a YAML parser: it must be
// the same data as the JSON.
func TestYAMLRoundTrip(t *testing.T) {
	routes, err := dispatch.Describe(api.Routes("Hello World!", &inmem.Messages{}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	inputs := []any{
		Document(Info{Title: "greeter", Version: "(devel)"}, routes),
		map[string]any{
			"": "empty key", " ": "space key", "200": 200, "true": true, "null": nil, "a: b": "x #y",
			strings.Repeat("k", 1100): map[string]any{"long": "key"},
			"list":                    []any{map[string]any{"a": []any{}, "b": map[string]any{}}, []any{[]any{"deep"}}},
		},
		[]any{"top", "level", []any{}},
		"just a string",
	}
	for _, in := range inputs {
		assertSameYAML(t, in)
	}
}

func assertSameYAML(t *testing.T, in any) {
	t.Helper()
	out := YAML(in)
	var fromYAML any
	if err := yaml.Unmarshal(out, &fromYAML); err != nil {
		t.Fatalf("the YAML does not parse: %v\n%s", err, out)
	}
	want, got := normalized(t, in), normalized(t, fromYAML)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("YAML reads back differently:\ngot  %v\nwant %v\nYAML:\n%s", got, want, out)
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

// FuzzYAML writes arbitrary strings as keys and values and reads them back.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"", "a", "a: b", " x", "#", "-", "- x", "? x", "1", "0o7", "yes", "~", "\x00", "\u0085", "\ufeff", "\"", "'", "\\", "x\ny", "a #", "[", "{}", "*", "&", "!", "|", ">", "%", "@", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assertSameYAML(t, map[string]any{s: []any{s, map[string]any{"k": s, s: 1}}})
	})
}
