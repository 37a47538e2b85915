// This file reads the java.util.Properties text format, following
// Properties.load(Reader) step by step so that a file behaves here as it does
// in Spring.
//
// Reading happens in two passes over each entry:
//
//  1. Physical lines (ended by "\n", "\r" or "\r\n") are joined into logical
//     lines. Leading spaces, tabs and form feeds are dropped from every
//     physical line. Outside a continuation, a line that is then empty is
//     blank and one whose first character is '#' or '!' is a comment; both are
//     skipped, and a comment never continues, whatever it ends with. A line
//     ending in an odd number of backslashes continues: the last backslash is
//     dropped and the next physical line is appended. An even number is a run
//     of escaped backslashes and ends the entry. A continuation pending at the
//     end of the text simply ends the entry, as in Java.
//  2. The logical line is split: the key runs to the first '=', ':', space,
//     tab or form feed not preceded by an unescaped backslash; then spaces,
//     at most one '=' or ':', and spaces again are skipped; the rest is the
//     value. Key and value are then unescaped.
//
// The joined line remembers at which offsets its continuation lines start, so
// that an error deep inside a value still names the physical line it is on.
package config

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Property is one entry of a .properties file: its key, its value and the line
// where the entry starts (1-based).
type Property struct {
	Key   string
	Value string
	Line  int
}

// ParseProperties reads text in the java.util.Properties format and returns
// its entries in file order (a later duplicate key is returned too; callers
// let the later win).
//
// ParseProperties follows Properties.load(Reader) exactly, with three
// deliberate choices. The text is UTF-8, not ISO-8859-1 as Spring Boot reads
// .properties files by default, because Go source and editors are UTF-8 and
// \uXXXX escapes still work for anyone who writes ASCII only; invalid UTF-8 is
// an error naming its line rather than a silent U+FFFD. A leading byte order
// mark is dropped instead of becoming part of the first key. And a \uXXXX
// escape that is half of a surrogate pair with no other half becomes U+FFFD,
// since a Go string holds code points, not UTF-16 units.
//
// As in Java, leading whitespace of a value is dropped but trailing whitespace
// is kept: "key = value  " has the value "value  ". A key may be empty
// ("=value"), and a key alone ("key") has the empty value. Placeholders such
// as ${name} are returned unresolved; see ResolvePlaceholders.
func ParseProperties(text string) ([]Property, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	var (
		props      []Property
		entry      logicalLine
		continuing bool
		line       int
	)
	for pos := 0; pos < len(text); {
		line++
		physical := text[pos:]
		if end := strings.IndexAny(physical, "\r\n"); end >= 0 {
			physical = physical[:end]
			pos += end + 1
			if text[pos-1] == '\r' && pos < len(text) && text[pos] == '\n' {
				pos++
			}
		} else {
			pos = len(text)
		}
		if !utf8.ValidString(physical) {
			return nil, fmt.Errorf("line %d: invalid UTF-8", line)
		}
		physical = strings.TrimLeft(physical, " \t\f")
		if continuing {
			entry.breaks = append(entry.breaks, lineBreak{offset: entry.text.Len(), line: line})
		} else {
			if physical == "" || physical[0] == '#' || physical[0] == '!' {
				continue
			}
			entry = logicalLine{start: line}
		}
		continuing = trailingBackslashes(physical)%2 == 1
		if continuing {
			physical = physical[:len(physical)-1]
		}
		entry.text.WriteString(physical)
		if !continuing {
			p, err := entry.property()
			if err != nil {
				return nil, err
			}
			props = append(props, p)
		}
	}
	if continuing {
		p, err := entry.property()
		if err != nil {
			return nil, err
		}
		props = append(props, p)
	}
	return props, nil
}

// logicalLine is one entry's physical lines joined, continuation backslashes
// and leading whitespace removed.
type logicalLine struct {
	text   strings.Builder
	start  int
	breaks []lineBreak
}

// lineBreak records that the physical line numbered line starts at offset in
// the joined text.
type lineBreak struct {
	offset int
	line   int
}

