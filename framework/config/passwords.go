package config

// Finding the passwords in a connection string without parsing it.
//
// A parser (url.Parse, pgx's, go-redis's) refuses what is malformed, and
// what it refuses is exactly what a report prints back: so the spans are
// found by scanning, erring towards masking more than the password, never
// less. Two shapes are looked for, in any text:
//
//   - user-info: everything between the first ':' of the user-info and
//     the last '@' (a password may hold '/', '#', '?' or '@' unescaped,
//     and drivers take it). The user-info starts after the first "//"
//     before that '@' or, with no "//" (postgres//u:pw@db has one,
//     postgres:u:pw@db has none), at the start of a value that opens
//     with a scheme ("postgres:"); text that does neither (mail me:
//     a@b.c) is left alone.
//   - key=value pairs whose key is Sensitive (password, sslpassword,
//     client_secret, PASSWORD, pass%77ord), delimited by the start,
//     whitespace, '?', '&' or ';': the query of a URL and a libpq DSN
//     (host=db password = 'p w' sslmode=disable) alike. In a value that
//     looks like a URL the pair's value ends at '&' or ';', as a query's
//     does; otherwise at unescaped whitespace, as a DSN's does, or at the
//     closing quote of a quoted value.

import (
	"net/url"
	"slices"
	"strings"
)

// span is s[start:end], a password.
type span struct{ start, end int }

// passwordSpans returns the spans of s that hold passwords, sorted and
// not overlapping.
func passwordSpans(s string) []span {
	var spans []span
	if sp, ok := userInfoPassword(s); ok {
		spans = append(spans, sp)
	}
	spans = append(spans, sensitivePairs(s, looksLikeURL(s))...)
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		if last := &merged[len(merged)-1]; sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// looksLikeURL reports whether s has a "//" or opens with a scheme
// (letters, digits, '+', '-' or '.' then ':').
func looksLikeURL(s string) bool {
	return strings.Contains(s, "//") || schemeLength(s) > 0
}

// schemeLength is the length of the scheme s opens with, its ':'
// included, or 0.
func schemeLength(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// userInfoPassword finds the password of a URL's user-info in s, well
// formed or not.
func userInfoPassword(s string) (span, bool) {
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return span{}, false
	}
	start := 0
	if i := strings.Index(s[:at], "//"); i >= 0 {
		start = i + 2
	} else if schemeLength(s) == 0 {
		return span{}, false
	}
	colon := strings.IndexByte(s[start:at], ':')
	if colon < 0 {
		return span{}, false // a user name alone
	}
	return span{start + colon + 1, at}, true
}

// sensitivePairs finds the values of the key=value pairs of s whose key
// is Sensitive. inURL says how an unquoted value ends: at '&' or ';' in a
// URL's query, at whitespace in a DSN.
func sensitivePairs(s string, inURL bool) []span {
	var spans []span
	for i := 0; i < len(s); i++ {
		if s[i] != '=' {
			continue
		}
		if !Sensitive(keyBefore(s, i)) {
			continue
		}
		sp := valueAfter(s, i+1, inURL)
		if sp.end > sp.start {
			spans = append(spans, sp)
		}
		i = max(i, sp.end-1) // an '=' in the value names no key
	}
	return spans
}

// keyBefore returns the key of the pair whose '=' is at s[eq], or "" when
// the text before it is no key (it is not delimited as a key is).
// Spaces may stand around the '=' (libpq takes "password = pw"); a
// percent-encoded key is decoded, as a URL's query is.
func keyBefore(s string, eq int) string {
	end := eq
	for end > 0 && s[end-1] == ' ' {
		end--
	}
	start := end
	for start > 0 && isKeyByte(s[start-1]) {
		start--
	}
	if start == end {
		return ""
	}
	if start > 0 && !strings.ContainsRune(" \t\r\n?&;", rune(s[start-1])) {
		return ""
	}
	key := s[start:end]
	if decoded, err := url.QueryUnescape(key); err == nil {
		key = decoded
	}
	return key
}

func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '%' || c == '+'
}

// valueAfter returns the span of the value that starts at s[from] (after
// any spaces): the inside of a quoted value, up to its closing quote or
// the end; otherwise up to '&' or ';' in a URL and to unescaped
// whitespace in a DSN.
func valueAfter(s string, from int, inURL bool) span {
	for from < len(s) && s[from] == ' ' {
		from++
	}
	if from < len(s) && (s[from] == '\'' || s[from] == '"') {
		quote := s[from]
		i := from + 1
		for i < len(s) && s[i] != quote {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		return span{from + 1, min(i, len(s))}
	}
	i := from
	for i < len(s) {
		c := s[i]
		if inURL && (c == '&' || c == ';') || !inURL && strings.ContainsRune(" \t\r\n", rune(c)) {
			break
		}
		if c == '\\' && !inURL {
			i++ // libpq: a backslash escapes the next byte
		}
		i++
	}
	return span{from, min(i, len(s))}
}
