package dispatch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// mediaType is a parsed media type or media range. Type and subtype are
// lower-cased; either may be "*". Parameters other than q are only counted
// (they make a range more specific) except charset, which request bodies
// need.
type mediaType struct {
	typ, sub string
	params   int    // parameters other than q
	q        int    // quality in thousandths, 0 to 1000
	charset  string // value of the charset parameter, unquoted, as written
}

func (m mediaType) String() string { return m.typ + "/" + m.sub }

// specificity orders ranges: a/b before a/* before */*, then more
// parameters before fewer.
func (m mediaType) specificity() int {
	s := 0
	if m.typ != "*" {
		s += 2
	}
	if m.sub != "*" {
		s++
	}
	return s<<8 | min(m.params, 255)
}

// includes reports whether the range m includes the concrete type t. A
// subtype range of the form "*+json" includes every subtype with that
// structured-syntax suffix. Parameters are not compared, as in Spring.
func (m mediaType) includes(t mediaType) bool {
	if m.typ != "*" && m.typ != t.typ {
		return false
	}
	switch {
	case m.sub == "*" || m.sub == t.sub:
		return true
	case strings.HasPrefix(m.sub, "*+"):
		// application/*+json covers application/problem+json, and
		// application/json itself.
		return strings.HasSuffix(t.sub, m.sub[1:]) || t.sub == m.sub[2:]
	}
	return false
}

// isPattern reports whether m has a wildcard in it.
func (m mediaType) isPattern() bool { return m.typ == "*" || strings.Contains(m.sub, "*") }

var errEmptyMediaType = errors.New("empty media type")

// parseMediaType parses one media type or range such as
// `application/json;charset=utf-8` or `text/*;q=0.5`. A lone "*" is read as
// "*/*", as Java clients send it. The q parameter must be a number from 0 to
// 1 with at most three decimals.
func parseMediaType(s string) (mediaType, error) {
	m := mediaType{q: 1000}
	s = strings.TrimSpace(s)
	full, rest, _ := strings.Cut(s, ";")
	full = strings.TrimSpace(full)
	if full == "" {
		return m, errEmptyMediaType
	}
	if full == "*" {
		full = "*/*"
	}
	typ, sub, ok := strings.Cut(full, "/")
	if !ok || !isToken(typ) || !isToken(sub) {
		return m, fmt.Errorf("%q is not a type/subtype pair", full)
	}
	if typ == "*" && sub != "*" {
		return m, fmt.Errorf("%q: a wildcard type needs a wildcard subtype", full)
	}
	m.typ, m.sub = strings.ToLower(typ), strings.ToLower(sub)
	for rest != "" {
		var param string
		param, rest = cutUnquoted(rest, ';')
		param = strings.TrimSpace(param)
		if param == "" {
			continue
		}
		name, value, ok := strings.Cut(param, "=")
		name = strings.TrimSpace(name)
		value = strings.TrimSpace(value)
		if !ok || !isToken(name) {
			return m, fmt.Errorf("parameter %q is not name=value", param)
		}
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		} else if !isToken(value) {
			return m, fmt.Errorf("parameter %q has an invalid value", param)
		}
		switch {
		case strings.EqualFold(name, "q"):
			q, ok := parseQuality(value)
			if !ok {
				return m, fmt.Errorf("quality %q is not a number from 0 to 1", value)
			}
			m.q = q
		case strings.EqualFold(name, "charset"):
			m.charset = value
			m.params++
		default:
			m.params++
		}
	}
	return m, nil
}

// cutUnquoted splits s at the first sep that is not inside a quoted
// string: the ';' between a media type's parameters, the ',' between the
// elements of an Accept list.
func cutUnquoted(s string, sep byte) (before, after string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// parseQuality reads an RFC 9110 qvalue: "0", "1", "0.5", "1.000".
func parseQuality(s string) (int, bool) {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	q := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return q, true
	}
	if s[1] != '.' {
		return 0, false
	}
	scale := 100
	for _, c := range s[2:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		q += int(c-'0') * scale
		scale /= 10
	}
	return q, q <= 1000
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c <= ' ' || c == 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// parseAccept parses an Accept header into ranges sorted by quality (higher
// first), then specificity (more specific first), keeping the header's order
// among equals. It appends to buf so that a caller can reuse storage. An
// empty header yields no ranges, which callers read as "*/*". Empty list
// elements are skipped; any other malformed element fails the whole header.
func parseAccept(header string, buf []mediaType) ([]mediaType, error) {
	ranges := buf[:0]
	for header != "" {
		var elem string
		elem, header = cutUnquoted(header, ',')
		m, err := parseMediaType(elem)
		if err == errEmptyMediaType && strings.TrimSpace(elem) == "" {
			continue
		}
		if err != nil {
			return nil, err
		}
		ranges = append(ranges, m)
	}
	slices.SortStableFunc(ranges, func(a, b mediaType) int {
		if a.q != b.q {
			return b.q - a.q
		}
		return b.specificity() - a.specificity()
	})
	return ranges, nil
}
