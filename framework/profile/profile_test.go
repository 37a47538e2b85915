package profile

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for a valid name
	}{
		{"dev", ""},
		{"Dev2", ""},
		{"7", ""},
		{"a-b_c.d+e@f", ""},
		{"prod.eu-west-1", ""},
		{"dé", ""},
		{"日本", ""},
		{"x٣", ""}, // ARABIC-INDIC DIGIT THREE is a digit (Nd)
		{"", `invalid profile "": the name is empty`},
		{"  ", `invalid profile "  ": the name is empty`},
		{"-dev", `invalid profile "-dev": a profile name must start and end with a letter or digit`},
		{"dev-", `invalid profile "dev-": a profile name must start and end with a letter or digit`},
		{"_dev", `invalid profile "_dev": a profile name must start and end with a letter or digit`},
		{"dev.", `invalid profile "dev.": a profile name must start and end with a letter or digit`},
		{"@", `invalid profile "@": a profile name must start and end with a letter or digit`},
		{"a b", `invalid profile "a b": ' ' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{"a/b", `invalid profile "a/b": '/' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{"a,b", `invalid profile "a,b": ',' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{"!dev", `invalid profile "!dev": '!' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{" dev", `invalid profile " dev": ' ' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{"dev\u00b2", `invalid profile "dev²": '²' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{"de\xffv", `invalid profile "de\xffv": the name is not valid UTF-8`},
		// Spring checks each character for being allowed before its position.
		{"-a/b", `invalid profile "-a/b": a profile name must start and end with a letter or digit`},
		{"/a-", `invalid profile "/a-": '/' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
	}
	for _, tt := range tests {
		got := ""
		if err := ValidateName(tt.in); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.in, got, tt.want)
		}
	}
}

func TestParseList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"dev", []string{"dev"}},
		{"dev,qa", []string{"dev", "qa"}},
		{" dev , qa , dev", []string{"dev", "qa"}},
		{"qa,dev,qa", []string{"qa", "dev"}},
		{"\tdev\n,\u00a0qa", []string{"dev", "qa"}},
		{"Dev,dev", []string{"Dev", "dev"}},
	}
	for _, tt := range tests {
		got, err := ParseList(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%q:\ngot  %q, %v\nwant %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseListErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"dev,-qa", `invalid profile "-qa": a profile name must start and end with a letter or digit`},
		{"dev, a b", `invalid profile "a b": ' ' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		{"dev;qa", `invalid profile "dev;qa": ';' is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'`},
		// An empty entry, as Spring Boot 4's validation refuses it.
		{" ", `invalid empty profile in " ": remove the extra comma, or the blank between two`},
		{",,", `invalid empty profile in ",,": remove the extra comma, or the blank between two`},
		{"dev,", `invalid empty profile in "dev,": remove the extra comma, or the blank between two`},
		{" dev , qa ,, dev", `invalid empty profile in " dev , qa ,, dev": remove the extra comma, or the blank between two`},
	}
	for _, tt := range tests {
		got, err := ParseList(tt.in)
		if err == nil {
			t.Errorf("%q:\ngot  %q\nwant error %v", tt.in, got, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.in, err, tt.want)
		}
	}
}

func TestConditionMatches(t *testing.T) {
	tests := []struct {
		exprs  []string
		active []string
		want   bool
	}{
		{[]string{"dev"}, []string{"dev"}, true},
		{[]string{"dev"}, []string{"qa"}, false},
		{[]string{"dev"}, nil, false},
		{[]string{"dev"}, []string{"Dev"}, false},
		{[]string{"!dev"}, nil, true},
		{[]string{"!dev"}, []string{"default"}, true},
		{[]string{"!dev"}, []string{"dev"}, false},
		{[]string{"!dev"}, []string{"qa", "dev"}, false},
		{[]string{"default"}, []string{"default"}, true},
		{[]string{"dev & cloud"}, []string{"dev", "cloud"}, true},
		{[]string{"dev & cloud"}, []string{"dev"}, false},
		{[]string{"dev & cloud"}, []string{"cloud"}, false},
		{[]string{"dev&cloud"}, []string{"cloud", "dev"}, true},
		{[]string{"dev & cloud & eu"}, []string{"cloud", "dev"}, false},
		{[]string{"dev | qa"}, []string{"qa"}, true},
		{[]string{"dev | qa"}, []string{"dev"}, true},
		{[]string{"dev | qa"}, []string{"prod"}, false},
		{[]string{"dev|qa|prod"}, []string{"prod"}, true},
		{[]string{"(dev | qa) & !cloud"}, []string{"qa"}, true},
		{[]string{"(dev | qa) & !cloud"}, []string{"qa", "cloud"}, false},
		{[]string{"(dev | qa) & !cloud"}, []string{"cloud"}, false},
		{[]string{"!(dev & qa)"}, []string{"dev"}, true},
		{[]string{"!(dev & qa)"}, []string{"dev", "qa"}, false},
		{[]string{"!(dev & qa)"}, nil, true},
		// '!' binds to the next operand only.
		{[]string{"!a & b"}, []string{"b"}, true},
		{[]string{"!a & b"}, []string{"a", "b"}, false},
		{[]string{"!a & b"}, nil, false},
		{[]string{"!a | b"}, []string{"a"}, false},
		{[]string{"!a | b"}, nil, true},
		{[]string{"a & !b"}, []string{"a"}, true},
		{[]string{"!!a"}, []string{"a"}, true},
		{[]string{"!!a"}, nil, false},
		{[]string{"!!!a"}, nil, true},
		{[]string{"b & !!a"}, []string{"a", "b"}, true},
		{[]string{"(b & !!a)"}, []string{"b"}, false},
		{[]string{"!(!a) & b"}, []string{"a", "b"}, true},
		{[]string{"!(!a) & b"}, []string{"b"}, false},
		{[]string{"((a))"}, []string{"a"}, true},
		{[]string{"(a & b) | (c & d)"}, []string{"c", "d"}, true},
		{[]string{"(a & b) | (c & d)"}, []string{"a", "d"}, false},
		{[]string{"a & (b | (c & !d))"}, []string{"a", "c"}, true},
		{[]string{"a & (b | (c & !d))"}, []string{"a", "c", "d"}, false},
		// A list of expressions is OR-ed.
		{[]string{"dev", "qa"}, []string{"qa"}, true},
		{[]string{"dev", "qa"}, []string{"prod"}, false},
		{[]string{"dev & cloud", "qa"}, []string{"dev"}, false},
		{[]string{"dev & cloud", "qa"}, []string{"qa"}, true},
		{[]string{"dev", "!cloud"}, nil, true},
		// Names are not validated: Spring reads "a b" as one name.
		{[]string{"a b"}, []string{"a b"}, true},
		{[]string{"a b"}, []string{"a", "b"}, false},
		{[]string{"  dev  "}, []string{"dev"}, true},
		{[]string{"dev\t&\ncloud"}, []string{"dev", "cloud"}, true},
	}
	for _, tt := range tests {
		c, err := Parse(tt.exprs...)
		if err != nil {
			t.Errorf("%q:\ngot  error %v\nwant %v", tt.exprs, err, tt.want)
			continue
		}
		if got := c.Matches(tt.active); got != tt.want {
			t.Errorf("%q with %q active:\ngot  %v\nwant %v", tt.exprs, tt.active, got, tt.want)
		}
	}
}

func TestZeroConditionMatches(t *testing.T) {
	var c Condition
	for _, active := range [][]string{nil, {"default"}, {"dev", "qa"}} {
		if !c.Matches(active) {
			t.Errorf("%q:\ngot  false\nwant true", active)
		}
	}
	if got := c.String(); got != "" {
		t.Errorf("zero Condition:\ngot  %q\nwant %q", got, "")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		exprs []string
		want  string
	}{
		{nil, `no profile expression given; a component without a condition needs no Parse`},
		{[]string{""}, `invalid profile expression "": it must contain text`},
		{[]string{"  \t"}, `invalid profile expression "  \t": it must contain text`},
		{[]string{"\u2003"}, `invalid profile expression "\u2003": it must contain text`},
		{[]string{"dev", ""}, `invalid profile expression "": it must contain text`},
		{[]string{"\x01"}, `malformed profile expression "\x01": it must contain text`},
		{[]string{"\u2000\x12"}, `malformed profile expression "\u2000\x12": "\u2000" is blank, not a profile name`},
		{[]string{"a | \u3000"}, `malformed profile expression "a | \u3000": "\u3000" is blank, not a profile name`},
		{[]string{"a & b | c"}, `malformed profile expression "a & b | c": '&' and '|' are mixed without parentheses`},
		{[]string{"a | b & c"}, `malformed profile expression "a | b & c": '&' and '|' are mixed without parentheses`},
		{[]string{"a & !b | c"}, `malformed profile expression "a & !b | c": '&' and '|' are mixed without parentheses`},
		{[]string{"(a & b | c)"}, `malformed profile expression "(a & b | c)": '&' and '|' are mixed without parentheses`},
		{[]string{"a &"}, `malformed profile expression "a &": it ends with '&'`},
		{[]string{"a |"}, `malformed profile expression "a |": it ends with '|'`},
		{[]string{"& a"}, `malformed profile expression "& a": it starts with '&'`},
		{[]string{"| a"}, `malformed profile expression "| a": it starts with '|'`},
		{[]string{"a & & b"}, `malformed profile expression "a & & b": '&' follows '&'`},
		{[]string{"a & | b"}, `malformed profile expression "a & | b": '|' follows '&'`},
		{[]string{"!& a"}, `malformed profile expression "!& a": '&' follows '!'`},
		{[]string{"(a"}, `malformed profile expression "(a": '(' is never closed`},
		{[]string{"((a) & b"}, `malformed profile expression "((a) & b": '(' is never closed`},
		{[]string{"a)"}, `malformed profile expression "a)": ')' has no matching '('`},
		{[]string{"(a))"}, `malformed profile expression "(a))": ')' has no matching '('`},
		{[]string{"a & b) | c"}, `malformed profile expression "a & b) | c": ')' has no matching '('`},
		{[]string{")"}, `malformed profile expression ")": ')' comes where a profile name is expected`},
		{[]string{"()"}, `malformed profile expression "()": '()' is empty`},
		{[]string{"a & ()"}, `malformed profile expression "a & ()": '()' is empty`},
		{[]string{"("}, `malformed profile expression "(": it ends with '('`},
		{[]string{"!"}, `malformed profile expression "!": it ends with '!'`},
		{[]string{"a & !"}, `malformed profile expression "a & !": it ends with '!'`},
		{[]string{"!)"}, `malformed profile expression "!)": ')' comes where a profile name is expected`},
		{[]string{"a (b)"}, `malformed profile expression "a (b)": '(' follows "a" without '&' or '|' between them`},
		{[]string{"(a) b"}, `malformed profile expression "(a) b": "b" follows "a" without '&' or '|' between them`},
		{[]string{"a !b"}, `malformed profile expression "a !b": '!' follows "a" without '&' or '|' between them`},
		{[]string{"(a & b) (c)"}, `malformed profile expression "(a & b) (c)": '(' follows "a & b" without '&' or '|' between them`},
		// Spring reads "!!a & b" as "!b" and "(!!a) & b" as "!b" too.
		{[]string{"!!a & b"}, `malformed profile expression "!!a & b": Spring reads what follows '!!' differently; write !(!x) instead of !!x`},
		{[]string{"(!!a) & b"}, `malformed profile expression "(!!a) & b": Spring reads what follows '!!' differently; write !(!x) instead of !!x`},
		{[]string{"!!(a | b) | c"}, `malformed profile expression "!!(a | b) | c": Spring reads what follows '!!' differently; write !(!x) instead of !!x`},
	}
	for _, tt := range tests {
		c, err := Parse(tt.exprs...)
		if err == nil {
			t.Errorf("%q:\ngot  %v\nwant error %v", tt.exprs, c, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.exprs, got, tt.want)
		}
	}
}

func TestConditionString(t *testing.T) {
	tests := []struct {
		exprs []string
		want  string
	}{
		{[]string{"dev"}, "dev"},
		{[]string{"!dev"}, "!dev"},
		{[]string{"dev & cloud", "qa"}, "dev & cloud, qa"},
		{[]string{"  dev&cloud  "}, "dev & cloud"},
		{[]string{"(dev | qa) & !cloud"}, "(dev | qa) & !cloud"},
		{[]string{"!(dev & qa)"}, "!(dev & qa)"},
		{[]string{"((dev))"}, "dev"},
		{[]string{"(a) & (b)"}, "a & b"},
		{[]string{"a & (b & c)"}, "a & (b & c)"},
		{[]string{"!!a"}, "!(!a)"},
		{[]string{"!(!a)"}, "!(!a)"},
		{[]string{"! ( a ) "}, "!a"},
		{[]string{"a  b"}, "a  b"},
	}
	for _, tt := range tests {
		c, err := Parse(tt.exprs...)
		if err != nil {
			t.Errorf("%q:\ngot  error %v\nwant %v", tt.exprs, err, tt.want)
			continue
		}
		if got := c.String(); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.exprs, got, tt.want)
		}
	}
}

// springMatcher is what Spring's ProfilesParser builds for one expression.
type springMatcher func(isActive func(string) bool) bool

// springParse is a line-by-line port of Spring Framework 6.2's
// ProfilesParser.parseExpression, loose edges included, kept as an oracle: an
// expression that Parse accepts must mean the same here.
func springParse(expression string) (springMatcher, bool) {
	if strings.IndexFunc(expression, func(r rune) bool { return !isJavaWhitespace(r) }) < 0 {
		return nil, false
	}
	// StringTokenizer(expression, "()&|!", true): runs of other characters,
	// and each delimiter alone.
	var tokens []string
	start := 0
	for i := 0; i < len(expression); i++ {
		if strings.ContainsRune("()&|!", rune(expression[i])) {
			if i > start {
				tokens = append(tokens, expression[start:i])
			}
			tokens = append(tokens, expression[i:i+1])
			start = i + 1
		}
	}
	if start < len(expression) {
		tokens = append(tokens, expression[start:])
	}
	const (
		none = iota
		invert
		bracket
	)
	merge := func(elements []springMatcher, operator string) (springMatcher, bool) {
		if len(elements) == 0 {
			return nil, false
		}
		if len(elements) == 1 {
			return elements[0], true
		}
		elements = slices.Clone(elements)
		if operator == "&" {
			return func(isActive func(string) bool) bool {
				for _, e := range elements {
					if !e(isActive) {
						return false
					}
				}
				return true
			}, true
		}
		return func(isActive func(string) bool) bool {
			for _, e := range elements {
				if e(isActive) {
					return true
				}
			}
			return false
		}, true
	}
	next := 0
	var parseTokens func(context int) (springMatcher, bool)
	parseTokens = func(context int) (springMatcher, bool) {
		var elements []springMatcher
		operator := ""
		for next < len(tokens) {
			token := strings.TrimFunc(tokens[next], func(r rune) bool { return r <= ' ' })
			next++
			if token == "" {
				continue
			}
			switch token {
			case "(":
				contents, ok := parseTokens(bracket)
				if !ok {
					return nil, false
				}
				if context == invert {
					return contents, true
				}
				elements = append(elements, contents)
			case "&", "|":
				if operator != "" && operator != token {
					return nil, false
				}
				operator = token
			case "!":
				inner, ok := parseTokens(invert)
				if !ok {
					return nil, false
				}
				elements = append(elements, func(isActive func(string) bool) bool { return !inner(isActive) })
			case ")":
				merged, ok := merge(elements, operator)
				if !ok {
					return nil, false
				}
				if context == bracket {
					return merged, true
				}
				elements = []springMatcher{merged}
				operator = ""
			default:
				name := token
				value := func(isActive func(string) bool) bool { return isActive(name) }
				if context == invert {
					return value, true
				}
				elements = append(elements, value)
			}
		}
		return merge(elements, operator)
	}
	return parseTokens(none)
}

func TestSpringOracle(t *testing.T) {
	// The oracle itself reproduces Spring's documented quirks.
	tests := []struct {
		expr   string
		active []string
		want   bool
	}{
		{"a &", []string{"a"}, true},
		{"(a", []string{"a"}, true},
		{"a (b)", []string{"b"}, true},
		{"!!a & b", []string{"a", "b"}, false},
		{"!!a & b", nil, true},
		{"(a & !!b)", []string{"a", "b"}, true},
	}
	for _, tt := range tests {
		m, ok := springParse(tt.expr)
		if !ok {
			t.Errorf("%q:\ngot  rejected\nwant %v", tt.expr, tt.want)
			continue
		}
		if got := m(func(n string) bool { return slices.Contains(tt.active, n) }); got != tt.want {
			t.Errorf("%q with %q active:\ngot  %v\nwant %v", tt.expr, tt.active, got, tt.want)
		}
	}
	for _, expr := range []string{"a & b | c", "", "!", "()", ")", "a & ()"} {
		if _, ok := springParse(expr); ok {
			t.Errorf("%q:\ngot  accepted\nwant rejected", expr)
		}
	}
}

// activeSets returns every subset of the names in e, plus "default", capped
// at 2^7 sets.
func activeSets(e *expr) [][]string {
	var names []string
	var collect func(e *expr)
	collect = func(e *expr) {
		if e.op == opName {
			if !slices.Contains(names, e.name) && len(names) < 6 {
				names = append(names, e.name)
			}
			return
		}
		for _, o := range e.operands {
			collect(o)
		}
	}
	collect(e)
	names = append(names, "default")
	sets := make([][]string, 0, 1<<len(names))
	for mask := range 1 << len(names) {
		var set []string
		for i, n := range names {
			if mask&(1<<i) != 0 {
				set = append(set, n)
			}
		}
		sets = append(sets, set)
	}
	return sets
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"dev", "!dev", "dev & cloud", "dev | qa", "(dev | qa) & !cloud", "!(dev & qa)",
		"a & b | c", "a &", "& a", "(a", "a)", "", "!", "a b", "!!a", "!!a & b",
		"(a & !!b)", "!(!a) & b", "((a | b) & (c | !d)) | e", "a (b)", "\u2003", "\x01", "\u2000\x12",
	} {
		f.Add(seed, "qa")
	}
	f.Fuzz(func(t *testing.T, expr, other string) {
		c, err := Parse(expr)
		spring, springOK := springParse(expr)
		if err != nil {
			return
		}
		if !springOK {
			t.Fatalf("%q: accepted here but rejected by Spring", expr)
		}
		again, err := Parse(c.String())
		if err != nil {
			t.Fatalf("%q: String() = %q does not parse: %v", expr, c.String(), err)
		}
		if again.String() != c.String() {
			t.Fatalf("%q: String() = %q, but parsed again gives %q", expr, c.String(), again.String())
		}
		for _, active := range activeSets(c.exprs[0]) {
			isActive := func(n string) bool { return slices.Contains(active, n) }
			want := spring(isActive)
			if got := c.Matches(active); got != want {
				t.Fatalf("%q with %q active:\ngot  %v\nSpring %v", expr, active, got, want)
			}
			if got := again.Matches(active); got != want {
				t.Fatalf("%q parsed again from %q with %q active:\ngot  %v\nwant %v", expr, c.String(), active, got, want)
			}
		}
		// A list keeps each expression's meaning and ORs them.
		if list, err := Parse(expr, other); err == nil {
			for _, active := range activeSets(c.exprs[0]) {
				want := c.Matches(active) || list.exprs[1].matches(func(n string) bool { return slices.Contains(active, n) })
				if got := list.Matches(active); got != want {
					t.Fatalf("%q, %q with %q active:\ngot  %v\nwant %v", expr, other, active, got, want)
				}
			}
			if want := c.String() + ", " + list.exprs[1].String(); list.String() != want {
				t.Fatalf("%q, %q:\ngot  %v\nwant %v", expr, other, list.String(), want)
			}
		}
	})
}

// ExampleCondition shows a condition as a component would declare it.
func ExampleCondition() {
	c, err := Parse("(dev | qa) & !cloud", "local")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c, c.Matches([]string{"qa"}), c.Matches([]string{"qa", "cloud"}))
	// Output: (dev | qa) & !cloud, local true false
}
