package dispatch

import (
	"fmt"
	"strings"
	"testing"
)

// show renders media types compactly for comparison: "text/html;p=1;q=500".
// The charset, when there is one, is shown as c=value.
func show(ms []mediaType) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = showOne(m)
	}
	return strings.Join(parts, ", ")
}

func showOne(m mediaType) string {
	s := m.String()
	if m.params > 0 {
		s += fmt.Sprintf(";p=%d", m.params)
	}
	if m.charset != "" {
		s += ";c=" + m.charset
	}
	return s + fmt.Sprintf(";q=%d", m.q)
}

func mustParse(t testing.TB, s string) mediaType {
	t.Helper()
	m, err := parseMediaType(s)
	if err != nil {
		t.Fatalf("parseMediaType(%q): %v", s, err)
	}
	return m
}

func TestParseMediaType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // showOne of the result; "" means an error
	}{
		{"application/json", "application/json;q=1000"},
		{"Application/JSON", "application/json;q=1000"},
		{"  text/plain ; charset=UTF-8  ", "text/plain;p=1;c=UTF-8;q=1000"},
		{`text/plain;charset="utf-8"`, "text/plain;p=1;c=utf-8;q=1000"},
		{"text/plain;CHARSET=us-ascii", "text/plain;p=1;c=us-ascii;q=1000"},
		{"text/*;q=0.5", "text/*;q=500"},
		{"text/*;Q=0.25", "text/*;q=250"},
		{"*/*;q=0", "*/*;q=0"},
		{"*/*;q=0.", "*/*;q=0"},
		{"*/*;q=0.001", "*/*;q=1"},
		{"a/b;q=1", "a/b;q=1000"},
		{"a/b;q=1.0", "a/b;q=1000"},
		{"a/b;q=1.000", "a/b;q=1000"},
		{"*", "*/*;q=1000"},
		{"*;q=0.1", "*/*;q=100"},
		{"text/html;level=1;q=0.3", "text/html;p=1;q=300"},
		{"text/html;q=0.3;level=1;x=y", "text/html;p=2;q=300"},
		{"a/b;", "a/b;q=1000"},
		{"a/b; ;", "a/b;q=1000"},
		{`a/b;x="semi;colon"`, "a/b;p=1;q=1000"},
		{`a/b;x="comma,inside"`, "a/b;p=1;q=1000"},
		{`a/b;x="esc\"aped;still"`, "a/b;p=1;q=1000"},
		{`a/b;x=""`, "a/b;p=1;q=1000"},
		{"application/*+json", "application/*+json;q=1000"},
		{"application/vnd.foo+json; charset=utf-8", "application/vnd.foo+json;p=1;c=utf-8;q=1000"},

		{"", ""},
		{"   ", ""},
		{";q=1", ""},
		{"json", ""},
		{"/json", ""},
		{"application/", ""},
		{"*/json", ""},
		{"a/b/c", ""},
		{"a b/c", ""},
		{"a/b c", ""},
		{"a(/b", ""},
		{"tëxt/plain", ""},
		{"a/b;q=2", ""},
		{"a/b;q=1.001", ""},
		{"a/b;q=0.1234", ""},
		{"a/b;q=.5", ""},
		{"a/b;q=-0", ""},
		{"a/b;q=0,5", ""},
		{"a/b;q=abc", ""},
		{"a/b;q=", ""},
		{`a/b;q="0.5"x`, ""},
		{"a/b;foo", ""},
		{"a/b;=x", ""},
		{"a/b;x=y z", ""},
		{`a/b;x="unterminated`, ""},
		{`a/b;x=a"b`, ""},
	}
	for _, tt := range tests {
		m, err := parseMediaType(tt.in)
		got := ""
		if err == nil {
			got = showOne(m)
		}
		if got != tt.want {
			t.Errorf("%q:\ngot  %v (err %v)\nwant %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseQuality(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int // -1: not a qvalue
	}{
		{"0", 0}, {"1", 1000}, {"0.5", 500}, {"0.05", 50}, {"0.005", 5},
		{"0.", 0}, {"1.", 1000}, {"1.000", 1000}, {"0.999", 999},
		{"", -1}, {"2", -1}, {"1.5", -1}, {"1.0001", -1}, {"0.0000", -1},
		{"00", -1}, {"0..", -1}, {"0.a", -1}, {".5", -1}, {"-0", -1}, {"1e0", -1},
	}
	for _, tt := range tests {
		q, ok := parseQuality(tt.in)
		got := q
		if !ok {
			got = -1
		}
		if got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.in, got, tt.want)
		}
	}
}

