package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Settings files are UTF-8, .properties files included: Spring reads
// .properties as ISO-8859-1 by default, but a file written today is almost
// always UTF-8, and one that is not fails to load rather than being
// misread. A location names another encoding with a hint,
// file:legacy.properties[encoding=ISO-8859-1]; ISO-8859-1 is the only other
// one read.

// isUTF8 reports whether name names UTF-8, as Java's charset names do.
func isUTF8(name string) bool {
	switch strings.ToLower(name) {
	case "utf-8", "utf8":
		return true
	}
	return false
}

// isLatin1 reports whether name names ISO-8859-1 by one of Java's names.
func isLatin1(name string) bool {
	switch strings.ToLower(name) {
	case "iso-8859-1", "iso8859-1", "iso8859_1", "iso_8859_1", "iso_8859-1", "8859_1", "latin1", "l1":
		return true
	}
	return false
}

// decodeSettingsText returns the text of a settings file read as bytes in
// the named encoding, the value of Spring Boot's location hint
// "file.properties[encoding=ISO-8859-1]". The names are Java's, in any
// case: "" (no hint) and UTF-8 (or UTF8) keep the bytes as they are, for
// the parser to check line by line, so that invalid UTF-8 is reported with
// its line; ISO-8859-1 (or ISO8859_1, ISO_8859_1, latin1, l1, ...), the
// encoding java.util.Properties and Spring read .properties files in by
// default, maps each byte to the character of that number, so it cannot
// fail. Other encodings are an error naming the encoding: Java knows many
// more, but settings files are written in one of these two.
func decodeSettingsText(data []byte, encoding string) (string, error) {
	switch {
	case encoding == "" || isUTF8(encoding):
		return string(data), nil
	case isLatin1(encoding):
		return decodeLatin1(data), nil
	}
	return "", fmt.Errorf("encoding %q is not supported: settings files are read as UTF-8 or ISO-8859-1", encoding)
}

// decodeLatin1 decodes ISO-8859-1 bytes: each byte is the code point of
// the same number.
func decodeLatin1(data []byte) string {
	var b strings.Builder
	b.Grow(len(data) + len(data)/8) // bytes from 0x80 take two in UTF-8
	for _, c := range data {
		b.WriteRune(rune(c))
	}
	return b.String()
}

// invalidUTF8Error is a settings file read as UTF-8 that is not: most
// often one written in ISO-8859-1, which Spring reads .properties files
// as.
type invalidUTF8Error struct{ line int }

func (e invalidUTF8Error) Error() string { return fmt.Sprintf("line %d: invalid UTF-8", e.line) }

// checkUTF8 returns an invalidUTF8Error naming the first line of text that
// is not UTF-8, or nil: for YAML, whose parser says only "invalid trailing
// UTF-8 octet".
func checkUTF8(text string) error {
	if utf8.ValidString(text) {
		return nil
	}
	line := 1
	for len(text) > 0 {
		end := strings.IndexByte(text, '\n')
		if end < 0 {
			end = len(text)
		}
		if !utf8.ValidString(text[:end]) {
			return invalidUTF8Error{line: line}
		}
		text = text[min(end+1, len(text)):]
		line++
	}
	return invalidUTF8Error{line: line}
}

// encodingHint is what a report of a file that is not UTF-8 adds: how to
// name its encoding, in the location hint Spring reads (a file packaged
// in the binary is the service's own, and gets none). An import on the
// command line is the one place a hint can be added without rewriting
// the file or the locations that found it: the file is then read from
// there, in its encoding, and not again where the search finds it.
func encodingHint(f settingsFile) string {
	if f.fsys != nil {
		return ""
	}
	return fmt.Sprintf(": settings files are read as UTF-8; if this one is ISO-8859-1 (which Spring reads .properties files as), "+
		"name that encoding with a location hint, as in --app.config.import=optional:file:%s[encoding=ISO-8859-1]", f.shown)
}
