// Package profile validates profile names and evaluates profile conditions
// such as "dev & !cloud", with the rules of Spring Boot 3.5 and Spring
// Framework 6.2. A profile names a kind of deployment (dev, test, cloud)
// that a service runs as: the settings choose the active profiles
// (app.profiles.active, see package config), and a component declared
// with a condition (component.Def.Profiles) exists only where it holds,
// as with Spring's @Profile.
//
// Conditions are parsed by recursive descent over tokens. A token is one of
// the operators '!', '&', '|', '(' and ')', or a name: the text between two
// operators, with surrounding whitespace trimmed (so "a b" is the single name
// "a b", as in Spring, whose tokenizer splits on operators only). The grammar
// is
//
//	expression = operand { "&" operand } | operand { "|" operand }
//	operand    = "!" operand | "(" expression ")" | name
//
// Spring's own parser (ProfilesParser) is a loose loop that accepts many
// malformed expressions without complaint: "a &" means "a", "(a" means "a",
// "a (b)" means "a | b", and after "!!a" it silently drops operands, so that
// "!!a & b" means "!b". This grammar rejects all of those, so that every
// expression accepted here means what it means in Spring; only the
// well-formed subset is kept, and a slip fails at startup instead of quietly
// changing which components exist.
package profile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// allowedPunctuation lists the characters besides letters and digits that
// Spring Boot's ProfilesValidator allows inside a profile name.
const allowedPunctuation = "-_.+@"

// ValidateName checks a profile name: it must start and end with a letter or
// digit and contain only letters, digits, '-', '_', '.', '+', '@' (Spring Boot
// 3.5's rule). The error names the profile and says why.
//
// Letters and digits are Unicode ones, as with Java's
// Character.isLetterOrDigit, so "dé" is valid.
func ValidateName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("invalid profile %q: the name is empty", name)
	}
	for i, r := range name {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size == 1 {
				return fmt.Errorf("invalid profile %q: the name is not valid UTF-8", name)
			}
		}
		letterOrDigit := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !letterOrDigit && !strings.ContainsRune(allowedPunctuation, r) {
			return fmt.Errorf("invalid profile %q: %q is not allowed; a profile name contains only letters, digits and '-', '_', '.', '+', '@'", name, r)
		}
		if !letterOrDigit && (i == 0 || i+utf8.RuneLen(r) == len(name)) {
			return fmt.Errorf("invalid profile %q: a profile name must start and end with a letter or digit", name)
		}
	}
	return nil
}

