package config

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Source is one layer of settings: a settings file, the environment or the
// command line. Sources are read-only once loaded.
type Source struct {
	// Name is how /actuator/env names the source, in Spring's wording.
	Name string

	entries map[string]entry
	keys    []string // in order of definition

	// getenv, when set, makes this the environment source: its entries are
	// looked up on demand under the relaxed names of a key, and remembered
	// so that listings show the variables that were consulted.
	getenv func(string) string
	mu     sync.Mutex
	seen   map[string]entry
	sealed bool // lookups are no longer recorded
}

type entry struct {
	value  string
	origin string
}

func newSource(name string) *Source {
	return &Source{Name: name, entries: map[string]entry{}}
}

func (s *Source) set(key, value, origin string) {
	if _, ok := s.entries[key]; !ok {
		s.keys = append(s.keys, key)
	}
	s.entries[key] = entry{value: value, origin: origin}
}

// lookup finds key in the source.
func (s *Source) lookup(key string) (entry, bool) {
	if s.getenv == nil {
		e, ok := s.entries[key]
		return e, ok
	}
	for _, name := range EnvNames(key) {
		if v := s.getenv(name); v != "" {
			e := entry{value: v, origin: "environment variable " + name}
			s.mu.Lock()
			if s.sealed {
				s.mu.Unlock()
				return e, true
			}
			if s.seen == nil {
				s.seen = map[string]entry{}
			}
			if _, ok := s.seen[name]; !ok {
				s.keys = append(s.keys, name)
			}
			s.seen[name] = e
			s.mu.Unlock()
			return e, true
		}
	}
	return entry{}, false
}

// Entry is one setting of a source as listings show it.
type Entry struct {
	Key    string // the property key, or for the environment the variable's name
	Value  string // the raw value, placeholders unresolved
	Origin string // where exactly it was defined
}

// Entries returns the source's settings in order of definition. For the
// environment these are the variables consulted so far.
func (s *Source) Entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	props := make([]Entry, 0, len(s.keys))
	for _, k := range s.keys {
		e, ok := s.entries[k]
		if !ok {
			e = s.seen[k]
		}
		props = append(props, Entry{Key: k, Value: e.value, Origin: e.origin})
	}
	return props
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
// and the profiles they activated.
type Environment struct {
	sources        []*Source // highest precedence first
	active         []string
	defaultActive  bool // no profile was set; active holds the default profiles
	defaultProfile []string
}

// Value is a setting as the environment resolves it.
type Value struct {
	Key      string
	Raw      string // as written, placeholders unresolved
	Resolved string
	Source   string // the name of the source that won
	Origin   string // where in that source
}

// Lookup returns the winning value of key with its placeholders resolved.
// An unresolvable placeholder is a *SettingError.
func (e *Environment) Lookup(key string) (Value, bool, error) {
	src, ent, ok := e.raw(key)
	if !ok {
		return Value{}, false, nil
	}
	resolved, err := ResolvePlaceholders(ent.value, e.rawValue)
	v := Value{Key: key, Raw: ent.value, Resolved: resolved, Source: src.Name, Origin: ent.origin}
	if err != nil {
		return v, true, &SettingError{Value: v, Reason: err.Error()}
	}
	return v, true, nil
}

// rawValue is the winning value of key, placeholders unresolved: what a
// placeholder refers to.
func (e *Environment) rawValue(key string) (string, bool) {
	_, ent, ok := e.raw(key)
	return ent.value, ok
}

func (e *Environment) raw(key string) (*Source, entry, bool) {
	for _, s := range e.sources {
		if ent, ok := s.lookup(key); ok {
			return s, ent, true
		}
	}
	return nil, entry{}, false
}

// Seal ends start-up: the environment source, which cannot enumerate the
// process's variables, has recorded those that set any key start-up read;
// Seal adds those that set a key of any file or argument, and stops
// recording, so that listings are stable and show no variable the service
// does not use.
func (e *Environment) Seal() {
	for _, src := range e.sources {
		if src.getenv != nil {
			continue
		}
		for _, k := range src.keys {
			e.raw(k)
		}
	}
	for _, src := range e.sources {
		src.mu.Lock()
		src.sealed = true
		src.mu.Unlock()
	}
}

// Resolve replaces the placeholders in value; one that does not resolve is
// left as written.
func (e *Environment) Resolve(value string) string {
	resolved, err := ResolvePlaceholders(value, e.rawValue)
	if err != nil {
		return value
	}
	return resolved
}

// Sources returns the property sources, highest precedence first.
func (e *Environment) Sources() []*Source { return slices.Clone(e.sources) }

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

// ProfilesLine is the one startup log line about profiles, in Spring's
// wording.
func (e *Environment) ProfilesLine() string {
	quoted := make([]string, len(e.active))
	for i, p := range e.active {
		quoted[i] = `"` + p + `"`
	}
	list := strings.Join(quoted, ", ")
	n := len(e.active)
	switch {
	case e.defaultActive && n == 1:
		return "No active profile set, falling back to 1 default profile: " + list
	case e.defaultActive:
		return "No active profile set, falling back to " + strconv.Itoa(n) + " default profiles: " + list
	case n == 1:
		return "The following 1 profile is active: " + list
	}
	return "The following " + strconv.Itoa(n) + " profiles are active: " + list
}
