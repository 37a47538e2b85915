package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// props renders entries compactly so that a table row fits on one line.
func props(ps []Property) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%d:%q=%q", p.Line, p.Key, p.Value)
	}
	return strings.Join(parts, " ")
}

// outcome is result, or "error: " and the error's text, so that one table
// holds both what succeeds and what fails.
func outcome(result string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return result
}

func TestParseProperties(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
	}{
		// Separators and the whitespace around them.
		{"key=value", `1:"key"="value"`},
		{"key:value", `1:"key"="value"`},
		{"key value", `1:"key"="value"`},
		{"key = value", `1:"key"="value"`},
		{"key : value", `1:"key"="value"`},
		{"key\tvalue", `1:"key"="value"`},
		{"key\fvalue", `1:"key"="value"`},
		{"  key=value", `1:"key"="value"`},
		{"\t\fkey=value", `1:"key"="value"`},
		{"key   =   value", `1:"key"="value"`},
		{"key value = x", `1:"key"="value = x"`},
		{"key==value", `1:"key"="=value"`},
		{"key=:value", `1:"key"=":value"`},
		{"key :=value", `1:"key"="=value"`},
		{"key  :  :value", `1:"key"=":value"`},
		{"key=value=more", `1:"key"="value=more"`},
		{"key=a b  c", `1:"key"="a b  c"`},
		// Trailing whitespace of a value is kept, as in Java.
		{"key = value  \t", `1:"key"="value  \t"`},
		{"key=", `1:"key"=""`},
		{"key", `1:"key"=""`},
		{"key   ", `1:"key"=""`},
		{"key:", `1:"key"=""`},
		{"=value", `1:""="value"`},
		{":value", `1:""="value"`},
		{"=", `1:""=""`},
		// Comments and blank lines.
		{"# comment\nkey=value", `2:"key"="value"`},
		{"! comment\nkey=value", `2:"key"="value"`},
		{"   # indented comment\nkey=value", `2:"key"="value"`},
		{"key=value # not a comment", `1:"key"="value # not a comment"`},
		{"key=#value", `1:"key"="#value"`},
		{"\n\n  \n\t\nkey=value\n\n", `5:"key"="value"`},
		{"# comment \\\nkey=value", `2:"key"="value"`},
		{"! comment \\\nkey=value", `2:"key"="value"`},
		{"#", ``},
		{"", ``},
		{"   ", ``},
		// Continuation lines.
		{"key=a\\\n   b", `1:"key"="ab"`},
		{"key=a \\\n   b", `1:"key"="a b"`},
		{"key=a\\\n\tb\\\n  c\nnext=d", `1:"key"="abc" 4:"next"="d"`},
		{"key=a\\\n# not a comment", `1:"key"="a# not a comment"`},
		{"key=a\\\n  ! not a comment", `1:"key"="a! not a comment"`},
		{"key=a\\", `1:"key"="a"`},
		{"key=a\\\n", `1:"key"="a"`},
		{"key=a\\\n   ", `1:"key"="a"`},
		{"key=a\\\n\nnext=b", `1:"key"="a" 3:"next"="b"`},
		{"key=a\\\\\nnext=b", `1:"key"="a\\" 2:"next"="b"`},
		{"key=a\\\\\\\nb", `1:"key"="a\\b"`},
		{"key=a\\\\\\\\\nnext=b", `1:"key"="a\\\\" 2:"next"="b"`},
		// An entry's line is the one where its value starts, as Spring
		// reports a value's origin.
		{"ke\\\n  y=value", `2:"key"="value"`},
		{"key\\\n  =value", `2:"key"="value"`},
		{"key=\\\n  value", `2:"key"="value"`},
		{"key=\\\n!value", `2:"key"="!value"`},
		{"key = \\\n  \\\n  value", `3:"key"="value"`},
		{"key=a\\\n  b", `1:"key"="ab"`},
		{"key\\\n  value", `2:"keyvalue"=""`},
		{"\\\n  key=value", `2:"key"="value"`},
		// The list shorthand: name[] splits its value at unescaped commas.
		{"foods[]=Apple,\\\nOrange,\\\n  Strawberry", `1:"foods[0]"="Apple" 2:"foods[1]"="Orange" 3:"foods[2]"="Strawberry"`},
		{"a[] = x, y ,z", `1:"a[0]"="x" 1:"a[1]"="y " 1:"a[2]"="z"`},
		{"a[]=", `1:"a[0]"=""`},
		{"a[]", `1:"a[0]"=""`},
		{"a[]=x,", `1:"a[0]"="x"`},
		{"a[]=x, ", `1:"a[0]"="x" 1:"a[1]"=""`},
		{"a[]=,x,,y", `1:"a[0]"="" 1:"a[1]"="x" 1:"a[2]"="" 1:"a[3]"="y"`},
		{`a[]=x\,y,\u002Cz`, `1:"a[0]"="x,y" 1:"a[1]"=",z"`},
		{`a[]=x\\,y`, `1:"a[0]"="x\\" 1:"a[1]"="y"`},
		{"a\\[]=x,y", `1:"a[0]"="x" 1:"a[1]"="y"`},
		{"[]=x", `1:"[0]"="x"`},
		{"a[0]=x,y", `1:"a[0]"="x,y"`},
		{"a[]=x,\\\n\\u00G1", `error: line 2: malformed \uXXXX escape`},
		// Line terminators.
		{"a=1\r\nb=2\r\n", `1:"a"="1" 2:"b"="2"`},
		{"a=1\rb=2\r", `1:"a"="1" 2:"b"="2"`},
		{"a=1\n\rb=2", `1:"a"="1" 3:"b"="2"`},
		{"a=1\\\r\n  2\r\nb=3", `1:"a"="12" 3:"b"="3"`},
		{"a=1\\\r  2\rb=3", `1:"a"="12" 3:"b"="3"`},
		{"# c \\\r\na=1", `2:"a"="1"`},
		{"\r\n\r\na=1", `3:"a"="1"`},
		// Line numbers after continuations.
		{"a=1\\\n2\\\n3\nb=4\n\n# c\nc=5\\\n6\nd=7", `1:"a"="123" 4:"b"="4" 7:"c"="56" 9:"d"="7"`},
		// Escapes.
		{`key=\t\n\r\f`, `1:"key"="\t\n\r\f"`},
		{`key=\u0041`, `1:"key"="A"`},
		{`key=\u00e9\u00E9`, `1:"key"="éé"`},
		{`key=\u00411`, `1:"key"="A1"`},
		{`\u0041=b`, `1:"A"="b"`},
		{`key=\uD83D\uDE00`, `1:"key"="😀"`},
		{`key=\uD83Dx`, "1:\"key\"=\"\uFFFDx\""},
		{`key=\uDE00`, "1:\"key\"=\"\uFFFD\""},
		{`key=\uD83D\u0041`, "1:\"key\"=\"\uFFFDA\""},
		{"key=\\u00\\\n  41", `1:"key"="A"`},
		{`a\=b=c`, `1:"a=b"="c"`},
		{`a\:b:c`, `1:"a:b"="c"`},
		{`a\ b c`, `1:"a b"="c"`},
		{`a\	b c`, `1:"a\tb"="c"`},
		{`\#a=b`, `1:"#a"="b"`},
		{`\!a=b`, `1:"!a"="b"`},
		{`a\\=b`, `1:"a\\"="b"`},
		{`a\\\=b=c`, `1:"a\\=b"="c"`},
		{`key=\\`, `1:"key"="\\"`},
		{`key=\q\z\é`, `1:"key"="qzé"`},
		{`key=\ value`, `1:"key"=" value"`},
		{`key=C:\\dir`, `1:"key"="C:\\dir"`},
		{`key=C:\dir`, `1:"key"="C:dir"`},
		// Placeholders are returned raw.
		{"url=${host:localhost}:${port}", `1:"url"="${host:localhost}:${port}"`},
		// Duplicates are all returned, in order.
		{"a=1\nb=2\na=3", `1:"a"="1" 2:"b"="2" 3:"a"="3"`},
		// UTF-8 text and a byte order mark.
		{"größe=groß", `1:"größe"="groß"`},
		{"\uFEFFkey=value", `1:"key"="value"`},
		{"key=\uFEFFvalue", `1:"key"="\ufeffvalue"`},
		// Errors name the physical line.
		{`key=\u00G1`, `error: line 1: malformed \uXXXX escape`},
		{`key=\u004`, `error: line 1: malformed \uXXXX escape`},
		{`key=\u`, `error: line 1: malformed \uXXXX escape`},
		{`\uZZZZ=value`, `error: line 1: malformed \uXXXX escape`},
		{"a=1\n# c\nkey=\\u00G1", `error: line 3: malformed \uXXXX escape`},
		{"a=1\r\nb=2\r\nkey=\\u00G1", `error: line 3: malformed \uXXXX escape`},
		{"key=a\\\n  b\\\n  \\u12", `error: line 3: malformed \uXXXX escape`},
		{"key=\\u00\\\n  G1", `error: line 1: malformed \uXXXX escape`},
		{"a=1\nb=\xff", `error: line 2: invalid UTF-8`},
		{"# \xc3\na=1", `error: line 1: invalid UTF-8`},
		{"a=1\r\n\r\n\xe2\x82=2", `error: line 3: invalid UTF-8`},
	}
	for _, tt := range tests {
		ps, err := ParseProperties(tt.in)
		if got := outcome(props(ps), err); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseProperties(f *testing.F) {
	for _, seed := range []string{
		"key=value\nkey2 : value2\nkey3 value3\n",
		"# comment \\\n! other\n  a=1\\\n   2\\\n\nb=\\u0041\\uD83D\\uDE00",
		"a=1\r\nb=2\rc=3\n\r",
		`a\=b\:c\ d=\t\n\r\f\\`,
		"key=\\u00G1",
		"key=a\\",
		"\uFEFF=\n:\n \n\\\n",
		"a=\xff",
		"foods[]=Apple,\\\nOrange,\\\n  Mango\nx[] = a\\,b, ,\n",
		"a=1\n#--- \t\nb=2\n!---x\nc=3",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParseProperties(text)
		if err != nil {
			return
		}
		last := 1
		for _, p := range ps {
			if p.Line < last {
				t.Fatalf("%q:\nline %d after line %d in %v", text, p.Line, last, props(ps))
			}
			last = p.Line
		}
	})
}

