package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// abbreviate shortens s for an error message, so that a huge value does not
// flood the log: at most 80 characters, then "...".
func abbreviate(s string) string {
	const max = 80
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	return fmt.Sprintf("%.*s...", max, s)
}

// showValue returns a value as a message may show it, its secrets masked
// where they stand rather than wherever their text recurs: for a secret's
// value (secret), the names of its placeholders and nothing else
// (${DB_PASSWORD:******}, ******${SUFFIX}); for any other value, the
// value with the defaults of placeholders that name secrets masked
// (${db.password:******}) and the passwords of connection strings
// (MaskPasswords).
func showValue(s string, secret bool) string {
	if !secret && !strings.ContainsAny(s, ":=") {
		return s // no default, no user-info password, no key=value pair
	}
	shown := showPlaceholders(s, secret, 0)
	if secret {
		return shown
	}
	return MaskPasswords(shown)
}

// maxShownNesting bounds how deeply showPlaceholders follows placeholders
// inside names and defaults; deeper text is masked whole, which is safe.
const maxShownNesting = 8

// showPlaceholders is showValue without the passwords of connection
// strings: the placeholders of s with their names, their defaults masked
// when they are a secret's, and the rest of s masked when secret.
func showPlaceholders(s string, secret bool, nesting int) string {
	if nesting > maxShownNesting {
		return Mask
	}
	var b strings.Builder
	text := func(t string) {
		switch {
		case t == "":
		case secret:
			b.WriteString(Mask)
		default:
			b.WriteString(t)
		}
	}
	for {
		start := strings.Index(s, "${")
		if start < 0 {
			text(s)
			return b.String()
		}
		text(s[:start])
		end := placeholderEnd(s, start)
		closed := end >= 0
		if !closed {
			end = len(s)
		}
		key, fallback, hasFallback := splitPlaceholder(s[start+2 : end])
		b.WriteString("${")
		b.WriteString(showPlaceholders(key, false, nesting+1)) // a name is no secret
		if hasFallback {
			b.WriteByte(':')
			b.WriteString(showPlaceholders(fallback, secret || Sensitive(key), nesting+1))
		}
		if !closed {
			return b.String()
		}
		b.WriteByte('}')
		s = s[end+1:]
	}
}
