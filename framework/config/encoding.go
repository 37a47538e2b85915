package config

import (
	"fmt"
	"strings"
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