func TestResolvePlaceholders(t *testing.T) {
	t.Parallel()
	values := map[string]string{
		"a":        "A",
		"b":        "B",
		"empty":    "",
		"host":     "example.org",
		"url":      "http://${host}:${port:8080}",
		"x":        "${y}",
		"y":        "${z}",
		"z":        "Z",
		"env":      "prod",
		"prod.url": "https://prod",
		"twice":    "${a}${a}",
		"braces":   "{not a placeholder}",
		"dollar":   "$",
		"a:b":      "colon key",
		// Values that cannot resolve.
		"a.b":    "${a.b}",
		"ping":   "x${pong}",
		"pong":   "${ping}",
		"broken": "${open",
		"via":    "${missing}",
		"self":   "${missing:${self}}",
	}
	// chain0 refers to chain1 and so on: 40 levels, deeper than allowed.
	for i := range 40 {
		values[fmt.Sprintf("chain%d", i)] = fmt.Sprintf("${chain%d}", i+1)
	}
	// bomb0 doubles at every level: within the depth limit, but 2^30 lookups.
	for i := range 30 {
		values[fmt.Sprintf("bomb%d", i)] = fmt.Sprintf("${bomb%d}${bomb%d}", i+1, i+1)
	}
	values["bomb30"] = "x"
	lookup := func(name string) (string, bool) {
		v, ok := values[name]
		return v, ok
	}
	tests := []struct {
		in   string
		want string
	}{
		{"", ""},
		{"plain", "plain"},
		{"${a}", "A"},
		{"x${a}y${b}z", "xAyBz"},
		{"${a}${a}", "AA"},
		{"${empty}", ""},
		{"${empty:default}", ""},
		{"${missing:default}", "default"},
		{"${missing:}", ""},
		{"${a:default}", "A"},
		{"${missing:${b}}", "B"},
		{"${missing:${b:c}}", "B"},
		{"${missing:${also.missing:c}}", "c"},
		{"${a:${missing}}", "A"},
		{"${missing:a:b}", "a:b"},
		{"${missing:http://host:80}", "http://host:80"},
		{"${url}", "http://example.org:8080"},
		{"${x}", "Z"},
		{"${twice}-${twice}", "AA-AA"},
		{"${${env}.url}", "https://prod"},
		{"${${missing:env}}", "prod"},
		{"${${missing:a}:fallback}", "A"},
		{"${missing:{x}}", "{x}"},
		{"${missing{x:y}}", "y}"},
		{"${braces}", "{not a placeholder}"},
		{"${dollar}{a}", "${a}"},
		{"${:default}", "default"},
		{"$", "$"},
		{"$a {a} }", "$a {a} }"},
		{"${a}}", "A}"},
		{"$${a}", "$A"},
		// A backslash escapes "${", as in Spring Boot 4 (Spring Framework's
		// escape character); one that nothing closes stays as written.
		{`\${a}`, `${a}`},
		{`x\${a}y${a}`, `x${a}yA`},
		{`\${a${b}}`, `${aB}`},
		{`\${a`, `\${a`},
		{`\\${a}`, `\${a}`},
		{"${a:b}", "A"},
		{"${missing:${a}${b}}", "AB"},
		// Errors name the placeholder and the value.
		{"${nope}", `error: could not resolve placeholder "nope" in value "${nope}"`},
		{"x ${missing:${nope}}", `error: could not resolve placeholder "nope" in value "x ${missing:${nope}}"`},
		{"${via}", `error: could not resolve placeholder "missing" (via via) in value "${via}"`},
		{"${}", `error: could not resolve placeholder "" in value "${}"`},
		{"${a.b}", `error: circular placeholder reference "a.b" in value "${a.b}"`},
		{"${ping}", `error: circular placeholder reference "ping" in value "${ping}"`},
		{"${self}", `error: circular placeholder reference "self" in value "${self}"`},
		{"${a", `error: unclosed placeholder "${a" in value "${a"`},
		{"${missing:${a}", `error: unclosed placeholder "${missing:${a}" in value "${missing:${a}"`},
		{"ok ${a:{}", `error: unclosed placeholder "${a:{}" in value "ok ${a:{}"`},
		{"${broken}", `error: unclosed placeholder "${open" in value "${broken}"`},
		{"${chain0}", `error: placeholder "${chain32}" nested more than 32 deep in value "${chain0}"`},
		{"${bomb0}", `error: placeholder "${bomb29}": more than 10000 placeholders to resolve in value "${bomb0}"`},
	}
	for _, tt := range tests {
		if got := outcome(ResolvePlaceholders(tt.in, lookup)); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.in, got, tt.want)
		}
	}
}

