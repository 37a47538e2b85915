package config

// Spring Boot renames a setting now and then (4.0 moved
// management.otlp.tracing.* to management.opentelemetry.tracing.export.otlp.*)
// and from then on reads only the new name; its properties migrator
// (spring-boot-properties-migrator), when an application adds it, maps
// each old key that a source sets onto the new one and warns about it.
// The framework follows the newer Spring Boot and always does what the
// migrator does: a package that reads a renamed setting declares the
// rename beside it (Renamed), and then
//
//   - every lookup of the new key (Bind, IsSet, the listings, a
//     placeholder) finds the old one too, in any of its forms, as its
//     spring. twin and through its environment variables
//     (MANAGEMENT_OTLP_TRACING_ENDPOINT): in each source after the new
//     one, so that within one source the new key wins, and across sources
//     the precedence of sources decides, as the migrator's source of
//     mapped keys sits just above the source of the old key;
//   - CheckKeys reports each old key set, as written, with its origin and
//     its new name (once, however many sources set it), and never as a
//     key that nothing reads.
//
// The migrator's mapped source sits above the old key's own, so where one
// source sets both names it takes the old key's value; here the new key
// wins there, as Spring Boot without the migrator reads only the new one:
// whoever wrote both has moved to the new name.

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// A Rename is a setting that Spring Boot renamed: Old is read as New.
// Both are keys in canonical form, app. for Spring's spring.; the rename
// covers their spring. twins and environment variables too. A family of
// keys (a map) is renamed by its prefix, Old and New both ending in a
// dot: each member Old+name is read as New+name.
type Rename struct {
	Old, New string
	// Since is the Spring Boot version that renamed it ("4.0"), and
	// Source where Spring Boot says so: for the warning and the
	// documentation.
	Since, Source string
}

// renaming is a Rename with what lookups compare.
type renaming struct {
	Rename
	family             bool
	oldMatch, newMatch string // match keys (app. form), a family's without its dot
	oldCount, newCount int    // elements of the match keys
}

// renames are the renames declared, in the order they were.
var renames struct {
	sync.RWMutex
	list []renaming
}

// Renamed declares renames, and returns them: a package declares those
// of its own settings beside them, at package level,
//
//	var _ = config.Renamed(config.Rename{Old: "management.tracing.enabled", New: "management.tracing.export.enabled", Since: "4.0"})
//
// so that they hold for every Environment from then on. A malformed
// rename (a key that is not canonical, a family renamed to a key, a key
// renamed twice) panics: it is a mistake in the program.
func Renamed(list ...Rename) []Rename {
	renames.Lock()
	defer renames.Unlock()
	for _, r := range list {
		family := strings.HasSuffix(r.Old, ".")
		oldKey, newKey := strings.TrimSuffix(r.Old, "."), strings.TrimSuffix(r.New, ".")
		if family != strings.HasSuffix(r.New, ".") || !canonicalKey(oldKey) || !canonicalKey(newKey) || asApp(r.Old) != r.Old || asApp(r.New) != r.New {
			panic(fmt.Sprintf("config.Renamed: %q to %q: want two canonical keys (app. for spring.), or two prefixes ending in a dot", r.Old, r.New))
		}
		rn := renaming{Rename: r, family: family, oldMatch: matchKey(oldKey), newMatch: matchKey(newKey)}
		rn.oldCount, rn.newCount = countElements(rn.oldMatch), countElements(rn.newMatch)
		if slices.ContainsFunc(renames.list, func(o renaming) bool { return o.oldMatch == rn.oldMatch }) {
			panic(fmt.Sprintf("config.Renamed: %q is renamed twice", r.Old))
		}
		renames.list = append(renames.list, rn)
	}
	return list
}

// canonicalKey reports whether key is in canonical form: lower-case
// kebab elements (server.compression.min-response-size).
func canonicalKey(key string) bool {
	plain := strings.ReplaceAll(key, "-", "")
	return uniformKey(plain) && !strings.Contains(key, ".-") && !strings.HasPrefix(key, "-")
}

