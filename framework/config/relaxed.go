package config

import (
	"iter"
	"strings"
)

// Relaxed binding, as Spring Boot's binder matches a key to what a
// source sets (its ConfigurationPropertyName, DefaultPropertyMapper and
// SpringIterableConfigurationPropertySource): in a settings file,
// APP_APPLICATION_JSON, a config tree or an argument,
// server.compression.min-response-size is also set as
// server.compression.minResponseSize, server.compression.min_response_size
// or SERVER.COMPRESSION.MIN-RESPONSE-SIZE. Environment variables have
// their own names (EnvNames).
//
// A key is a list of elements, separated by dots or written in brackets:
// logging.level.[com.Foo] has three, the last com.Foo; hosts[0] two. Two
// keys are the same when their elements are, one by one:
//
//   - a plain element is compared in lower case without anything but the
//     letters a-z and digits (its uniform form): minResponseSize,
//     min-response-size and min_response_size are minresponsesize; an
//     element with nothing left of it but an underscore or other
//     characters is no element (server..port is server.port);
//   - an element in brackets is compared as written, case and every
//     character, and equals a plain one only when its text is that
//     element's uniform form: [foo] is foo and Foo, [Foo] is neither, so
//     a map's key keeps its case;
//   - hosts.0 is hosts[0], as in Spring.
//
// Within one source the key as asked for wins (as Spring first asks a
// source for the canonical form, the one bound), then, of its other forms
// there, the one set last, as a key set twice is; Spring leaves the
// choice between two other forms to a hash set's order.

// element is one element of a key: key[start:end], without its brackets.
type element struct {
	start, end int
	indexed    bool // written in brackets
}

// keyElements yields the elements of key, as Spring's ElementsParser
// splits a name: at dots outside brackets, and around brackets, which
// nest; a bracket left open leaves the rest of the key one plain element.
// An empty element, or a plain one with no letter, digit or inner dash,
// is skipped.
func keyElements(key string) iter.Seq[element] {
	return func(yield func(element) bool) {
		emit := func(start, end int, indexed bool) bool {
			if end <= start || !indexed && emptyElement(key[start:end]) {
				return true
			}
			return yield(element{start, end, indexed})
		}
		depth, start := 0, 0
		for i := 0; i < len(key); i++ {
			switch c := key[i]; {
			case c == '[':
				if depth == 0 {
					if !emit(start, i, false) {
						return
					}
					start = i + 1
				}
				depth++
			case c == ']' && depth > 0:
				depth--
				if depth == 0 {
					if !emit(start, i, true) {
						return
					}
					start = i + 1
				}
			case c == '.' && depth == 0:
				if !emit(start, i, false) {
					return
				}
				start = i + 1
			}
		}
		emit(start, len(key), false)
	}
}

// emptyElement reports whether a plain element holds nothing Spring
// counts: no letter or digit, in any case, and no dash after its first
// character.
func emptyElement(s string) bool {
	for i := 0; i < len(s); i++ {
		if validChar(lower(s[i]), i) {
			return false
		}
	}
	return true
}

// validChar is what a canonical element may hold at index i: a-z, 0-9,
// and a dash after the first character.
func validChar(c byte, i int) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' && i > 0
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isAlphanumeric(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// uniformText reports whether s is non-empty and only a-z and 0-9: an
// element's uniform form as it stands.
func uniformText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlphanumeric(s[i]) {
			return false
		}
	}
	return true
}