// lineAt returns the physical line holding the byte at offset.
func (l *logicalLine) lineAt(offset int) int {
	line := l.start
	for _, b := range l.breaks {
		if b.offset > offset {
			break
		}
		line = b.line
	}
	return line
}

// property splits the joined line into key and value as Properties.load does.
func (l *logicalLine) property() (Property, error) {
	s := l.text.String()
	keyEnd, valueStart := len(s), len(s)
	hasSeparator := false
	escaped := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escaped {
			if c == '=' || c == ':' {
				keyEnd, valueStart, hasSeparator = i, i+1, true
				break
			}
			if c == ' ' || c == '\t' || c == '\f' {
				keyEnd, valueStart = i, i+1
				break
			}
		}
		escaped = c == '\\' && !escaped
	}
	// Whitespace may surround one '=' or ':'; a second one belongs to the value.
	for ; valueStart < len(s); valueStart++ {
		c := s[valueStart]
		if c == ' ' || c == '\t' || c == '\f' {
			continue
		}
		if !hasSeparator && (c == '=' || c == ':') {
			hasSeparator = true
			continue
		}
		break
	}
	key, err := l.unescape(s[:keyEnd], 0)
	if err != nil {
		return Property{}, err
	}
	value, err := l.unescape(s[valueStart:], valueStart)
	if err != nil {
		return Property{}, err
	}
	return Property{Key: key, Value: value, Line: l.start}, nil
}

// unescape decodes the escapes of s, which starts at offset in the joined
// line (the offset only serves to name the line of a malformed escape).
func (l *logicalLine) unescape(s string, offset int) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			// Unreachable from ParseProperties, which never leaves a lone
			// trailing backslash; Java would read past the end here.
			break
		}
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			r, ok := hex4(s[i+1:])
			if !ok {
				return "", fmt.Errorf(`line %d: malformed \uXXXX escape`, l.lineAt(offset+i-1))
			}
			i += 4
			// Java strings are UTF-16, so characters beyond U+FFFF are
			// written as two escapes that must be decoded together.
			if utf16.IsSurrogate(r) && strings.HasPrefix(s[i+1:], `\u`) {
				if low, ok := hex4(s[i+3:]); ok {
					if pair := utf16.DecodeRune(r, low); pair != utf8.RuneError {
						r = pair
						i += 6
					}
				}
			}
			b.WriteRune(r) // a lone surrogate becomes U+FFFD here
		default:
			// Any other escaped character stands for itself: \= \: \# \! \  \\.
			// Copy the whole UTF-8 sequence, not just its first byte.
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size - 1
		}
	}
	return b.String(), nil
}

// hex4 decodes the four hexadecimal digits that start s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// trailingBackslashes counts the backslashes that end s.
func trailingBackslashes(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n
}

// Placeholder resolution follows Spring Framework 6.2's PlaceholderParser. A
// placeholder runs from "${" to the '}' that balances it, counting every '{'
// as an opener as Spring does, so "${a:{b}}" has the default "{b}". Inside,
// the first ':' that is not inside a nested "${...}" separates the name from
// the default. The name may itself hold placeholders and is resolved first.
// The default is resolved only when needed, so "${set:${unset}}" is fine when
// set exists. A value found by lookup is resolved again; the names being
// resolved at that moment are kept on a stack, and meeting one of them again
// is a cycle.
const (
	// maxPlaceholderDepth bounds how deeply placeholders resolve through one
	// another (values, defaults and names alike).
	maxPlaceholderDepth = 32
	// maxPlaceholderExpansions bounds the placeholders resolved for one value:
	// without it, a=${b}${b}, b=${c}${c}, ... would need 2^32 lookups while
	// staying within the depth limit.
	maxPlaceholderExpansions = 10_000
)

