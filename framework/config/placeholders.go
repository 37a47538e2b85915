package config

import (
	"errors"
	"fmt"
	"strings"
)

// Placeholder resolution follows Spring Framework 6.2's PlaceholderParser. A
// placeholder runs from "${" to the '}' that balances it, counting every '{'
// as an opener as Spring does, so "${a:{b}}" has the default "{b}". Inside,
// the first ':' that is not inside a nested "${...}" separates the name from
// the default. The name may itself hold placeholders and is resolved first.
// The default is resolved only when needed, so "${set:${unset}}" is fine when
// set exists. A value found by lookup is resolved again; the names being
// resolved at that moment are kept on a stack, and meeting one of them again
// is a cycle.
//
// A name that nothing sets, and that has no default, is either an error
// (strict resolution: the loader's own keys, ResolvePlaceholders) or kept
// as written, "${name}", as Spring's binder keeps it (lenient resolution:
// the settings a service binds; see Environment.Lookup). Either way it is
// reported with the chain of settings that led to it.
const (
	// maxPlaceholderDepth bounds how deeply placeholders resolve through one
	// another (values, defaults and names alike).
	maxPlaceholderDepth = 32
	// maxPlaceholderExpansions bounds the placeholders resolved for one value:
	// without it, a=${b}${b}, b=${c}${c}, ... would need 2^32 lookups while
	// staying within the depth limit.
	maxPlaceholderExpansions = 10_000
)

// ResolvePlaceholders replaces every ${name} and ${name:default} in value,
// looking names up with lookup; defaults may themselves contain placeholders,
// and resolved values are resolved again (nested), up to a depth of 32. An
// unresolvable name without a default, a cycle (a.b=${a.b}) or an unclosed
// "${" is an error naming the placeholder.
//
// As in Spring, "${a:}" has the empty default, a name may contain
// placeholders ("${${env}.url}"), "$" or "{" alone is plain text, and a
// backslash escapes "${": \${name} is the text ${name} (Spring Boot 4
// resolves with Spring Framework's escape character; the settings
// fuzzing found it, conformance/settingsfuzz). Unlike Spring, an
// escaped separator (${a\:b}) is still one, and an unclosed "${" is an
// error rather than plain text, since it is almost always a typo. At
// most 10,000 placeholders are resolved for one value.
func ResolvePlaceholders(value string, lookup func(name string) (string, bool)) (string, error) {
	return resolvePlaceholders(value, func(name string) (string, bool, error) {
		v, ok := lookup(name)
		return v, ok, nil
	})
}

// resolvePlaceholders is ResolvePlaceholders with a lookup that can fail,
// as the random source's does on random.int(0): the failure ends the
// resolution, default or not, since it is a mistake in the placeholder.
func resolvePlaceholders(value string, lookup func(name string) (string, bool, error)) (string, error) {
	return resolveWith(&placeholderResolver{lookup: lookup}, value)
}

// resolveWith resolves value with r, which is used once.
func resolveWith(r *placeholderResolver, value string) (string, error) {
	r.inSecret = r.secret
	resolved, err := r.resolve(value, 0)
	var limit *placeholderLimit
	if r.tooDeep != "" && (err == nil || errors.As(err, &limit) && limit.descent) {
		// Only a resolver with a memo goes on past the depth limit, to
		// learn how deep the names nest (see placeholdermemo.go).
		err = r.depthError(r.tooDeep)
	}
	if err != nil {
		// The message shows the value with its secrets masked where they
		// stand (see showValue): the resolver knows which text is a
		// secret's, and nothing after it has to guess.
		return "", &placeholderError{err: err, value: abbreviate(showValue(value, r.secret))}
	}
	return resolved, nil
}

// placeholderError is a value whose placeholders could not be resolved:
// err says why, and value is the value as the message may show it.
type placeholderError struct {
	err   error
	value string
}

