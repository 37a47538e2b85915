package config

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"unicode/utf8"
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
// placeholders ("${${env}.url}"), and "$" or "{" alone is plain text. Unlike
// Spring Framework 6.2, a backslash does not escape "${" (Spring Boot 3.5
// does not enable escaping), and an unclosed "${" is an error rather than
// plain text, since it is almost always a typo. At most 10,000 placeholders
// are resolved for one value.
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
		if end < 0 {
			return "", fmt.Errorf("unclosed placeholder %q", r.quote(s[start:]))
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

// Unresolved is a placeholder that nothing resolves: no source sets its
// name, nor does the JVM's stand-in (systemProperty), and it has no
// default.
type Unresolved struct {
	// Name is the name the placeholder looks up, ${Name}; Mask when it was
	// built from a secret.
	Name string
	// Via are the settings whose values led to it, outermost first:
	// x=${a}, a=${b}, b=${missing} reaches ${missing} via a and b. Empty
	// when the value itself holds the placeholder.
	Via []string
	// Elided counts the names left out of Via, at its middle, when the
	// chain is longer than maxVia.
	Elided int
}

// maxVia bounds the names an Unresolved keeps of its chain.
const maxVia = 16

// String is `"missing"`, or `"missing" (via a → b)`.
func (u Unresolved) String() string {
	s := fmt.Sprintf("%q", u.Name)
	if len(u.Via) == 0 {
		return s
	}
	via := u.Via
	if u.Elided > 0 {
		via = append(append(append([]string{}, via[:maxVia/2]...), fmt.Sprintf("… (%d more)", u.Elided)), via[maxVia/2:]...)
	}
	return s + " (via " + strings.Join(via, " → ") + ")"
}

// under returns u as reached through name's value: name leads its chain.
func (u Unresolved) under(name string) Unresolved {
	via := make([]string, 0, len(u.Via)+1)
	via = append(append(via, name), u.Via...)
	if len(via) > maxVia {
		via = append(via[:maxVia/2], via[maxVia/2+1:]...)
		u.Elided++
	}
	u.Via = via
	return u
}

// unresolvedSet holds the placeholders a resolution kept as written: the
// first few, and how many there were.
type unresolvedSet struct {
	list  []Unresolved
	count int
}

// maxUnresolvedListed bounds the placeholders listed of one value.
const maxUnresolvedListed = 4

func (s *unresolvedSet) add(u Unresolved) {
	s.count++
	if len(s.list) < maxUnresolvedListed {
		s.list = append(s.list, u)
	}
}

// addUnder adds what from holds, reached through name's value.
func (s *unresolvedSet) addUnder(name string, from unresolvedSet) {
	for _, u := range from.list {
		if len(s.list) < maxUnresolvedListed {
			s.list = append(s.list, u.under(name))
		}
	}
	s.count += from.count
}

// unresolvedError is a placeholder that nothing resolves, in a strict
// resolution.
type unresolvedError struct{ u Unresolved }

func (e *unresolvedError) Error() string { return "could not resolve placeholder " + e.u.String() }

// viaName returns err as met through name's value: an unresolved
// placeholder's chain begins with name.
func viaName(name string, err error) error {
	if ue, ok := err.(*unresolvedError); ok {
		return &unresolvedError{u: ue.u.under(name)}
	}
	return err
}

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

// The JVM sets system properties that Spring users' files refer to
// (halo's ${user.home}/.halo2): Spring resolves them from its
// systemProperties source. Here, a placeholder whose name no source sets
// is answered by Go's equivalent, when it names one of these.
const (
	propUserHome = "user.home"      // os.UserHomeDir
	propUserDir  = "user.dir"       // the working directory
	propUserName = "user.name"      // the user running the process
	propTmpDir   = "java.io.tmpdir" // os.TempDir
)

// systemProperty returns the value of the JVM's system property name, as
// Go finds it, when it is one of those above. dir is the working
// directory the settings are read from ("" for the process's).
func systemProperty(name, dir string) (string, bool) {
	switch name {
	case propUserHome:
		home, err := os.UserHomeDir()
		return home, err == nil && home != ""
	case propUserDir:
		if dir != "" {
			abs, err := filepath.Abs(dir)
			return abs, err == nil
		}
		wd, err := os.Getwd()
		return wd, err == nil
	case propUserName:
		if u, err := user.Current(); err == nil && u.Username != "" {
			return u.Username, true
		}
		for _, v := range []string{"USER", "USERNAME", "LOGNAME"} {
			if s := os.Getenv(v); s != "" {
				return s, true
			}
		}
		return "", false
	case propTmpDir:
		return os.TempDir(), true
	}
	return "", false
}
