package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// source is one layer of settings: a settings file, the environment, the
// random values or the command line. Nothing changes a source once it is
// loaded, reading included, except that the random source fixes a key's
// value the first time it is read (see random.go).
type source struct {
	name    string           // how /actuator/env names the source, in Spring's wording
	entries map[string]Entry // by key
	keys    []string         // in order of definition
	// matches are the match keys of keys (relaxed.go), one for one, and
	// byMatch the key last set under each: a key is found in any of the
	// forms a source may write it in.
	matches []string
	byMatch map[string]string

	// profileBound marks a source read only because of the active profiles:
	// a profile-specific file, a document with app.config.activate.on-profile,
	// or what either imports. It may not decide profiles (refuseProfileKeys).
	profileBound bool
	// originParents are the origins of the imports that read the source,
	// nearest first: listings show them beside each setting's origin.
	originParents []string

	// literal marks a config tree: its values are read as written, never
	// resolved, as Spring's binder resolves placeholders only in values
	// that are strings (a config tree's are its files' contents). A
	// placeholder elsewhere that names one of its keys still resolves
	// what the value holds, as Spring's does.
	literal bool

	// lookupEnv, when set, makes this the environment source: it holds no
	// entries, but looks a key up on demand under the key's relaxed names.
	lookupEnv func(string) (string, bool)

	// random, when set, makes this the random source: it holds no
	// entries, and makes the value of a key "random.*" when first asked.
	random *randomValues
}

// Entry is one setting of a source as listings show it.
type Entry struct {
	Key    string // the property key, or for the environment the variable's name
	Value  string // the raw value, placeholders unresolved
	Origin string // where exactly it was defined
	// OriginParents are the origins of the imports that read the file
	// it is in, nearest first (Spring's origin parents); nil for none.
	OriginParents []string
}

func newSource(name string) *source {
	return &source{name: name, entries: map[string]Entry{}, byMatch: map[string]string{}}
}

func (s *source) set(key, value, origin string) {
	match := matchKey(key)
	if _, ok := s.entries[key]; !ok {
		s.keys = append(s.keys, key)
		s.matches = append(s.matches, match)
	}
	s.entries[key] = Entry{Key: key, Value: value, Origin: origin}
	s.byMatch[match] = key
}

// lookup finds key in the source, in any of its forms (relaxed.go). For
// the environment, the entry found is the first of the key's relaxed
// names that is set.
func (s *source) lookup(key string) (Entry, bool) {
	return s.lookupNames(lookupNames(key))
}

// lookupNames is lookup of the names lookupNames gives a key.
func (s *source) lookupNames(names []lookupName) (Entry, bool) {
	return s.lookupNamesLists(names, true)
}

// lookupNamesLists is lookupNames; lists says whether a list held element
// by element (key[0], key[1]) is found as one value (see indexedList).
func (s *source) lookupNamesLists(names []lookupName, lists bool) (Entry, bool) {
	// An app. key is found under its spring. twin too (twins.go), in any
	// form; app.X in any form wins over spring.X.
	if s.lookupEnv == nil {
		for _, n := range names {
			if e, ok := s.entries[n.key]; ok {
				return e, true
			}
			if k, ok := s.byMatch[n.match]; ok {
				return s.entries[k], true
			}
			if !lists {
				continue
			}
			if e, ok := s.indexedList(n); ok {
				return e, true
			}
		}
		return Entry{}, false
	}
	// A variable set to the empty string is set, as in Spring: it
	// overrides the files with an empty value.
	for _, n := range names {
		for _, name := range EnvNames(n.key) {
			if v, ok := s.lookupEnv(name); ok {
				return Entry{Key: name, Value: v, Origin: "environment variable " + name}, true
			}
		}
	}
	return Entry{}, false
}

// indexedList finds a list that the source holds element by element, as
// YAML and JSON lists flatten (key[0], key[1], ...), and returns it as
// one comma-separated entry: the form list-typed settings parse, so
// "hosts: [a, b]" in YAML binds as hosts=a,b does. As in Spring, the
// source that holds any element of a list holds the whole list: a lower
// source's elements do not fill in. The entry's origin is that of the
// first element. An element holding a comma splits into two, as it would
// written comma-separated.
func (s *source) indexedList(n lookupName) (Entry, bool) {
	first, ok := s.listElement(n, 0)
	if !ok {
		return Entry{}, false
	}
	values := []string{first.Value}
	for i := 1; ; i++ {
		e, ok := s.listElement(n, i)
		if !ok {
			break
		}
		values = append(values, e.Value)
	}
	return Entry{Key: n.key, Value: strings.Join(values, ","), Origin: first.Origin}, true
}