func (e *placeholderError) Error() string { return fmt.Sprintf("%v in value %q", e.err, e.value) }
func (e *placeholderError) Unwrap() error { return e.err }

// placeholderResolver holds the state of one ResolvePlaceholders call.
type placeholderResolver struct {
	lookup func(name string) (string, bool, error)
	// system, when set, answers the names that no source sets and the JVM
	// would: ${user.home} and the like (see systemProperty), with dir the
	// working directory. Their values are taken as they are, not resolved
	// again.
	system bool
	dir    string
	// lenient keeps a placeholder that nothing resolves as written, noting
	// it in unresolved, as Spring's binder does; otherwise it is an error.
	lenient    bool
	unresolved unresolvedSet
	// secret says that the value resolved is a secret's: a message shows
	// only the names of its placeholders. inSecret says the same of the
	// text being resolved at the moment.
	secret, inSecret bool

	resolving  map[string]bool // names whose values are being resolved
	expansions int

	// memo, when set, keeps what names resolve to across calls; see
	// placeholdermemo.go for how it keeps resolution linear.
	memo *placeholderMemo
	// deepest is the depth of the deepest placeholder met so far.
	deepest int
	// tooDeep is the first placeholder met at maxPlaceholderDepth, which
	// a resolver with a memo passes to learn the depth of the names below.
	tooDeep string
	// sensitive counts the lookups of names that hold secrets: what is
	// resolved through one is not kept in the memo, so that each Lookup
	// still learns the secrets it must mask, and a name built from one
	// is not shown.
	sensitive int
}

// maxResolvedBytes bounds a value that placeholders build: without it,
// x=${big}${big}... would copy a large value 10,000 times.
const maxResolvedBytes = 1 << 20

// resolve replaces the placeholders of s, which is depth resolutions deep.
func (r *placeholderResolver) resolve(s string, depth int) (string, error) {
	start := strings.Index(s, "${")
	if start < 0 {
		return s, nil
	}
	var b strings.Builder
	for start >= 0 {
		end := placeholderEnd(s, start)
		escaped := start > 0 && s[start-1] == '\\'
		if escaped && end < 0 {
			// Spring leaves an escaped "${" that nothing closes as it
			// is, backslash and all: text, not a typo.
			break
		}
		if end < 0 {
			return "", fmt.Errorf("unclosed placeholder %q", r.quote(s[start:]))
		}
		if escaped {
			// \${name} is the text ${name}: the backslash goes, and what
			// follows "${" is read on as text, as Spring Framework 6.2's
			// PlaceholderParser reads it with Spring Boot's escape
			// character.
			b.WriteString(s[:start-1])
			b.WriteString("${")
			s = s[start+2:]
			start = strings.Index(s, "${")
			continue
		}
		b.WriteString(s[:start])
		v, err := r.placeholder(s[start+2:end], depth)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		if b.Len() > maxResolvedBytes {
			return "", fmt.Errorf("placeholder %q makes the value longer than %d bytes", r.quote(s[start:end+1]), maxResolvedBytes)
		}
		s = s[end+1:]
		start = strings.Index(s, "${")
	}
	b.WriteString(s)
	return b.String(), nil
}

