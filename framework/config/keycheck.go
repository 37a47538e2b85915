package config

// Nothing set is silently ignored. After binding, every key that the
// sources set under the roots checked (the caller's, and the first word of
// the keys the service reads itself) is sorted into one of:
//
//   - read: a binding, the loader or a placeholder reads it, or it belongs
//     to a family whose members are read by name (logging.level.<name>);
//     a spring. key read as its app. twin is named in one INFO line;
//   - ignored: one of Spring's settings that mean nothing here
//     (spring.jpa.*, server.tomcat.*); one WARN line sums them up by
//     family, with a count;
//   - renamed: a key that Spring Boot renamed and that is read under its
//     new name (renames.go); one WARN line each, naming the new name;
//   - unknown: anything else, a misspelt key most often; one WARN line
//     each, with its origin and a hint: the caller's (Boot 3's name of a
//     Boot 2 key), or else the nearest key that is read, when one is close.
//
// The caller may refuse to start with an unknown key (Refusal). Values
// are never shown: an unknown key may hold a secret.
//
// The environment is searched only where it is unlikely to hold what is
// not meant for the service (see keycheckvariables.go).

import (
	"maps"
	"slices"
	"strings"
)

// KeyCheck is what CheckKeys is told of a service: the keys it reads,
// where to look for keys that nothing reads, and what to say of one.
type KeyCheck struct {
	// Roots are the first words of the keys checked (server, app); the
	// roots of Own are checked too.
	Roots []string
	// Read are the keys bound; Own are those of them the service bound
	// itself.
	Read, Own []string
	// ReadFamilies are the families whose members are read by name, not
	// bound one by one from a list that is known (logging.level.): any
	// member is read. Their app. members may be written as spring. too.
	ReadFamilies []string
	// IgnoredFamilies are Spring Boot's settings that mean nothing here
	// (app.jpa.): their members are summed up by family. Their app.
	// members may be written as spring. too. A key of these that something
	// reads is read all the same.
	IgnoredFamilies []string
	// Variables are the names of the environment variables set.
	Variables []string
	// SettingsOnlyVariables are the prefixes of the variables that hold
	// nothing but settings (SERVER_): under them every variable is
	// checked. Under the other roots a variable is checked only under a
	// group of settings that is read (APP_DATASOURCE_...), or when a hint
	// says what it may have meant (VariableHint's, or a variable read
	// that is close): words such as APP are ones that images set for
	// themselves (APP_HOME).
	SettingsOnlyVariables []string
	// KeyHint, when set, says what an unknown key, as written (spring. or
	// app.), may have meant, before the nearest key read is looked for;
	// "" when it has nothing to say.
	KeyHint func(key string) string
	// VariableHint is KeyHint for an environment variable.
	VariableHint func(name string) string
	// RefusedBy is the setting that has an unknown key stop start-up
	// (app.config.fail-on-unknown), which Refusal's error names.
	RefusedBy string
}

// keyIndex is what is known of the keys the service reads. A key set is
// compared with them in any of its forms (relaxed.go): by match key, in
// its app. form.
type keyIndex struct {
	read      map[string]string // keys bound or read by the loader or a placeholder, by match key (app. form)
	variables map[string]string // the environment variables that set them, to the key each sets
	parents   []string          // the variable prefixes of their parents (APP_DATASOURCE_), of two words or more
	families  []string          // the read families and the loader's, with their spring. twins
	matches   []string          // the match keys (app. form) of the read families, each with its dot
	prefixes  []string          // the roots checked, as match keys, each with its dot
	keys      []string          // the keys, for suggestions
	// candidates are the match keys of read, sorted, once a hint needs them.
	candidates []string
	check      KeyCheck
}

// CheckKeys sorts the keys env sets, and the environment variables
// c.Variables names, by whether anything reads them.
func CheckKeys(env *Environment, c KeyCheck) KeyReport {
	idx := newKeyIndex(env, c)
	r := KeyReport{ignored: map[string]int{}, refusedBy: c.RefusedBy}
	for _, k := range env.SetKeys() {
		if idx.renamed(env, k.Key, k.Origin, &r) {
			continue
		}
		match := matchKey(k.Key)
		app := appMatch(match)
		read := idx.isRead(app)
		if app != match && read {
			r.twin(k.Key)
		}
		if read || !hasAnyPrefix(match, idx.prefixes) {
			continue
		}
		if family, ok := idx.ignoredFamily(k.Key); ok {
			r.ignored[family]++
			continue
		}
		r.add(unknownKey{key: k.Key, origin: k.Origin}, idx.keyHint)
	}
	for _, name := range slices.Sorted(slices.Values(c.Variables)) {
		idx.indexVariables()
		if idx.renamedVariable(env, name, &r) {
			continue
		}
		_, read := idx.variables[name]
		switch {
		case read:
			if strings.HasPrefix(name, "SPRING_") {
				r.twin(name)
			}
		case idx.ignoresVariable(name):
		default:
			if family, ok := idx.ignoredVariableFamily(name); ok {
				r.ignored[family]++
				continue
			}
			if idx.takesVariable(name) || idx.variableHint(name) != "" {
				r.add(unknownKey{key: name, origin: "environment variable " + name}, idx.variableHint)
			}
		}
	}
	return r
}