func TestParseAccept(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // show of the result; "error" for a refused header
	}{
		{"", ""},
		{" , ,, ", ""},
		{"text/html", "text/html;q=1000"},
		{"*", "*/*;q=1000"},
		{"*, text/html", "text/html;q=1000, */*;q=1000"},
		// Specificity: a/b before a/* before */*.
		{"*/*, text/*, text/html", "text/html;q=1000, text/*;q=1000, */*;q=1000"},
		// Quality first, then specificity.
		{"*/*;q=0.1, text/html;q=0.5, application/json", "application/json;q=1000, text/html;q=500, */*;q=100"},
		{"text/html;q=0.5, */*", "*/*;q=1000, text/html;q=500"},
		// More parameters before fewer, at equal quality and type.
		{"text/html, text/html;level=1", "text/html;p=1;q=1000, text/html;q=1000"},
		{"text/html;level=1;q=0.5, text/html;q=0.5;a=b;c=d", "text/html;p=2;q=500, text/html;p=1;q=500"},
		// Stable among equals: the header's order.
		{"b/b, a/a, c/c", "b/b;q=1000, a/a;q=1000, c/c;q=1000"},
		{"b/*;q=0.5, a/*;q=0.5", "b/*;q=500, a/*;q=500"},
		// q=0 sorts last.
		{"text/xml;q=0, */*", "*/*;q=1000, text/xml;q=0"},
		{"text/xml;q=0, application/json;q=0.001", "application/json;q=1, text/xml;q=0"},
		// Empty elements are skipped.
		{", text/html,, ,application/json,", "text/html;q=1000, application/json;q=1000"},
		// Quoted parameter values may hold commas and semicolons.
		{`a/b;x="1,2;3", c/d;q=0.5`, "a/b;p=1;q=1000, c/d;q=500"},
		{`a/b;x="\",";q=0.2, c/d`, "c/d;q=1000, a/b;p=1;q=200"},
		{"Text/HTML;Q=0.7", "text/html;q=700"},

		{"text/html;q=2", "error"},
		{"text", "error"},
		{"text/html, foo", "error"},
		{"text/html;;q", "error"},
		{"text/html, */html", "error"},
		{`a/b;x="unterminated, c/d`, "error"},
		{"a/b;q=0.5x", "error"},
	}
	for _, tt := range tests {
		ms, err := parseAccept(tt.in, nil)
		got := show(ms)
		if err != nil {
			got = "error"
			if ms != nil {
				t.Errorf("%q: error %v with ranges %v", tt.in, err, show(ms))
			}
		}
		if got != tt.want {
			t.Errorf("%q:\ngot  %v (err %v)\nwant %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseAcceptReusesBuffer(t *testing.T) {
	t.Parallel()
	var store [4]mediaType
	ms, err := parseAccept("text/html, application/json;q=0.5", store[:0])
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || &ms[0] != &store[0] {
		t.Errorf("ranges %v do not use the given buffer", show(ms))
	}
}

func TestIncludes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rng, typ string
		want     bool
	}{
		{"*/*", "application/json", true},
		{"*/*", "text/plain", true},
		{"*", "image/png", true},
		{"text/*", "text/xml", true},
		{"text/*", "text/plain", true},
		{"text/*", "application/xml", false},
		{"application/json", "application/json", true},
		{"Application/JSON", "application/json", true},
		{"application/json", "application/xml", false},
		{"application/json", "application/vnd.foo+json", false},
		{"application/json;charset=utf-8", "application/json", true},
		{"application/json", "application/json;charset=iso-8859-1", true},
		{"application/*+json", "application/vnd.foo+json", true},
		{"application/*+json", "application/problem+json", true},
		{"application/*+json", "application/json", true},
		{"application/*+json", "application/xml", false},
		{"application/*+json", "application/vnd.foo+xml", false},
		{"application/*+json", "text/foo+json", false},
		{"application/*+json", "application/jsonx+json", true},
		{"application/*+xml", "application/atom+xml", true},
		{"application/*+xml", "application/xml", true},
		{"application/*", "application/vnd.foo+json", true},
		{"application/xml", "*/*", false},
	}
	for _, tt := range tests {
		in := tt.rng + " includes " + tt.typ
		got := mustParse(t, tt.rng).includes(mustParse(t, tt.typ))
		if got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", in, got, tt.want)
		}
	}
}