func FuzzResolvePlaceholders(f *testing.F) {
	for _, seed := range []string{
		"${a}", "${a:${b:c}}", "${missing:}", "${x}", "${${k}}", "${loop}",
		"${bomb0}", "${a", "}${", "${a:{b}}", "$${{}}",
	} {
		f.Add(seed, "${a}${a}")
	}
	f.Fuzz(func(t *testing.T, value, fuzzed string) {
		// The lookup mixes fixed entries (a cycle, an exponential chain) with
		// one whose value is fuzzed too, so values are re-parsed as well.
		values := map[string]string{
			"a":    "A",
			"b":    "${a}",
			"k":    "b",
			"loop": "${loop}",
			"f":    fuzzed,
			"g":    "${f}${f}",
		}
		for i := range 40 {
			values[fmt.Sprintf("bomb%d", i)] = fmt.Sprintf("${bomb%d}${bomb%d}${f}", i+1, i+1)
		}
		lookups := 0
		lookup := func(name string) (string, bool) {
			lookups++
			v, ok := values[name]
			return v, ok
		}
		got, err := ResolvePlaceholders(value, lookup)
		if lookups > maxPlaceholderExpansions {
			t.Fatalf("%q with f=%q: %d lookups", value, fuzzed, lookups)
		}
		if err == nil && !strings.Contains(value, "${") && got != value {
			t.Fatalf("%q:\ngot  %v\nwant it unchanged", value, got)
		}
		// Leniently, as a binder resolves, the same bound holds, what
		// resolves strictly resolves alike, and only an unresolvable
		// name turns a failure into a value that keeps it.
		lookups = 0
		r := &placeholderResolver{lookup: func(name string) (string, bool, error) { v, ok := lookup(name); return v, ok, nil }, lenient: true}
		kept, lerr := resolveWith(r, value)
		if lookups > maxPlaceholderExpansions {
			t.Fatalf("%q with f=%q, leniently: %d lookups", value, fuzzed, lookups)
		}
		var unresolved *unresolvedError
		strictUnresolved := errors.As(err, &unresolved)
		switch {
		case err == nil && (lerr != nil || kept != got || r.unresolved.count != 0),
			lerr == nil && r.unresolved.count == 0 && err != nil,
			lerr == nil && r.unresolved.count > 0 && !strictUnresolved,
			err != nil && !strictUnresolved && lerr == nil:
			t.Fatalf("%q with f=%q: strictly %q, %v; leniently %q, %v (%d kept)", value, fuzzed, got, err, kept, lerr, r.unresolved.count)
		}
	})
}