func newKeyIndex(env *Environment, c KeyCheck) *keyIndex {
	idx := &keyIndex{read: map[string]string{}, check: c}
	for _, p := range c.Roots {
		idx.prefixes = append(idx.prefixes, matchKey(p)+".")
	}
	for _, k := range c.Own {
		root, _, _ := strings.Cut(k, ".")
		if root = matchKey(root) + "."; !slices.Contains(idx.prefixes, root) {
			idx.prefixes = append(idx.prefixes, root)
		}
	}
	read := slices.Clone(c.Read)
	families := slices.Clone(c.ReadFamilies)
	for _, l := range LoaderSettings() {
		if strings.HasSuffix(l.Key, ".") {
			families = append(families, l.Key)
		} else {
			read = append(read, l.Key)
		}
	}
	for _, f := range families {
		idx.families = append(idx.families, f)
		if twin, ok := SpringTwin(f); ok {
			idx.families = append(idx.families, twin)
		}
		idx.matches = append(idx.matches, appMatch(matchKey(strings.TrimSuffix(f, ".")))+".")
	}
	for _, k := range slices.Concat(read, env.Referenced()) {
		match := appMatch(matchKey(k))
		if _, ok := idx.read[match]; ok {
			continue
		}
		idx.read[match] = k
		idx.keys = append(idx.keys, k)
	}
	return idx
}

// isRead reports whether a key set, of match key app (in its app. form),
// is read: a key read in any form, a member of a family read, or an
// element of a list read (hosts.0 of hosts, as a source may write
// hosts[0]).
func (idx *keyIndex) isRead(app string) bool {
	if _, ok := idx.read[app]; ok || hasAnyPrefix(app, idx.matches) {
		return true
	}
	list := strings.TrimRight(app, "0123456789.")
	if list == app || !strings.HasPrefix(app, list+".") {
		return false
	}
	_, ok := idx.read[list]
	return ok
}

// ignoredFamily returns the family of Spring's that key belongs to, as
// written (spring.jpa.* or app.jpa.*), when it means nothing here. A key
// in another form is counted under the canonical family
// (spring.JPA.showSql under spring.jpa.*).
func (idx *keyIndex) ignoredFamily(key string) (string, bool) {
	match := matchKey(key)
	app := appMatch(match)
	for _, f := range idx.check.IgnoredFamilies {
		family := matchKey(strings.TrimSuffix(f, "."))
		if app != family && !strings.HasPrefix(app, family+".") {
			continue
		}
		if twin, ok := SpringTwin(f); ok && app != match {
			f = twin
		}
		return f + "*", true
	}
	return "", false
}

// keyHint says what an unknown key may have meant: the caller's hint, or
// the nearest key that is read, in its canonical form, written as the key
// was (spring. for spring.). Keys are compared in their uniform forms, so
// a misspelt minResponseSiz is near min-response-size.
func (idx *keyIndex) keyHint(key string) string {
	if idx.check.KeyHint != nil {
		if hint := idx.check.KeyHint(key); hint != "" {
			return hint
		}
	}
	match := matchKey(key)
	app := appMatch(match)
	if idx.candidates == nil {
		idx.candidates = slices.Sorted(maps.Keys(idx.read))
	}
	near, ok := nearest(app, idx.candidates)
	if !ok {
		return ""
	}
	near = asApp(idx.read[near])
	if twin, ok := SpringTwin(near); ok && app != match {
		near = twin
	}
	return "did you mean " + near + "?"
}

func hasAnyPrefix(s string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}

// renamed notes key, set at origin, in r when a rename covers it and its
// new name is read: it is read under that name, so it is neither unknown
// nor a twin. The winning value of the new name tells whether the old
// key's is used.
func (idx *keyIndex) renamed(env *Environment, key, origin string, r *KeyReport) bool {
	replacement, rn, ok := renamedKey(key)
	if !ok || !idx.readsNew(rn) {
		return false
	}
	k := renamedKeyReport{key: key, origin: origin, replacement: replacement, since: rn.Since}
	if v, set, _ := env.Lookup(asApp(replacement)); set && OriginWithoutValue(v.Origin) != origin {
		k.winner = v.Key + " (" + OriginWithoutValue(v.Origin) + ")"
	}
	r.rename(k)
	return true
}

// renamedVariable is renamed for the environment variable name.
func (idx *keyIndex) renamedVariable(env *Environment, name string, r *KeyReport) bool {
	replacement, key, rn, ok := renamedVariable(name)
	if !ok || !idx.readsNew(rn) {
		return false
	}
	k := renamedKeyReport{key: name, origin: "environment variable " + name, replacement: replacement, since: rn.Since}
	if v, set, _ := env.Lookup(key); !rn.family && set && v.Origin != k.origin {
		k.winner = v.Key + " (" + OriginWithoutValue(v.Origin) + ")"
	}
	r.rename(k)
	return true
}

// readsNew reports whether the new name of rn is read: a key bound, or a
// member of a family read. A rename of what the service does not read
// (a starter's setting, without the starter) leaves the old key to the
// checks of keys that nothing reads, with their hints.
func (idx *keyIndex) readsNew(rn renaming) bool {
	if rn.family {
		return hasAnyPrefix(rn.newMatch+".", idx.matches)
	}
	return idx.isRead(rn.newMatch)
}