// Renames returns every rename declared, sorted by their old keys.
func Renames() []Rename {
	var list []Rename
	for _, r := range declared() {
		list = append(list, r.Rename)
	}
	slices.SortFunc(list, func(a, b Rename) int { return strings.Compare(a.Old, b.Old) })
	return list
}

// declared returns the renames declared; Renamed only appends, so the
// slice returned does not change under its reader.
func declared() []renaming {
	renames.RLock()
	defer renames.RUnlock()
	return renames.list
}

// oldNames returns the keys key was named before a rename, in canonical
// form: management.otlp.tracing.endpoint for
// management.opentelemetry.tracing.export.otlp.endpoint, and for a
// family's member the old prefix followed by the member's name as written.
func oldNames(key string) []string {
	list := declared()
	if len(list) == 0 {
		return nil
	}
	app := appMatch(matchKey(key))
	var olds []string
	for _, r := range list {
		switch {
		case !r.family && app == r.newMatch:
			olds = append(olds, r.Old)
		case r.family && strings.HasPrefix(app, r.newMatch+"."):
			if rest, ok := afterElements(key, r.newCount); ok {
				olds = append(olds, r.Old+rest)
			}
		}
	}
	return olds
}

// renamedKey returns the new name of key, a key as a source writes it in
// any form, when a rename declared covers it: written as the key was
// (spring. for spring.), a family's member with its name as written.
func renamedKey(key string) (string, renaming, bool) {
	match := matchKey(key)
	app := appMatch(match)
	for _, r := range declared() {
		var replacement string
		switch {
		case !r.family && app == r.oldMatch:
			replacement = r.New
		case r.family && strings.HasPrefix(app, r.oldMatch+"."):
			rest, ok := afterElements(key, r.oldCount)
			if !ok {
				continue
			}
			replacement = r.New + rest
		default:
			continue
		}
		if twin, ok := SpringTwin(replacement); ok && app != match {
			replacement = twin // written spring., named spring.
		}
		return replacement, r, true
	}
	return "", renaming{}, false
}

// renamedVariable returns the environment variable that sets the new
// name of what the variable name sets, when a rename covers it
// (MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT for
// MANAGEMENT_OTLP_TRACING_ENDPOINT, SPRING_ for SPRING_), and the key (or
// a family's prefix) it sets.
func renamedVariable(name string) (replacement, key string, r renaming, ok bool) {
	for _, r := range declared() {
		forms := [][2]string{{r.Old, r.New}}
		if oldTwin, ok := SpringTwin(r.Old); ok {
			newTwin, isApp := SpringTwin(r.New)
			if !isApp {
				newTwin = r.New
			}
			forms = append(forms, [2]string{oldTwin, newTwin})
		}
		for _, f := range forms {
			newVar := EnvNames(strings.TrimSuffix(f[1], "."))[0]
			for _, oldVar := range EnvNames(strings.TrimSuffix(f[0], ".")) {
				switch {
				case !r.family && name == oldVar:
					return newVar, r.New, r, true
				case r.family && strings.HasPrefix(name, oldVar+"_"):
					return newVar + strings.TrimPrefix(name, oldVar), r.New, r, true
				}
			}
		}
	}
	return "", "", renaming{}, false
}

// renamedUnder returns the renames whose new keys are under the family
// prefix (a match key, "" for every key), or whose new family holds it:
// those whose old keys KeysWithPrefix lists under their new names.
func renamedUnder(prefix string) []renaming {
	var under []renaming
	for _, r := range declared() {
		if prefix == "" || strings.HasPrefix(r.newMatch+".", prefix+".") || r.family && strings.HasPrefix(prefix+".", r.newMatch+".") {
			under = append(under, r)
		}
	}
	return under
}

// underNewName returns a key that a source sets, as written, under its
// new name when one of renames covers it; ok is false when none does.
func underNewName(key string, renames []renaming) (string, bool) {
	if len(renames) == 0 {
		return "", false
	}
	renamed, r, ok := renamedKey(key)
	if !ok || !slices.ContainsFunc(renames, func(o renaming) bool { return o.oldMatch == r.oldMatch }) {
		return "", false
	}
	return renamed, true
}
