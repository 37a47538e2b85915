package config

import (
	"slices"
	"strings"
	"testing"
)

func TestParseYAML(t *testing.T) {
	tests := []struct {
		name string
		text string
		want [][]Property
	}{
		{"nested maps flatten to dotted keys", "server:\n  port: 80\n  servlet:\n    context-path: /x\n",
			[][]Property{{{Key: "server.port", Value: "80", Line: 2, Column: 9}, {Key: "server.servlet.context-path", Value: "/x", Line: 4, Column: 19}}}},
		{"lists flatten to indexed keys", "hosts: [a, b]\nusers:\n  - name: ann\n",
			[][]Property{{{Key: "hosts[0]", Value: "a", Line: 1, Column: 9}, {Key: "hosts[1]", Value: "b", Line: 1, Column: 12}, {Key: "users[0].name", Value: "ann", Line: 3, Column: 11}}}},
		{"scalars keep their text; booleans lower case; null empty", "a: 0x1F\nb: yes\nc: True\nd: ~\ne:\nf: []\ng: '007'\n",
			[][]Property{{{Key: "a", Value: "0x1F", Line: 1, Column: 4}, {Key: "b", Value: "yes", Line: 2, Column: 4}, {Key: "c", Value: "true", Line: 3, Column: 4},
				{Key: "d", Value: "", Line: 4, Column: 4}, {Key: "e", Value: "", Line: 5, Column: 3}, {Key: "f", Value: "", Line: 6, Column: 4}, {Key: "g", Value: "007", Line: 7, Column: 4}}}},
		{"--- separates documents; empty ones are dropped", "a: 1\n---\n---\na: 2\n",
			[][]Property{{{Key: "a", Value: "1", Line: 1, Column: 4}}, {{Key: "a", Value: "2", Line: 4, Column: 4}}}},
		{"aliases and merge keys are followed", "base: &b\n  x: 1\nother:\n  <<: *b\n  y: 2\n",
			[][]Property{{{Key: "base.x", Value: "1", Line: 2, Column: 6}, {Key: "other.x", Value: "1", Line: 2, Column: 6}, {Key: "other.y", Value: "2", Line: 5, Column: 6}}}},
		{"block scalar", "msg: |\n  two\n  lines\n", [][]Property{{{Key: "msg", Value: "two\nlines\n", Line: 1, Column: 6}}}},
		{"empty file", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseYAML(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestParseYAMLErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"malformed", "a: b\n c: d: e\n", "line 2"},
		{"not a map", "- a\n- b\n", "line 1: a settings document must be a map"},
		{"a key that is a map", "? {a: 1}\n: x\n", "line 1: a key must be text"},
		{"alias bomb", "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n", "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseYAML(tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParsePropertiesDocuments(t *testing.T) {
	tests := []struct {
		name string
		text string
		want [][]string // keys per document
	}{
		{"#--- and !--- separate", "a=1\n#---\nb=2\n!---\nc=3\n", [][]string{{"a"}, {"b"}, {"c"}}},
		{"a separator beside a comment of the same kind is a comment", "a=1\n# banner\n#---\n# banner\nb=2\n", [][]string{{"a", "b"}}},
		{"a separator with leading space or more text is a comment", "a=1\n #---\n#----\nb=2\n", [][]string{{"a", "b"}}},
		{"trailing whitespace after a separator is allowed", "a=1\n#--- \t\f\nb=2\n!---  \r\nc=3\n", [][]string{{"a"}, {"b"}, {"c"}}},
		{"text after a separator and whitespace makes a comment", "a=1\n#--- \tcomment\n!--- x\nb=2\n", [][]string{{"a", "b"}}},
		{"a separator inside a continuation is text", "a=1\\\n#---\nb=2\n", [][]string{{"a", "b"}}},
		{"empty documents are dropped", "#---\na=1\n#---\n#---\n", [][]string{{"a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := ParsePropertiesDocuments(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for _, d := range docs {
				var keys []string
				for _, p := range d {
					keys = append(keys, p.Key)
				}
				got = append(got, keys)
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