func TestDecodeSettingsText(t *testing.T) {
	t.Parallel()
	// Spring Boot's test-properties.properties line, in ISO-8859-1.
	latin1 := []byte("test-iso8859-1-chars=\xe6\xd7\xc8\xc5\xde\xdf\xe1\xf1\xc0\xff\n")
	tests := []struct {
		data     []byte
		encoding string
		want     string
	}{
		{latin1, "ISO-8859-1", `1:"test-iso8859-1-chars"="æ×ÈÅÞßáñÀÿ"`},
		{latin1, "iso8859_1", `1:"test-iso8859-1-chars"="æ×ÈÅÞßáñÀÿ"`},
		{latin1, "latin1", `1:"test-iso8859-1-chars"="æ×ÈÅÞßáñÀÿ"`},
		{latin1, "", `error: line 1: invalid UTF-8`},
		{latin1, "UTF-8", `error: line 1: invalid UTF-8`},
		{[]byte("smiley=😃"), "utf-8", `1:"smiley"="😃"`},
		{[]byte("smiley=😃"), "", `1:"smiley"="😃"`},
		// UTF-8 read as ISO-8859-1 is what Java makes of it too.
		{[]byte("a=é"), "ISO-8859-1", `1:"a"="Ã©"`},
		{[]byte("a=b"), "UTF-16", `error: encoding "UTF-16" is not supported: settings files are read as UTF-8 or ISO-8859-1`},
	}
	for _, tt := range tests {
		text, err := decodeSettingsText(tt.data, tt.encoding)
		var ps []Property
		if err == nil {
			ps, err = ParseProperties(text)
		}
		if got := outcome(props(ps), err); got != tt.want {
			t.Errorf("%q in %q:\ngot  %v\nwant %v", tt.data, tt.encoding, got, tt.want)
		}
	}
}