// placeholder resolves the placeholder whose text between "${" and "}" is
// content.
func (r *placeholderResolver) placeholder(content string, depth int) (string, error) {
	text := "${" + content + "}"
	if depth >= maxPlaceholderDepth {
		if r.memo == nil {
			return "", r.depthError(text)
		}
		if r.tooDeep == "" {
			r.tooDeep = text
		}
		if depth >= maxMemoDescent {
			return "", &placeholderLimit{msg: fmt.Sprintf("placeholder %q nested more than %d deep", r.quote(text), maxMemoDescent), descent: true}
		}
	}
	r.deepest = max(r.deepest, depth)
	r.expansions++
	if r.expansions > maxPlaceholderExpansions {
		return "", &placeholderLimit{msg: fmt.Sprintf("placeholder %q: more than %d placeholders to resolve", r.quote(text), maxPlaceholderExpansions)}
	}
	key, fallback, hasFallback := splitPlaceholder(content)
	sensitiveBefore := r.sensitive
	name, err := r.resolve(key, depth+1)
	if err != nil {
		return "", err
	}
	// A name built from a secret (${${db.password}}) is not shown.
	nameSecret := r.sensitive != sensitiveBefore
	if v, err, ok := r.remembered(name, text, depth+1); ok {
		return v, viaName(name, err)
	}
	v, ok, err := r.lookup(name)
	if err != nil {
		return "", fmt.Errorf("placeholder %q: %w", r.quote(text), err)
	}
	if ok {
		if r.resolving[name] {
			return "", fmt.Errorf("circular placeholder reference %q", name)
		}
		if r.resolving == nil {
			r.resolving = map[string]bool{}
		}
		r.resolving[name] = true
		outerSecret := r.inSecret
		r.inSecret = Sensitive(name)
		v, err = r.resolveName(name, v, depth+1)
		r.inSecret = outerSecret
		delete(r.resolving, name)
		return v, viaName(name, err)
	}
	if r.system {
		if v, ok := systemProperty(name, r.dir); ok {
			return v, nil
		}
		if v, ok, err := r.logFileProperty(name, depth); ok || err != nil {
			return v, err
		}
	}
	if hasFallback {
		// The default of a secret's placeholder is a secret too.
		outerSecret := r.inSecret
		r.inSecret = outerSecret || Sensitive(name)
		v, err := r.resolve(fallback, depth+1)
		r.inSecret = outerSecret
		return v, err
	}
	shown := name
	if nameSecret {
		shown = Mask
	}
	if r.lenient {
		// As Spring's binder: the placeholder stays, under the name it
		// resolved to (PlaceholderParser's handleUnresolvablePlaceholder),
		// unless that name was built from a secret.
		r.unresolved.add(Unresolved{Name: shown})
		return "${" + shown + "}", nil
	}
	return "", &unresolvedError{u: Unresolved{Name: shown}}
}

// depthError is the failure of a placeholder nested too deep.
func (r *placeholderResolver) depthError(text string) error {
	return &placeholderLimit{msg: fmt.Sprintf("placeholder %q nested more than %d deep", r.quote(text), maxPlaceholderDepth)}
}

// quote returns text as a message may quote it: its secrets masked
// where they stand, and shortened.
func (r *placeholderResolver) quote(text string) string {
	return abbreviate(showValue(text, r.inSecret))
}

// placeholderLimit is a failure that depends on where the resolution
// began, not only on the name that failed: a depth or a count exceeded.
// The memo does not keep it as the name's outcome.
type placeholderLimit struct {
	msg     string
	descent bool // maxMemoDescent was reached
}

func (e *placeholderLimit) Error() string { return e.msg }

// placeholderEnd returns the index of the '}' that closes the "${" at start
// in s, or -1.
func placeholderEnd(s string, start int) int {
	open := 0
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '{':
			open++
		case '}':
			open--
			if open == 0 {
				return i
			}
		}
	}
	return -1
}

// splitPlaceholder splits the text inside "${...}" at its first ':' that is
// outside nested placeholders. A ':' inside plain braces still splits, as in
// Spring, where only "${...}" forms a nested part.
func splitPlaceholder(content string) (key, fallback string, ok bool) {
	var nested []bool // one per open brace: whether it opened a placeholder
	placeholders := 0
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '{':
			isPlaceholder := i > 0 && content[i-1] == '$'
			nested = append(nested, isPlaceholder)
			if isPlaceholder {
				placeholders++
			}
		case '}':
			if n := len(nested); n > 0 {
				if nested[n-1] {
					placeholders--
				}
				nested = nested[:n-1]
			}
		case ':':
			if placeholders == 0 {
				return content[:i], content[i+1:], true
			}
		}
	}
	return content, "", false
}
