package config

import "regexp"

// A key that nothing reads is almost always a mistake: a misspelt name
// (server.prot), or a setting of Spring's that means nothing here. To
// find one, CheckKeys (keycheck.go) compares the keys the sources set with
// the keys the service reads. The settings files, APP_APPLICATION_JSON and
// the command line can list their keys; the environment cannot: the
// caller names the variables set, knowing which it may look at.

// SetKey is a key that a settings file, APP_APPLICATION_JSON or the
// command line sets.
type SetKey struct {
	Key    string
	Origin string // where its winning definition is; never its value
}

// SetKeys returns every key that a settings file, APP_APPLICATION_JSON or
// the command line sets, each once, highest precedence first, with the
// origin of its winning definition. A list's elements (hosts[0],
// hosts[1]) are the list's key (hosts), as they are read.
func (e *Environment) SetKeys() []SetKey {
	var keys []SetKey
	seen := map[string]bool{}
	for _, src := range e.sources {
		for _, k := range src.keys {
			key := listIndex.ReplaceAllString(k, "")
			if seen[key] {
				continue
			}
			seen[key] = true
			keys = append(keys, SetKey{Key: key, Origin: OriginWithoutValue(src.entries[k].Origin)})
		}
	}
	return keys
}

// listIndex is the index of a list's element at the end of its key.
var listIndex = regexp.MustCompile(`(\[\d+\])+$`)

// Referenced returns the names that placeholders refer to in the values
// of the settings files, APP_APPLICATION_JSON and the command line
// (app.url=${app.base}/x refers to app.base), each once: keys that are
// read through another, though no binding names them.
//
// Each value is scanned on its own: a name is recorded and answered with
// "", not followed to its own value, which is scanned in its turn. So a
// chain of placeholders costs its length, not its length times its depth.
func (e *Environment) Referenced() []string {
	var names []string
	seen := map[string]bool{}
	lookup := func(name string) (string, bool, error) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		return "", true, nil
	}
	for _, src := range e.sources {
		for _, k := range src.keys {
			// An error is fine here: a value nobody reads may hold a
			// placeholder that does not resolve.
			_, _ = resolvePlaceholders(src.entries[k].Value, lookup)
		}
	}
	return names
}