// matchKey returns key in the form in which two keys that Spring binds
// alike are equal: each element in its uniform form, one in brackets as
// written (in brackets still, unless its text is a uniform form), joined
// by dots. server.compression.minResponseSize and
// server.compression.min-response-size are both
// server.compression.minresponsesize; logging.level.[com.Foo] is itself.
// It takes time linear in the key.
func matchKey(key string) string {
	if uniformKey(key) {
		return key
	}
	var b strings.Builder
	b.Grow(len(key))
	first := true
	for e := range keyElements(key) {
		if !first {
			b.WriteByte('.')
		}
		first = false
		text := key[e.start:e.end]
		if e.indexed {
			if uniformText(text) {
				b.WriteString(text)
			} else {
				b.WriteByte('[')
				b.WriteString(text)
				b.WriteByte(']')
			}
			continue
		}
		for i := 0; i < len(text); i++ {
			if c := lower(text[i]); isAlphanumeric(c) {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

// uniformKey reports whether key is its own match key: elements of a-z
// and 0-9 only, none empty (server.port).
func uniformKey(key string) bool {
	if key == "" || key[0] == '.' || key[len(key)-1] == '.' {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '.' {
			if key[i-1] == '.' {
				return false
			}
		} else if !isAlphanumeric(c) {
			return false
		}
	}
	return true
}

// appMatch returns the match key of spring.X as that of its app. twin,
// app.X; any other match key as it is.
func appMatch(match string) string {
	if rest, ok := strings.CutPrefix(match, springPrefix); ok && rest != "" {
		return appPrefix + rest
	}
	return match
}

// memberForm returns a key, or the rest of one, as a map's key: its
// elements as written, case and every character, one in brackets without
// the brackets, joined by dots ([com.Foo] is com.Foo, com.Foo is com.Foo,
// hosts[0] is hosts.0). Spring keeps the case too (a map's key is its
// elements' ORIGINAL form), but outside brackets drops every character
// but letters, digits, '-' and '_' (com.Foo$Bar is com.FooBar there);
// here they are kept, as the user meant them.
func memberForm(key string) string {
	var b strings.Builder
	first := true
	for e := range keyElements(key) {
		if !first {
			b.WriteByte('.')
		}
		first = false
		b.WriteString(key[e.start:e.end])
	}
	return b.String()
}

// afterElements returns what follows the first n elements of key, as
// written, without the dot that separates it from them; ok is false when
// key has no more than n elements.
func afterElements(key string, n int) (rest string, ok bool) {
	i := 0
	for e := range keyElements(key) {
		if i == n {
			rest = key[e.start:]
			if e.indexed {
				rest = key[e.start-1:] // with its bracket
			}
			return rest, true
		}
		i++
	}
	return "", false
}

// countElements returns the number of elements of key.
func countElements(key string) int {
	n := 0
	for range keyElements(key) {
		n++
	}
	return n
}

// lookupName is a key to look up, with its match key.
type lookupName struct{ key, match string }

// lookupNames returns the names a source may set key under, each with its
// match key: key, then its spring. twin (namesOf), then the same of each
// name it had before a rename (renames.go).
func lookupNames(key string) []lookupName {
	names := namesOf(key)
	for _, old := range oldNames(key) {
		names = append(names, namesOf(old)...)
	}
	out := make([]lookupName, len(names))
	for i, n := range names {
		out[i] = lookupName{n, matchKey(n)}
	}
	return out
}

// SameKey reports whether Spring's binder takes the keys a and b for one
// setting, as a source may write it: server.compression.minResponseSize
// and server.compression.min-response-size are one.
func SameKey(a, b string) bool { return a == b || matchKey(a) == matchKey(b) }

// UnderPrefix reports whether key, in any of its forms (its spring. twin
// too), is a member of the family prefix, a key ending in a dot written
// in its canonical form (app.security.user.): App.Security.User.Name and
// spring.security.user.name are.
func UnderPrefix(key, prefix string) bool {
	return strings.HasPrefix(appMatch(matchKey(key)), matchKey(strings.TrimSuffix(prefix, "."))+".")
}

// MemberName returns the name a member of the family prefix gives it, as
// a map's key: key, as KeysWithPrefix returns it, less prefix, as written
// (memberForm). logging.level.com.Foo gives com.Foo, and
// logging.level.[com.Foo] com.Foo too.
func MemberName(key, prefix string) string {
	return memberForm(strings.TrimPrefix(key, prefix))
}

// CutMember splits a key of the family prefix whose members are groups of
// settings (management.endpoint.health.group.<name>.include): name is the
// first element after prefix as written (as MemberName gives it), and
// sub the rest of the key as written; ok is false when key has nothing
// after the name.
func CutMember(key, prefix string) (name, sub string, ok bool) {
	rest := strings.TrimPrefix(key, prefix)
	for e := range keyElements(rest) {
		sub, ok = afterElements(rest, 1)
		return rest[e.start:e.end], sub, ok
	}
	return "", "", false
}

// CutKey splits key at its first element: head is that element as
// written, without brackets, tail the rest of the key after it (without
// the dot between), more whether there is any. Listings that nest keys
// (/actuator/configprops) split them so, and logging.level.[com.Foo] is
// logging, level and com.Foo.
func CutKey(key string) (head, tail string, more bool) {
	for e := range keyElements(key) {
		tail, more = afterElements(key, 1)
		return key[e.start:e.end], tail, more
	}
	return key, "", false
}
