package config

import (
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
	case "iso-8859-1", "iso8859-1", "iso8859_1", "iso_8859_1", "latin1", "l1":
		return true
	}
	return false
}

// latin1ToUTF8 converts ISO-8859-1 text to UTF-8: each byte is the code
// point of the same number.
func latin1ToUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}