// ParseList splits a comma-separated list of profile names as Spring does:
// whitespace around names trimmed, order kept, duplicates dropped (first
// kept). It validates every name. The empty string is no profile, but an
// empty entry in a list ("a,,b", "a,", " ") is an error, as Spring Boot 4
// validates profiles ("Invalid empty profile"; found by the settings
// fuzzing, conformance/settingsfuzz).
func ParseList(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var names []string
	for field := range strings.SplitSeq(s, ",") {
		name := strings.TrimSpace(field)
		if name == "" {
			return nil, fmt.Errorf("invalid empty profile in %q: remove the extra comma, or the blank between two", s)
		}
		if slices.Contains(names, name) {
			continue
		}
		if err := ValidateName(name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

// Condition is a parsed profile condition: a list of expressions OR-ed
// together, as in Spring's @Profile({"a", "!b"}).
type Condition struct {
	exprs []*expr
}

// Parse parses profile expressions: names, "!" (not), "&" (and), "|" (or),
// parentheses. Mixing & and | at one level without parentheses ("a & b | c")
// is an error, as in Spring; so are empty expressions, unbalanced
// parentheses, dangling operators. The error names the expression and says
// what is wrong.
//
// Parse is stricter than Spring, which accepts some of these (see the package
// documentation), and also rejects operands written side by side without an
// operator, such as "a (b)", and "!!" followed by more than closing
// parentheses, since Spring misreads what follows it: write "!(!a) & b".
// Names are not checked with ValidateName, as Spring does not check them
// either; a name no profile can have simply never matches. A name that is
// only whitespace is an error, though Spring keeps one such as "\u2000". Like Spring, Parse
// needs at least one expression: a component without a condition uses the
// zero Condition instead.
func Parse(exprs ...string) (Condition, error) {
	if len(exprs) == 0 {
		return Condition{}, errors.New("no profile expression given; a component without a condition needs no Parse")
	}
	c := Condition{exprs: make([]*expr, len(exprs))}
	for i, s := range exprs {
		e, err := parseExpr(s)
		if err != nil {
			return Condition{}, err
		}
		c.exprs[i] = e
	}
	return c, nil
}

// Matches reports whether the condition holds when exactly the given
// profiles are active.
//
// The caller passes the profiles that are in effect: when none was set, that
// is the default profile, so "!dev" holds and "default" does too.
func (c Condition) Matches(active []string) bool {
	if c.exprs == nil {
		return true
	}
	isActive := func(name string) bool { return slices.Contains(active, name) }
	for _, e := range c.exprs {
		if e.matches(isActive) {
			return true
		}
	}
	return false
}

// String returns the condition as declared, e.g. `dev` or `!dev` or
// `dev & cloud, qa`.
//
// Each expression is written in a normal form that parses back to the same
// condition: spaces around '&' and '|', none after '!', parentheses only
// where needed, and "!!a" written as "!(!a)". An expression written that way
// to begin with is returned unchanged. The zero Condition returns "".
func (c Condition) String() string {
	parts := make([]string, len(c.exprs))
	for i, e := range c.exprs {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// op is what an expression node does with its operands.
type op uint8

const (
	opName op = iota
	opNot
	opAnd
	opOr
)

// expr is a node of a parsed expression: a name, or an operator applied to
// operands (exactly one for opNot).
type expr struct {
	op       op
	name     string
	operands []*expr
}

func (e *expr) matches(isActive func(string) bool) bool {
	switch e.op {
	case opName:
		return isActive(e.name)
	case opNot:
		return !e.operands[0].matches(isActive)
	case opAnd:
		for _, o := range e.operands {
			if !o.matches(isActive) {
				return false
			}
		}
		return true
	default:
		for _, o := range e.operands {
			if o.matches(isActive) {
				return true
			}
		}
		return false
	}
}

func (e *expr) String() string {
	switch e.op {
	case opName:
		return e.name
	case opNot:
		if o := e.operands[0]; o.op == opName {
			return "!" + o.name
		}
		return "!(" + e.operands[0].String() + ")"
	default:
		sep := " & "
		if e.op == opOr {
			sep = " | "
		}
		parts := make([]string, len(e.operands))
		for i, o := range e.operands {
			parts[i] = o.String()
			if o.op == opAnd || o.op == opOr {
				parts[i] = "(" + parts[i] + ")"
			}
		}
		return strings.Join(parts, sep)
	}
}

// token is an operator character, or 0 for a name.
type token struct {
	op   byte
	name string
}

// tokenize splits s as Spring's StringTokenizer(s, "()&|!", true) followed by
// trim() does, dropping tokens that are empty after trimming.
func tokenize(s string) []token {
	var tokens []token
	addName := func(text string) {
		// Java's String.trim removes every character up to U+0020.
		if name := strings.TrimFunc(text, func(r rune) bool { return r <= ' ' }); name != "" {
			tokens = append(tokens, token{name: name})
		}
	}
	start := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("()&|!", s[i]) >= 0 {
			addName(s[start:i])
			tokens = append(tokens, token{op: s[i]})
			start = i + 1
		}
	}
	addName(s[start:])
	return tokens
}

// parser holds the state of parsing one expression.
type parser struct {
	source string
	tokens []token
	pos    int
}

func parseExpr(s string) (*expr, error) {
	if strings.IndexFunc(s, func(r rune) bool { return !isJavaWhitespace(r) }) < 0 {
		return nil, fmt.Errorf("invalid profile expression %q: it must contain text", s)
	}
	p := &parser{source: s, tokens: tokenize(s)}
	e, err := p.expression(0)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("malformed profile expression %q: %s", p.source, fmt.Sprintf(format, args...))
}

// peek returns the next token; ok is false at the end.
func (p *parser) peek() (t token, ok bool) {
	if p.pos == len(p.tokens) {
		return token{}, false
	}
	return p.tokens[p.pos], true
}

// expression parses operands joined by one kind of operator, up to the end
// or, inside depth parentheses, up to the ')' that it leaves for the caller.
func (p *parser) expression(depth int) (*expr, error) {
	first, err := p.operand(depth)
	if err != nil {
		return nil, err
	}
	operands := []*expr{first}
	var joiner byte
	for {
		t, ok := p.peek()
		switch {
		case !ok:
			if depth > 0 {
				return nil, p.errorf("'(' is never closed")
			}
			return join(joiner, operands), nil
		case t.op == ')':
			if depth == 0 {
				return nil, p.errorf("')' has no matching '('")
			}
			return join(joiner, operands), nil
		case t.op == '&' || t.op == '|':
			if joiner != 0 && joiner != t.op {
				return nil, p.errorf("'&' and '|' are mixed without parentheses")
			}
			joiner = t.op
			p.pos++
			next, err := p.operand(depth)
			if err != nil {
				return nil, err
			}
			operands = append(operands, next)
		default:
			return nil, p.errorf("%s follows %q without '&' or '|' between them", describe(t), operands[len(operands)-1].String())
		}
	}
}

// operand parses a name, a negation or a parenthesized expression.
func (p *parser) operand(depth int) (*expr, error) {
	t, ok := p.peek()
	if !ok {
		if p.pos == 0 {
			return nil, p.errorf("it must contain text")
		}
		return nil, p.errorf("it ends with %s", describe(p.tokens[p.pos-1]))
	}
	p.pos++
	switch t.op {
	case 0:
		// Java's trim stops at U+0020, so Spring would take "\u2000" for a
		// name; it is blank all the same, and could not be written back.
		if strings.IndexFunc(t.name, func(r rune) bool { return !isJavaWhitespace(r) }) < 0 {
			return nil, p.errorf("%q is blank, not a profile name", t.name)
		}
		return &expr{op: opName, name: t.name}, nil
	case '!':
		double := false
		if next, ok := p.peek(); ok && next.op == '!' {
			double = true
		}
		o, err := p.operand(depth)
		if err != nil {
			return nil, err
		}
		if double {
			for _, rest := range p.tokens[p.pos:] {
				if rest.op != ')' {
					return nil, p.errorf("Spring reads what follows '!!' differently; write !(!x) instead of !!x")
				}
			}
		}
		return &expr{op: opNot, operands: []*expr{o}}, nil
	case '(':
		if next, ok := p.peek(); ok && next.op == ')' {
			return nil, p.errorf("'()' is empty")
		}
		e, err := p.expression(depth + 1)
		if err != nil {
			return nil, err
		}
		p.pos++ // expression stops only at the ')' closing this '('
		return e, nil
	case ')':
		return nil, p.errorf("')' comes where a profile name is expected")
	default:
		if p.pos == 1 {
			return nil, p.errorf("it starts with '%c'", t.op)
		}
		return nil, p.errorf("'%c' follows %s", t.op, describe(p.tokens[p.pos-2]))
	}
}

// isJavaWhitespace is Java's Character.isWhitespace, which Spring uses to
// decide that an expression has no text: Unicode separators except the
// no-break spaces, and the ASCII controls \t to \r and U+001C to U+001F.
func isJavaWhitespace(r rune) bool {
	switch r {
	case '\u00a0', '\u2007', '\u202f':
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp) || '\t' <= r && r <= '\r' || 0x1c <= r && r <= 0x1f
}

// describe names a token for an error message.
func describe(t token) string {
	if t.op == 0 {
		return fmt.Sprintf("%q", t.name)
	}
	return fmt.Sprintf("'%c'", t.op)
}

// join combines operands with the operator joiner ('&', '|' or 0 for a single
// operand).
func join(joiner byte, operands []*expr) *expr {
	switch {
	case len(operands) == 1:
		return operands[0]
	case joiner == '&':
		return &expr{op: opAnd, operands: operands}
	default:
		return &expr{op: opOr, operands: operands}
	}
}
