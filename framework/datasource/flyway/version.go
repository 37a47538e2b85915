package flyway

import (
	"fmt"
	"strings"
)

// A version is a versioned migration's version, as Flyway's
// MigrationVersion reads it: underscores are dots ("1_1" is "1.1"), the
// text splits at each dot followed by a digit, each part is a number
// (leading zeros do not count: "01" is 1), and trailing zero parts do not
// count either ("1.0" is 1). Versions compare part by part, a missing part
// as zero: 1 < 1.1 < 1.2 < 1.10 < 2.
type version struct {
	// text is how Flyway writes it in the version column and its
	// messages: the file's, underscores as dots ("1.1", "005").
	text string
	// parts are the numbers, without leading zeros ("0" for zero), the
	// trailing zero parts removed (but the first).
	parts []string
}

// parseVersion reads a version as MigrationVersion.fromVersion does,
// refusing what it refuses ("Version may only contain 0..9 and . (dot)").
// Flyway's markers current, latest and next are refused too: no file
// names them.
func parseVersion(s string) (version, error) {
	text := strings.ReplaceAll(s, "_", ".")
	switch strings.ToLower(text) {
	case "current", "latest", "next", "9223372036854775807":
		return version{}, fmt.Errorf("%q is one of Flyway's version markers, not a version", s)
	}
	var parts []string
	start := 0
	for i := 0; i <= len(text); i++ {
		// Flyway splits at \.(?=\d): a dot followed by a digit.
		if i < len(text) && !(text[i] == '.' && i+1 < len(text) && isDigit(text[i+1])) {
			continue
		}
		part := text[start:i]
		if part == "" || strings.Trim(part, "0123456789") != "" {
			return version{}, fmt.Errorf("version may only contain 0..9 and . (dot), as Flyway reads it: invalid version %s", text)
		}
		part = strings.TrimLeft(part, "0")
		if part == "" {
			part = "0"
		}
		parts = append(parts, part)
		start = i + 1
	}
	for len(parts) > 1 && parts[len(parts)-1] == "0" {
		parts = parts[:len(parts)-1]
	}
	return version{text: text, parts: parts}, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// compare returns -1, 0 or 1 as v is older than, the same as, or newer
// than w.
func (v version) compare(w version) int {
	for i := 0; i < max(len(v.parts), len(w.parts)); i++ {
		a, b := "0", "0"
		if i < len(v.parts) {
			a = v.parts[i]
		}
		if i < len(w.parts) {
			b = w.parts[i]
		}
		if c := compareNumbers(a, b); c != 0 {
			return c
		}
	}
	return 0
}

// compareNumbers compares two decimal numbers without leading zeros.
func compareNumbers(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func (v version) String() string { return v.text }
