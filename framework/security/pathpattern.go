package security

import (
	"fmt"
	"strings"
)

// PathPattern is a path pattern as Spring's PathPattern reads one (the
// patterns of authorizeHttpRequests and of Spring Boot's settings):
//
//	/api/**        /api and everything under it (** only as the last segment)
//	/api/*/items   one segment, whatever it holds, between them
//	/files/*.json  * within a segment: any characters but /; ? one character
//	/users/{id}    {name} one segment, not empty; {*rest} the rest of the path
//
// It matches the whole path, without the context path; a trailing slash
// is a different path, as in Spring 6.
type PathPattern struct {
	raw      string
	segments []string
	rest     bool // ends in ** or {*name}: the segments after are any
	// form and prefix are the pattern compiled for Matches, which the
	// rules try one after the other on every request (thirty-odd with
	// the management endpoints'): most patterns are plain paths, or plain
	// paths and everything under them, which a comparison of strings
	// decides.
	form   patternForm
	prefix string // see patternForm
}

// patternForm is how Matches decides.
type patternForm uint8

const (
	// general: segment by segment, after a look at prefix, the literal
	// segments the pattern starts with and their slashes, which every
	// path it matches starts with.
	general patternForm = iota
	// exact: no wildcard; the path is the pattern.
	exact
	// under: literal segments, then ** or {*name}; the path is prefix
	// (those segments; empty for /**) or starts with prefix and a slash.
	under
)

// ParsePathPattern reads a pattern; it must start with /, and ** or
// {*name} may only end it.
func ParsePathPattern(raw string) (PathPattern, error) {
	if !strings.HasPrefix(raw, "/") {
		return PathPattern{}, fmt.Errorf("path pattern %q: want a pattern that starts with /", raw)
	}
	segments := strings.Split(raw[1:], "/")
	p := PathPattern{raw: raw}
	for i, s := range segments {
		last := i == len(segments)-1
		isRest := s == "**" || strings.HasPrefix(s, "{*") && strings.HasSuffix(s, "}")
		if isRest && !last {
			return PathPattern{}, fmt.Errorf("path pattern %q: ** and {*name} may only end a pattern, as in Spring's PathPattern", raw)
		}
		if strings.Count(s, "{") != strings.Count(s, "}") {
			return PathPattern{}, fmt.Errorf("path pattern %q: a { without its } in %q", raw, s)
		}
		if isRest {
			p.rest = true
			break
		}
		p.segments = append(p.segments, s)
	}
	p.compile()
	return p, nil
}

// compile sets form and prefix.
func (p *PathPattern) compile() {
	literals := 0 // the segments before the first with a wildcard
	for literals < len(p.segments) && !strings.ContainsAny(p.segments[literals], "*?{") {
		literals++
	}
	switch {
	case literals == len(p.segments) && !p.rest:
		p.form, p.prefix = exact, p.raw
	case literals == len(p.segments):
		p.form = under
		if literals > 0 {
			p.prefix = "/" + strings.Join(p.segments, "/")
		}
	default:
		// A wildcard segment follows the literals, so a path that
		// matches has one more segment after them.
		p.form, p.prefix = general, "/"
		if literals > 0 {
			p.prefix = "/" + strings.Join(p.segments[:literals], "/") + "/"
		}
	}
}

// MustPathPattern is ParsePathPattern for a pattern written in code.
func MustPathPattern(raw string) PathPattern {
	p, err := ParsePathPattern(raw)
	if err != nil {
		panic(err)
	}
	return p
}

func (p PathPattern) String() string { return p.raw }

// firstSegment is the first segment of every path p matches, named when
// p's first segment has no wildcard ("api" for /api/** and /api/*.json);
// "/**" and "/*.json" name none.
func (p PathPattern) firstSegment() (string, bool) {
	if len(p.segments) == 0 || strings.ContainsAny(p.segments[0], "*?{") {
		return "", false
	}
	return p.segments[0], true
}

// Matches reports whether path, a request's path without the context
// path, matches.
func (p PathPattern) Matches(path string) bool {
	switch p.form {
	case exact:
		return path == p.prefix
	case under:
		// "/api/**" matches "/api" and what is under "/api/"; "/**"
		// any path (which starts with a slash).
		return path == p.prefix && path != "" ||
			len(path) > len(p.prefix) && path[len(p.prefix)] == '/' && path[:len(p.prefix)] == p.prefix
	}
	if !strings.HasPrefix(path, p.prefix) {
		return false
	}
	return p.matchSegments(path)
}

// matchSegments is Matches segment by segment, whatever the pattern.
func (p PathPattern) matchSegments(path string) bool {
	rest, ok := strings.CutPrefix(path, "/")
	if !ok {
		return false
	}
	for i, seg := range p.segments {
		var s string
		var more bool
		s, rest, more = strings.Cut(rest, "/")
		if !matchSegment(seg, s) {
			return false
		}
		if !more {
			// The path ends: it matches when the pattern does too, or
			// when what is left of it is ** ("/api/**" matches "/api").
			return i == len(p.segments)-1
		}
	}
	// Segments remain in the path (rest, after a slash).
	return p.rest || (len(p.segments) == 0 && rest == "")
}

// matchSegment matches one segment against one of the pattern's: *, ?
// and {name} (any characters but /; {name} alone wants at least one).
func matchSegment(pattern, s string) bool {
	if strings.HasPrefix(pattern, "{") && strings.HasSuffix(pattern, "}") && strings.Count(pattern, "{") == 1 {
		return s != ""
	}
	return glob(pattern, s)
}

// glob matches s against pattern's *, ? and {name} (read as *).
func glob(pattern, s string) bool {
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			pattern = pattern[1:]
			for i := len(s); i >= 0; i-- {
				if glob(pattern, s[i:]) {
					return true
				}
			}
			return false
		case '{':
			end := strings.IndexByte(pattern, '}')
			return glob("*"+pattern[end+1:], s)
		case '?':
			if s == "" {
				return false
			}
			s, pattern = s[1:], pattern[1:]
		default:
			if s == "" || s[0] != pattern[0] {
				return false
			}
			s, pattern = s[1:], pattern[1:]
		}
	}
	return s == ""
}
