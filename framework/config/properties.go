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
//     value. Key and value are then unescaped. A key ending in "[]" is
//     Spring Boot's list shorthand: its value is split at unescaped commas
//     first, and each part becomes an entry of its own (see appendListEntries).
//
// The joined line remembers at which offsets its continuation lines start, so
// that an error deep inside a value still names the physical line it is on,
// and so that an entry's line is the one where its value starts, as Spring
// Boot reports a value's origin: "key=\" followed by "value" is on line 2.

package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Property is one entry of a settings file: its key, its value and the line
// where the value starts (1-based).
type Property struct {
	Key    string
	Value  string
	Line   int
	Column int // 1-based; 0 where the format does not say (.properties)
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
//
// As in Spring Boot (not java.util.Properties), "name[]=a,b" is the list
// shorthand for name[0]=a and name[1]=b; see appendListEntries. A file
// written in ISO-8859-1 is decoded to UTF-8 first (see decodeSettingsText).
func ParseProperties(text string) ([]Property, error) {
	docs, err := ParsePropertiesDocuments(text)
	return slices.Concat(docs...), err
}

// ParsePropertiesDocuments is ParseProperties for a file of several
// documents, as Spring Boot reads application.properties: a line that is
// "#---" or "!---", at its very start and followed by nothing but spaces,
// tabs or form feeds, ends one document and starts the next, unless the
// line before or after it is a comment with the same first character (so
// that a banner of comments is not split). Documents without entries
// are dropped, as in Spring, so the result may be empty.
func ParsePropertiesDocuments(text string) ([][]Property, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	var (
		docs       [][]Property
		props      []Property
		entry      logicalLine
		continuing bool
		line       int
		previous   string // the physical line before this one
		entries    int    // in every document
		documented int    // in the documents ended
	)
	endDocument := func() {
		if len(props) > 0 {
			docs = append(docs, props)
		}
		documented += len(props)
		props = nil
	}
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
			return nil, invalidUTF8Error{line: line}
		}
		raw := physical
		physical = strings.TrimLeft(physical, " \t\f")
		if !continuing && isDocumentSeparator(raw, previous, nextLine(text[pos:])) {
			endDocument()
			previous = raw
			continue
		}
		previous = raw
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
			var err error
			if props, err = entry.appendEntries(props); err != nil {
				return nil, err
			}
			// An entry may be a list of several (see appendEntries).
			if entries = len(props) + documented; entries > maxFlattenedEntries { // see limits.go
				return nil, fmt.Errorf("line %d: more than %d settings", line, maxFlattenedEntries)
			}
		}
	}
	if continuing {
		var err error
		if props, err = entry.appendEntries(props); err != nil {
			return nil, err
		}
	}
	endDocument()
	return docs, nil
}

// isDocumentSeparator reports whether line, between previous and next,
// separates two documents: it is "#---" or "!---" at the start of the
// line, followed by whitespace at most, and neither neighbour is a comment
// starting with the same character (Spring Boot's rule).
func isDocumentSeparator(line, previous, next string) bool {
	line = strings.TrimRight(line, " \t\f")
	if line != "#---" && line != "!---" {
		return false
	}
	sameComment := func(s string) bool {
		s = strings.TrimLeft(s, " \t\f")
		return s != "" && s[0] == line[0]
	}
	return !sameComment(previous) && !sameComment(next)
}

// nextLine returns the first physical line of text.
func nextLine(text string) string {
	if end := strings.IndexAny(text, "\r\n"); end >= 0 {
		return text[:end]
	}
	return text
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

// appendEntries splits the joined line into key and value as
// Properties.load does and appends the entries it holds to props: one, or
// one per list element for the list shorthand.
func (l *logicalLine) appendEntries(props []Property) ([]Property, error) {
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
		return nil, err
	}
	if name, ok := strings.CutSuffix(key, "[]"); ok {
		return l.appendListEntries(props, name, s, valueStart)
	}
	value, err := l.unescape(s[valueStart:], valueStart)
	if err != nil {
		return nil, err
	}
	return append(props, Property{Key: key, Value: value, Line: l.lineAt(valueStart)}), nil
}

// appendListEntries appends the entries of Spring Boot's list shorthand:
// "name[]=a, b,c" holds name[0]=a, name[1]=b and name[2]=c. The value, from
// valueStart in the joined line s, is split at each comma that is not
// escaped ("\,", or "\u002C", is a comma inside an element), and leading
// whitespace of each element is dropped, as of any value. As in Spring, a
// comma that ends the value adds no empty element, but one followed by
// spaces does, and each element's line is the one where it starts, so
// that an element after a continuation names its own line.
func (l *logicalLine) appendListEntries(props []Property, name, s string, valueStart int) ([]Property, error) {
	start := valueStart
	for i := 0; ; i++ {
		for start < len(s) && (s[start] == ' ' || s[start] == '\t' || s[start] == '\f') {
			start++
		}
		end := start
		for escaped := false; end < len(s) && (escaped || s[end] != ','); end++ {
			escaped = s[end] == '\\' && !escaped
		}
		value, err := l.unescape(s[start:end], start)
		if err != nil {
			return nil, err
		}
		props = append(props, Property{Key: name + "[" + strconv.Itoa(i) + "]", Value: value, Line: l.lineAt(start)})
		if end+1 >= len(s) {
			return props, nil
		}
		start = end + 1
	}
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