func TestNegotiate(t *testing.T) {
	t.Parallel()
	objects := []string{"application/json", "application/xml", "text/xml"}
	text := []string{"text/plain"}
	xmlFirst := []string{"text/xml", "application/json"}
	tests := []struct {
		accept     string
		producible []string
		want       int
	}{
		{"", objects, 0},
		{"", text, 0},
		{"*/*", objects, 0},
		{"*", objects, 0},
		{"application/json", objects, 0},
		{"application/xml", objects, 1},
		{"text/xml", objects, 2},
		{"text/*", objects, 2},
		{"application/*", objects, 0},
		{"text/xml;q=0, */*", objects, 0},
		{"text/xml;q=0, */*", xmlFirst, 1},
		{"text/xml;q=0, */*", []string{"text/xml"}, -1},
		{"text/xml;q=0, text/*", objects, -1},
		{"*/*, application/json;q=0", objects, 1},
		{"*/*, application/*;q=0", objects, 2},
		{"application/json;q=0", objects, -1},
		{"*/*;q=0", objects, -1},
		{"*/*;q=0, application/xml", objects, 1},
		{"application/xml;q=0.9, application/json", objects, 0},
		{"application/json;q=0.9, application/xml", objects, 1},
		{"application/json;q=0.5, text/*;q=0.6", objects, 2},
		{"text/html, application/xml;q=0.1", objects, 1},
		{"text/html", objects, -1},
		{"image/png, image/*", objects, -1},
		{"text/plain", text, 0},
		{"text/*", text, 0},
		{"*/*", text, 0},
		{"application/json", text, -1},
		{"text/plain;q=0", text, -1},
		{"text/plain;charset=utf-8", text, 0},
		{"application/xml;charset=utf-8", objects, 1},
	}
	for _, tt := range tests {
		ranges, err := parseAccept(tt.accept, nil)
		if err != nil {
			t.Fatalf("%q: %v", tt.accept, err)
		}
		var producible []mediaType
		for _, s := range tt.producible {
			producible = append(producible, mustParse(t, s))
		}
		in := tt.accept + " from " + strings.Join(tt.producible, ", ")
		if got, _ := negotiate(ranges, producible); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", in, got, tt.want)
		}
	}
}

// The writer tables are parsed at init; their order is what negotiation
// falls back on, so it is part of the behaviour.
func TestWriterOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		writers []representation
		want    string
	}{
		{"objects", objectWriters, "application/json, application/*+json, application/xml, text/xml, application/*+xml"},
		{"text", textWriters, "text/plain"},
		{"readers", bodyReaders, "application/json, application/*+json, application/xml, text/xml, application/*+xml"},
	}
	for _, tt := range tests {
		if got := listTypes(tt.writers); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.name, got, tt.want)
		}
	}
}

var acceptSeeds = []string{
	"",
	"*/*",
	"*",
	"text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8",
	"application/json;q=0.5, text/*;q=0.6, */*;q=0",
	`a/b;x="1,2;3", c/d;q=0.5`,
	`a/b;x="\"", c/d`,
	", ,,text/plain,",
	"text/html;level=1;q=0.3",
	"text/xml;q=0, */*",
	"a/b;q=1.0001",
	`a/b;x="unterminated, c/d`,
	"application/*+json",
	"\x00/\xff",
}

func FuzzParseAccept(f *testing.F) {
	for _, s := range acceptSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		ranges, err := parseAccept(header, nil)
		if err != nil {
			return
		}
		for i, m := range ranges {
			if m.q < 0 || m.q > 1000 {
				t.Fatalf("%q: range %d has q=%d", header, i, m.q)
			}
			if m.typ == "" || m.sub == "" || (m.typ == "*" && m.sub != "*") {
				t.Fatalf("%q: range %d is %q", header, i, m)
			}
			if i == 0 {
				continue
			}
			prev := ranges[i-1]
			if prev.q < m.q || (prev.q == m.q && prev.specificity() < m.specificity()) {
				t.Fatalf("%q: not sorted: %s before %s", header, showOne(prev), showOne(m))
			}
		}
		// Negotiation must not panic whatever the ranges.
		if i, _ := negotiate(ranges, []mediaType{objectWriters[0].mediaType, objectWriters[1].mediaType}); i < -1 || i > 1 {
			t.Fatalf("%q: negotiate returned %d", header, i)
		}
	})
}

func FuzzParseMediaType(f *testing.F) {
	for _, s := range acceptSeeds {
		f.Add(s)
	}
	for _, s := range []string{"application/json;charset=UTF-8", "Application/JSON; Charset=UTF-8", "text/*;q=0.5", "a/b;q=", "*/json"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseMediaType(s)
		if err != nil {
			return
		}
		if m.q < 0 || m.q > 1000 || m.params < 0 {
			t.Fatalf("%q: parsed as %s", s, showOne(m))
		}
		if m.typ != strings.ToLower(m.typ) || m.sub != strings.ToLower(m.sub) {
			t.Fatalf("%q: type %q is not lower-cased", s, m)
		}
		if m.typ == "*" && m.sub != "*" {
			t.Fatalf("%q: parsed as %q", s, m)
		}
		again, err := parseMediaType(m.String())
		if err != nil || again.typ != m.typ || again.sub != m.sub {
			t.Fatalf("%q: %q does not parse back (%v)", s, m, err)
		}
		if !m.includes(m) {
			t.Fatalf("%q: %q does not include itself", s, m)
		}
	})
}
