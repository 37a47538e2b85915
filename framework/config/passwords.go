package config

// Finding the passwords in a connection string without parsing it.
//
// A parser (url.Parse, pgx's, go-redis's) refuses what is malformed, and
// what it refuses is exactly what a report prints back: so the spans are
// found by scanning, erring towards masking more than the password, never
// less. Three shapes are looked for, in any text:
//
//   - user-info: everything between the first ':' of the user-info and
//     the last '@' (a password may hold '/', '#', '?' or '@' unescaped,
//     and drivers take it). The user-info starts after the first "//"
//     before that '@' or, with no "//" (postgres//u:pw@db has one,
//     postgres:u:pw@db has none), at the start of a value that opens
//     with a scheme ("postgres:"); text that does neither (mail me:
//     a@b.c) is left alone. A JDBC URL's scheme is "jdbc:" and its
//     subprotocol (jdbc:postgresql:u:pw@db), and Oracle's drivers take
//     user/password@ after their type: jdbc:oracle:thin:scott/tiger@db
//     masks tiger, and jdbc:oracle:thin:@db, which names no user, masks
//     nothing.
//   - key=value pairs whose key is Sensitive (password, sslpassword,
//     client_secret, PASSWORD, pass%77ord), delimited by the start,
//     whitespace, '?', '&' or ';': the query of a URL, a libpq DSN
//     (host=db password = 'p w' sslmode=disable), the properties of a
//     JDBC URL (jdbc:sqlserver://db;user=u;password=p, whose value may be
//     braced, {p;w}), and MySQL's key-value hosts
//     (jdbc:mysql://(host=db,user=u,password=p)/shop), delimited by '('
//     or ','. In a value that looks like a URL the pair's value ends at
//     '&' or ';' (and in MySQL's parentheses at ',' or ')'), as a query's
//     does; otherwise at unescaped whitespace, as a DSN's does, or at the
//     closing quote of a quoted value.
//
// Nothing else is masked: a host, a port, a database or a user name is
// shown as written.

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
	n, oracle := jdbcSchemeLength(s)
	switch i := strings.Index(s[:at], "//"); {
	case oracle && n <= at:
		start = n
		if slash := strings.IndexByte(s[start:at], '/'); slash >= 0 {
			return span{start + slash + 1, at}, true // user/password@
		}
	case i >= 0:
		start = i + 2
	case n > 0:
		start = n
	case schemeLength(s) == 0:
		return span{}, false
	}
	colon := strings.IndexByte(s[start:at], ':')
	if colon < 0 {
		return span{}, false // a user name alone, or none
	}
	return span{start + colon + 1, at}, true
}

// jdbcSchemeLength is the length of the JDBC scheme s opens with:
// "jdbc:", the subprotocol and its ':' (jdbc:postgresql:), and for
// Oracle's the driver type and its ':' too (jdbc:oracle:thin:), after
// which Oracle's drivers take user/password@; 0 when s is no JDBC URL.
func jdbcSchemeLength(s string) (n int, oracle bool) {
	if len(s) < 5 || !strings.EqualFold(s[:5], "jdbc:") {
		return 0, false
	}
	sub := schemeLength(s[5:])
	if sub == 0 {
		return 0, false
	}
	n = 5 + sub
	if strings.EqualFold(s[5:n], "oracle:") {
		if driver := schemeLength(s[n:]); driver > 0 {
			return n + driver, true
		}
		return n, true
	}
	return n, false
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
		key, delim := keyBefore(s, i)
		if !Sensitive(key) {
			continue
		}
		sp := valueAfter(s, i+1, inURL, inURL && (delim == '(' || delim == ','))
		if sp.end > sp.start {
			spans = append(spans, sp)
		}
		i = max(i, sp.end-1) // an '=' in the value names no key
	}
	return spans
}

// keyBefore returns the key of the pair whose '=' is at s[eq], or "" when
// the text before it is no key (it is not delimited as a key is), and the
// byte that delimits it (0 at the start of s). Spaces may stand around
// the '=' (libpq takes "password = pw"); a percent-encoded key is
// decoded, as a URL's query is.
func keyBefore(s string, eq int) (string, byte) {
	end := eq
	for end > 0 && s[end-1] == ' ' {
		end--
	}
	start := end
	for start > 0 && isKeyByte(s[start-1]) {
		start--
	}
	if start == end {
		return "", 0
	}
	var delim byte
	if start > 0 {
		delim = s[start-1]
		if !strings.ContainsRune(" \t\r\n?&;(,", rune(delim)) {
			return "", 0
		}
	}
	key := s[start:end]
	if decoded, err := url.QueryUnescape(key); err == nil {
		key = decoded
	}
	return key, delim
}

func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '%' || c == '+'
}

// valueAfter returns the span of the value that starts at s[from] (after
// any spaces, in a DSN). A quoted value (libpq's 'p w') is its inside, up
// to its closing quote or the end, and so is a braced one in a URL (SQL
// Server's {p;w}, where }} is a '}'), when what follows the close ends a
// value; otherwise, as an unquoted value, it runs in a URL up to '&' or
// ';' (or in MySQL's parentheses, grouped, see groupEnds), in a DSN up to
// unescaped whitespace.
func valueAfter(s string, from int, inURL, grouped bool) span {
	for !inURL && from < len(s) && s[from] == ' ' {
		from++ // libpq: password = pw
	}
	ends := func(i int) bool {
		c := s[i]
		return grouped && groupEnds(s, i) || inURL && !grouped && (c == '&' || c == ';') || !inURL && strings.ContainsRune(" \t\r\n", rune(c))
	}
	// closed reports whether a quote or brace closing at s[i] ends the
	// value: at the end of s, or before what ends one, or (outside MySQL's
	// parentheses) whitespace.
	closed := func(i int) bool {
		return i+1 >= len(s) || ends(i+1) || !grouped && strings.ContainsRune(" \t\r\n", rune(s[i+1]))
	}
	if from < len(s) && (inURL && s[from] == '{' || s[from] == '\'' || s[from] == '"') {
		i := from + 1
		if s[from] == '{' {
			for i < len(s) && (s[i] != '}' || i+1 < len(s) && s[i+1] == '}') {
				if s[i] == '}' {
					i++ // }} stands for }
				}
				i++
			}
		} else {
			for i < len(s) && s[i] != s[from] {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		}
		if i >= len(s) || closed(i) {
			return span{from + 1, min(i, len(s))}
		}
	}
	i := from
	for i < len(s) && !ends(i) {
		if s[i] == '\\' && !inURL {
			i++ // libpq: a backslash escapes the next byte
		}
		i++
	}
	return span{from, min(i, len(s))}
}

// groupEnds reports whether s[i] ends a value in MySQL's parenthesized
// key-value host, (host=db,user=u,password=p)/shop: a ',' before the next
// key=, or a ')' at the end or before '/', ',', '(' or '?'. A ',' or ')'
// elsewhere is taken as part of the password, masking more rather than
// less.
func groupEnds(s string, i int) bool {
	switch s[i] {
	case ',':
		j := i + 1
		for j < len(s) && isKeyByte(s[j]) {
			j++
		}
		return j > i+1 && j < len(s) && s[j] == '='
	case ')':
		return i+1 == len(s) || strings.IndexByte("/,(?", s[i+1]) >= 0
	}
	return false
}