// ResolvePlaceholders replaces every ${name} and ${name:default} in value,
// looking names up with lookup; defaults may themselves contain placeholders,
// and resolved values are resolved again (nested), up to a depth of 32. An
// unresolvable name without a default, a cycle (a.b=${a.b}) or an unclosed
// "${" is an error naming the placeholder.
//
// As in Spring, "${a:}" has the empty default, a name may contain
// placeholders ("${${env}.url}"), and "$" or "{" alone is plain text. Unlike
// Spring Framework 6.2, a backslash does not escape "${" (Spring Boot 3.5
// does not enable escaping), and an unclosed "${" is an error rather than
// plain text, since it is almost always a typo. At most 10,000 placeholders
// are resolved for one value.
func ResolvePlaceholders(value string, lookup func(name string) (string, bool)) (string, error) {
	r := placeholderResolver{lookup: lookup}
	resolved, err := r.resolve(value, 0)
	if err != nil {
		return "", fmt.Errorf("%w in value %q", err, value)
	}
	return resolved, nil
}

// placeholderResolver holds the state of one ResolvePlaceholders call.
type placeholderResolver struct {
	lookup     func(name string) (string, bool)
	resolving  []string // names whose values are being resolved, outermost first
	expansions int
}

// resolve replaces the placeholders of s, which is depth resolutions deep.
func (r *placeholderResolver) resolve(s string, depth int) (string, error) {
	start := strings.Index(s, "${")
	if start < 0 {
		return s, nil
	}
	var b strings.Builder
	for start >= 0 {
		end := placeholderEnd(s, start)
		if end < 0 {
			return "", fmt.Errorf("unclosed placeholder %q", abbreviate(s[start:]))
		}
		b.WriteString(s[:start])
		v, err := r.placeholder(s[start+2:end], depth)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		s = s[end+1:]
		start = strings.Index(s, "${")
	}
	b.WriteString(s)
	return b.String(), nil
}

// placeholder resolves the placeholder whose text between "${" and "}" is
// content.
func (r *placeholderResolver) placeholder(content string, depth int) (string, error) {
	text := "${" + content + "}"
	if depth >= maxPlaceholderDepth {
		return "", fmt.Errorf("placeholder %q nested more than %d deep", abbreviate(text), maxPlaceholderDepth)
	}
	r.expansions++
	if r.expansions > maxPlaceholderExpansions {
		return "", fmt.Errorf("placeholder %q: more than %d placeholders to resolve", abbreviate(text), maxPlaceholderExpansions)
	}
	key, fallback, hasFallback := splitPlaceholder(content)
	name, err := r.resolve(key, depth+1)
	if err != nil {
		return "", err
	}
	if v, ok := r.lookup(name); ok {
		for _, outer := range r.resolving {
			if outer == name {
				return "", fmt.Errorf("circular placeholder reference %q", name)
			}
		}
		r.resolving = append(r.resolving, name)
		v, err = r.resolve(v, depth+1)
		r.resolving = r.resolving[:len(r.resolving)-1]
		return v, err
	}
	if hasFallback {
		return r.resolve(fallback, depth+1)
	}
	return "", fmt.Errorf("could not resolve placeholder %q", abbreviate(text))
}

// placeholderEnd returns the index of the '}' that closes the "${" at start
// in s, or -1.
func placeholderEnd(s string, start int) int {
	open := 0
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '{':
			open++
		case '}':
			open--
			if open == 0 {
				return i
			}
		}
	}
	return -1
}

// splitPlaceholder splits the text inside "${...}" at its first ':' that is
// outside nested placeholders. A ':' inside plain braces still splits, as in
// Spring, where only "${...}" forms a nested part.
func splitPlaceholder(content string) (key, fallback string, ok bool) {
	var nested []bool // one per open brace: whether it opened a placeholder
	placeholders := 0
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '{':
			isPlaceholder := i > 0 && content[i-1] == '$'
			nested = append(nested, isPlaceholder)
			if isPlaceholder {
				placeholders++
			}
		case '}':
			if n := len(nested); n > 0 {
				if nested[n-1] {
					placeholders--
				}
				nested = nested[:n-1]
			}
		case ':':
			if placeholders == 0 {
				return content[:i], content[i+1:], true
			}
		}
	}
	return content, "", false
}

// abbreviate shortens s for an error message, so that a huge value does not
// flood the log.
func abbreviate(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
