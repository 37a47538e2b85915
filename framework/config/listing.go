package config

import "slices"

// The environment cannot be listed whole, and should not be: the process's
// variables hold much that is not the service's business. So a listing shows
// the variables that set a setting the service reads, and works out which
// those are from what is known rather than from what happened to be looked
// up: the keys of every file and argument, the keys Load read to find files
// and profiles, the keys the application binds (which the caller passes,
// since the Environment does not know them), and every name a placeholder in
// their values refers to. A variable is listed when it is the value those
// keys and names resolve to, that is, when the environment is the source
// that wins for them; one shadowed by an argument sets nothing and is left
// out. The listing is the same every time, whatever has been looked up.

// PropertySource is one source of settings as listings show it.
type PropertySource struct {
	Name    string
	Entries []Entry // in order of definition

	src *source
}

// Lookup finds key in the source as the environment reads it from there:
// in a file or the command line in any of its forms (relaxed.go) or as
// its spring. twin, the entry that wins within the source; among the
// environment's entries listed, the variable of one of its relaxed names.
// /actuator/env/{key} shows it for each source.
func (p PropertySource) Lookup(key string) (Entry, bool) {
	switch {
	case p.src == nil || p.src.random != nil:
		return Entry{}, false
	case p.src.lookupEnv != nil:
		for _, n := range lookupNames(key) {
			for _, name := range EnvNames(n.key) {
				for _, e := range p.Entries {
					if e.Key == name {
						return e, true
					}
				}
			}
		}
		return Entry{}, false
	}
	e, ok := p.src.lookup(key)
	e.OriginParents = p.src.originParents
	return e, ok
}

// PropertySources returns the sources, highest precedence first, each with
// its entries: for a file or the command line every setting it defines, for
// the environment the variables that set a setting the service reads. read
// are the keys the application binds (see Binder.Keys).
func (e *Environment) PropertySources(read []string) []PropertySource {
	list := make([]PropertySource, len(e.sources))
	for i, src := range e.sources {
		list[i].Name, list[i].src = src.name, src
		if src.lookupEnv != nil {
			list[i].Entries = e.variables(read)
			continue
		}
		for _, k := range src.keys {
			ent := src.entries[k]
			ent.OriginParents = src.originParents
			list[i].Entries = append(list[i].Entries, ent)
		}
	}
	return list
}

// variables returns the environment variables that set a key the service
// reads, or a name their placeholders refer to, in the order they are met.
func (e *Environment) variables(read []string) []Entry {
	var vars []Entry
	listed := map[string]bool{}
	// lookup is rawValue, noting the variable when the environment wins.
	lookup := func(key string) (string, bool, error) {
		src, ent, ok, err := e.raw(key)
		if ok && src.lookupEnv != nil && !listed[ent.Key] {
			listed[ent.Key] = true
			vars = append(vars, ent)
		}
		return ent.Value, ok, err
	}
	seen := map[string]bool{}
	for _, k := range e.readKeys(read) {
		if seen[k] {
			continue
		}
		seen[k] = true
		if v, ok, _ := lookup(k); ok {
			// Resolved for the names it looks up on the way, as Lookup
			// would. A value that does not resolve is fine here: a
			// setting nobody reads may hold one, and one that is read has
			// stopped start-up.
			_, _ = resolvePlaceholders(v, lookup)
		}
	}
	return vars
}

// readKeys returns the keys the service reads: those Load read, those of
// every file and argument, and read.
func (e *Environment) readKeys(read []string) []string {
	keys := slices.Clone(e.loadKeys)
	for _, src := range e.sources {
		keys = append(keys, src.keys...)
	}
	return append(keys, read...)
}

// LookupListed is Lookup limited to what PropertySources(read) shows: a key
// whose winning value is an environment variable the listing leaves out is
// not found, exactly as a key that is set nowhere. Without the limit, a
// lookup by name would read any variable of the process, and whether it
// answers at all would tell that the variable exists.
func (e *Environment) LookupListed(key string, read []string) (Value, bool, error) {
	src, ent, ok, _ := e.raw(key)
	if !ok || src.random != nil {
		// The random source lists no entries, as in Spring; answering
		// random.* by name would also let requests grow its memory.
		return Value{}, false, nil
	}
	if src.lookupEnv != nil && !slices.ContainsFunc(e.variables(read), func(v Entry) bool { return v.Key == ent.Key }) {
		return Value{}, false, nil
	}
	return e.Lookup(key)
}