// listElement finds element i of the list n, key[i] in any form (hosts[0],
// Hosts[0], hosts.0).
func (s *source) listElement(n lookupName, i int) (Entry, bool) {
	index := strconv.Itoa(i)
	if e, ok := s.entries[n.key+"["+index+"]"]; ok {
		return e, true
	}
	if k, ok := s.byMatch[n.match+"."+index]; ok {
		return s.entries[k], true
	}
	return Entry{}, false
}

// find is lookup for every kind of source: the random source's can fail,
// on a malformed range such as random.int(0).
func (s *source) find(key string, names []lookupName) (Entry, bool, error) {
	return s.findLists(key, names, true)
}

// findLists is find; lists as for lookupNamesLists.
func (s *source) findLists(key string, names []lookupName, lists bool) (Entry, bool, error) {
	if s.random != nil {
		return s.random.lookup(key)
	}
	e, ok := s.lookupNamesLists(names, lists)
	return e, ok, nil
}

// EnvNames returns the environment variables that can set key, by Spring
// Boot's relaxed rules: upper case, '.' becomes '_', and '-' is either
// dropped or becomes '_'. So APP_EXAMPLE_PROPB and APP_EXAMPLE_PROP_B both
// set app.example.prop-b.
func EnvNames(key string) []string {
	up := strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
	dropped := strings.ReplaceAll(up, "-", "")
	if !strings.Contains(up, "-") {
		return []string{dropped}
	}
	return []string{dropped, strings.ReplaceAll(up, "-", "_")}
}

// Environment is the loaded configuration: its sources in precedence order
// and the profiles they activated. It does not change after Load; looking
// a setting up records nothing, except the value a random.* key is given
// the first time, which it keeps.
type Environment struct {
	sources        []*source // highest precedence first
	active         []string
	defaultActive  bool // no profile was set; active holds the default profiles
	defaultProfile []string
	// loadKeys are the keys Load read to find the settings files and decide
	// the profiles, which the environment listing counts as read.
	loadKeys []string
	// warnings are what Load skipped and the start-up log should say.
	warnings []Warning
	// memo and lenientMemo keep what names resolve to, strictly and
	// leniently (see placeholdermemo.go).
	memo, lenientMemo placeholderMemo
	// dir is the working directory the settings were read from, "" for
	// the process's: ${user.dir}.
	dir string
}

// A Warning is something start-up went on past, for its log: what is
// wrong, and the setting it is about, under its key as written (spring.
// or app.) and with its origin, when it is about one.
type Warning struct {
	Message string
	Key     string // "" when about no one setting
	Origin  string // never quoting a value
	// Attrs are more key-value pairs for the log line.
	Attrs []any
}

// LogAttrs are the warning's key, origin and attributes as a log line's
// key-value pairs (slog's).
func (w Warning) LogAttrs() []any {
	var attrs []any
	if w.Key != "" {
		attrs = append(attrs, "key", w.Key)
	}
	if w.Origin != "" {
		attrs = append(attrs, "origin", w.Origin)
	}
	return append(attrs, w.Attrs...)
}

// Warnings returns what Load skipped that the start-up log should report:
// an optional location of a type that is not read, for one, naming the
// setting that named it and where that was set.
func (e *Environment) Warnings() []Warning { return slices.Clone(e.warnings) }

// Value is a setting as the environment resolves it.
type Value struct {
	Key      string
	Raw      string // as written, placeholders unresolved
	Resolved string
	Source   string // the name of the source that won
	Origin   string // where in that source

	// Unresolved are the placeholders that nothing resolves, kept in
	// Resolved as written (${name}), as Spring's binder keeps them: the
	// first few of UnresolvedCount.
	Unresolved      []Unresolved
	UnresolvedCount int

	// secrets are texts that a report must not show: the value itself
	// when Key holds a secret, and what a placeholder took from a key that
	// holds one (x=${db.password}). See SettingError.Shown.
	secrets []string
}

// Lookup returns the winning value of key with its placeholders resolved,
// as Spring's binder resolves them: a placeholder that nothing resolves
// is kept as written and listed in Value.Unresolved, except in a secret
// (a key that Sensitive names, or the password of a connection string),
// where it is a *SettingError: a literal ${...} is never the password
// anyone meant. Any other placeholder that cannot be resolved (a cycle,
// an unclosed "${", too deep a nesting, random.int(0)) is a *SettingError.
func (e *Environment) Lookup(key string) (Value, bool, error) {
	return e.lookup(key, true)
}

// LookupStrict is Lookup with every unresolvable placeholder an error:
// for the keys that find the settings files and decide the profiles, where
// a literal ${...} would name a location or a profile nobody meant.
func (e *Environment) LookupStrict(key string) (Value, bool, error) {
	return e.lookup(key, false)
}

