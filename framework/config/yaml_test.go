package config

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseYAML(t *testing.T) {
	t.Parallel()
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
		{"an empty map is the empty string, as an empty list is", "a: {}\nb: []\nc:\n  d: {}\n",
			[][]Property{{{Key: "a", Value: "", Line: 1, Column: 4}, {Key: "b", Value: "", Line: 2, Column: 4}, {Key: "c.d", Value: "", Line: 4, Column: 6}}}},
		{"a document that is a list stands under the key document", "- a\n- b: c\n---\nx\n",
			[][]Property{{{Key: "document[0]", Value: "a", Line: 1, Column: 3}, {Key: "document[1].b", Value: "c", Line: 2, Column: 6}}, {{Key: "document", Value: "x", Line: 4, Column: 1}}}},
		{"documents that are empty are dropped, whatever their form", "{}\n---\n[]\n---\n''\n---\n~\n", nil},
		{"a key that is a list or a map is skipped", "? [a]\n: x\n? {b: 1}\n: y\nc: z\n",
			[][]Property{{{Key: "c", Value: "z", Line: 5, Column: 4}}}},
		{"an alias to the map that holds it may be a key", "&def1\n*def1: a\ntest:\n  a:\n    spring: 'a'\n",
			[][]Property{{{Key: "test.a.spring", Value: "a", Line: 5, Column: 13}}}},
		{"a map's own keys win over merged ones wherever they stand; the first merged map wins", "a: &a {x: a, y: a}\nb: &b {x: b, z: b}\nc: {x: own, <<: [*a, *b]}\n",
			[][]Property{{{Key: "a.x", Value: "a", Line: 1, Column: 11}, {Key: "a.y", Value: "a", Line: 1, Column: 17},
				{Key: "b.x", Value: "b", Line: 2, Column: 11}, {Key: "b.z", Value: "b", Line: 2, Column: 17},
				{Key: "c.x", Value: "b", Line: 2, Column: 11}, {Key: "c.z", Value: "b", Line: 2, Column: 17},
				{Key: "c.x", Value: "a", Line: 1, Column: 11}, {Key: "c.y", Value: "a", Line: 1, Column: 17},
				{Key: "c.x", Value: "own", Line: 3, Column: 8}}}},
		{"merging an empty map adds nothing", "e: &e {}\nf: {<<: *e, g: 1}\n",
			[][]Property{{{Key: "e", Value: "", Line: 1, Column: 4}, {Key: "f.g", Value: "1", Line: 2, Column: 16}}}},
		{"standard tags are accepted, timestamps stay text", "a: !!str 1\nb: ! 2\nc: 2001-12-14\nd: !!timestamp 2001-12-14\ne: !!map {f: !!int 3}\n",
			[][]Property{{{Key: "a", Value: "1", Line: 1, Column: 4}, {Key: "b", Value: "2", Line: 2, Column: 4}, {Key: "c", Value: "2001-12-14", Line: 3, Column: 4},
				{Key: "d", Value: "2001-12-14", Line: 4, Column: 4}, {Key: "e.f", Value: "3", Line: 5, Column: 14}}}},
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
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"malformed", "a: b\n c: d: e\n", "line 2"},
		{"a tag that names a type", "value: !!java.net.URL [!!java.lang.String [!!java.lang.StringBuilder [\"http://localhost:9000/\"]]]\n",
			"line 1 column 8: the YAML tag !!java.net.URL is not supported"},
		{"a local tag", "a: 1\nb: !foo x\n", "line 2 column 4: the YAML tag !foo is not supported"},
		{"a set", "a: !!set {x, y}\n", "the YAML tag !!set is not supported"},
		{"a tag on a skipped key", "? !!java.net.URL [x]\n: y\n", "line 1 column 3: the YAML tag !!java.net.URL"},
		{"an alias inside the map it stands for", "a: &x\n  b: *x\n", "line 2 column 6: the alias *x stands for a map or list that holds it"},
		{"an alias inside the list it stands for", "a: &x [1, [*x]]\n", "line 1 column 12: the alias *x stands for"},
		{"merging text", "a: &a 1\nb:\n  <<: *a\n", "line 1: a merge key (<<) takes a map or a list of maps"},
		{"merging a list of text", "a: {<<: [x]}\n", "line 1: a merge key (<<) takes a map"},
		{"merge bomb of empty maps", "a: &a {}\nb: &b {<<: [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]}\nc: &c {<<: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]}\nd: &d {<<: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]}\ne: &e {<<: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]}\nf: &f {<<: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]}\n", "more than"},
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
	t.Parallel()
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

// TestParseYAMLBigList is Spring's canLoadFilesBiggerThan3Mb: a 4 MB
// document that is a list of 233,017 entries loads, each under its index.
func TestParseYAMLBigList(t *testing.T) {
	t.Parallel()
	const entry = "- some list entry\n"
	text := strings.Repeat(entry, (4<<20)/len(entry)+1)
	docs, err := ParseYAML(text)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(text, "\n")
	if len(docs) != 1 || len(docs[0]) != n {
		t.Fatalf("got %d documents, the first of %d entries; want 1 of %d", len(docs), len(docs[0]), n)
	}
	last := Property{Key: fmt.Sprintf("document[%d]", n-1), Value: "some list entry", Line: n, Column: 3}
	if docs[0][n-1] != last {
		t.Errorf("last entry %v, want %v", docs[0][n-1], last)
	}
}

func FuzzParseYAML(f *testing.F) {
	for _, seed := range []string{
		"server:\n  port: 80\nhosts: [a, b]\nempty: {}\nnone: []\n",
		"base: &b {x: 1}\nother: {<<: *b, y: 2}\nlist: [*b, *b]\n",
		"&def1\n*def1: a\ntest:\n  a:\n    spring: 'a'\n",
		"a: &x {b: *x}\n",
		"a: &a [x,x]\nb: &b [*a,*a]\nc: [*b,*b]\n",
		"- a\n- b: c\n---\nx\n---\n",
		"value: !!java.net.URL [x]\n",
		"? [a]\n: x\n? {b: 1}\n: y\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		docs, err := ParseYAML(text)
		if err != nil {
			return
		}
		// Entries that are written out take a byte of the text at least;
		// the others come through aliases, which are bounded.
		n := 0
		for _, d := range docs {
			n += len(d)
		}
		if n > len(text)+maxAliasedNodes {
			t.Fatalf("%q: %d entries", text, n)
		}
	})
}

// TestDenseYAMLRefusedBeforeParsing checks that a file too dense to hold
// at most maxFlattenedEntries settings is refused without building its
// tree: parsed, the one-line list below takes hundreds of MiB.
func TestDenseYAMLRefusedBeforeParsing(t *testing.T) {
	// Not parallel: it measures the heap of the whole process.
	for name, text := range map[string]string{
		"a one-line list": "a: [" + strings.Repeat("1,", maxFlattenedEntries) + "1]\n",
		"nested lists":    "a: [" + strings.Repeat("[[[[1]]]],", maxFlattenedEntries/4) + "1]\n",
		"a block list":    "a:\n" + strings.Repeat("- 1\n", maxFlattenedEntries+1),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ParseYAML(text)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "is refused before it is parsed") {
				t.Fatalf("ParseYAML = %v, want the density refusal", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("refusing it allocated %d KiB, want at most 1 MiB", alloc>>10)
			}
		})
	}
}