func (e *Environment) lookup(key string, lenient bool) (Value, bool, error) {
	src, ent, ok, err := e.raw(key)
	if err != nil {
		return Value{Key: key}, true, &SettingError{Value: Value{Key: key, Source: src.name}, Reason: err.Error()}
	}
	if !ok {
		return Value{}, false, nil
	}
	var secrets []string
	secret := Sensitive(key)
	r := e.resolver(func(name string) (string, bool, error) {
		raw, ok, err := e.rawValue(name)
		if ok && Sensitive(name) {
			secrets = append(secrets, raw, e.Resolve(raw))
		}
		return raw, ok, err
	}, lenient, secret)
	resolved, err := ent.Value, error(nil)
	if !src.literal {
		resolved, err = resolveWith(r, ent.Value)
	}
	if secret {
		secrets = append(secrets, ent.Value, resolved)
	}
	v := Value{Key: key, Raw: ent.Value, Resolved: resolved, Source: src.name, Origin: ent.Origin, secrets: secrets,
		Unresolved: r.unresolved.list, UnresolvedCount: r.unresolved.count}
	if src.lookupEnv == nil && ent.Key != key {
		v.Key = ent.Key // set in another form, or as its spring. twin: reported as written
	}
	if err != nil {
		// The resolver masked the secrets of its message where they
		// stand; the report must not mask it again by text.
		return v, true, &SettingError{Value: v, Reason: err.Error(), positional: true}
	}
	if v.UnresolvedCount > 0 {
		if err := secretUnresolved(v, secret); err != nil {
			return v, true, err
		}
	}
	return v, true, nil
}

// secretUnresolved is the error of a secret that holds a placeholder
// nothing resolves, kept as written: the value of a key that holds a
// secret, or the password of a connection string (postgres://app:${DB_PW}@db).
// Spring would use the text "${DB_PW}" as the password; no one means it.
func secretUnresolved(v Value, secret bool) error {
	if !secret {
		inPassword := false
		for _, sp := range passwordSpans(v.Resolved) {
			inPassword = inPassword || strings.Contains(v.Resolved[sp.start:sp.end], "${")
		}
		if !inPassword {
			return nil
		}
	}
	what := "a secret"
	if !secret {
		what = "the password of a connection string"
	}
	return &SettingError{Value: v, positional: true, Reason: fmt.Sprintf("could not resolve placeholder %s in value %q: "+
		"%s is not kept as written, as other settings are (Spring's binder would use the text ${...} as it): "+
		"set what the placeholder names, or give it a default (${name:default})",
		v.Unresolved[0], abbreviate(showValue(v.Raw, secret)), what)}
}

// rawValue is the winning value of key, placeholders unresolved: what a
// placeholder refers to. ${spring.X} is read as ${app.X}, as every
// spring. key is (twins.go): so ${spring.application.name} finds
// app.application.name.
//
// A list held element by element (YAML's hosts: [a, b], hosts[0]=a) is not
// a value here, as a placeholder in Spring looks a property up by its
// name and finds only hosts[0] and hosts[1]: ${hosts:none} is none,
// though binding hosts reads the list (found by settings fuzzing,
// conformance/settingsfuzz).
func (e *Environment) rawValue(key string) (string, bool, error) {
	key = asApp(key)
	names := lookupNames(key)
	for _, s := range e.sources {
		if ent, ok, err := s.findLists(key, names, false); err != nil || ok {
			return ent.Value, ok, err
		}
	}
	return "", false, nil
}

// raw finds the source that wins for key and its entry there. Its error
// is a random value that cannot be made (random.int(0)), and the source
// returned with it is the one that failed.
func (e *Environment) raw(key string) (*source, Entry, bool, error) {
	names := lookupNames(key)
	for _, s := range e.sources {
		if ent, ok, err := s.find(key, names); err != nil || ok {
			return s, ent, ok, err
		}
	}
	return nil, Entry{}, false, nil
}

// Resolve replaces the placeholders in value; one that does not resolve is
// left as written.
func (e *Environment) Resolve(value string) string {
	resolved, err := resolveWith(e.resolver(e.rawValue, false, false), value)
	if err != nil {
		return value
	}
	return resolved
}

// ActiveProfiles returns the profiles that are active, in order; when none
// was set these are the default profiles.
func (e *Environment) ActiveProfiles() []string { return slices.Clone(e.active) }

// ExplicitProfiles returns the profiles that were activated, empty when the
// default profiles stand in.
func (e *Environment) ExplicitProfiles() []string {
	if e.defaultActive {
		return []string{}
	}
	return slices.Clone(e.active)
}

// DefaultProfiles returns the profiles active when none is set.
func (e *Environment) DefaultProfiles() []string { return slices.Clone(e.defaultProfile) }
