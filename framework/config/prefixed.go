package config

import "strings"

// Some settings are a family of keys under one prefix, a key per name:
// logging.level.<logger> sets one logger's level, whatever the logger.
// Their keys cannot all be known in advance, so the files and the command
// line are searched for them. The environment cannot be: its variables
// hold much that is not the service's business, and a variable's name
// does not say where the key's dots were (LOGGING_LEVEL_SHOP_ORDERS may be
// shop.orders or shop_orders). There, only the names the
// caller knows are looked up.

// KeysWithPrefix returns the keys under prefix that a file or the command
// line sets, each once, highest precedence first. prefix is written in its
// canonical form (logging.level.), and matches a key in any of its forms
// (Logging.Level.com.Foo, or spring. for an app. prefix); the key is
// returned as prefix followed by the rest of the key as written, the
// member's name (logging.level.com.Foo, logging.level.[com.Foo]), which
// MemberName turns into the name. The prefix "" lists every key, as
// written. A key renamed (renames.go) is listed under its new name when
// that is under prefix, and its old one is not
// (management.otlp.tracing.headers.x is listed as
// management.opentelemetry.tracing.export.otlp.headers.x).
func (e *Environment) KeysWithPrefix(prefix string) []string {
	var keys []string
	seen := map[string]bool{} // not slices.Contains: a source may hold 100,000s of keys
	want := matchKey(strings.TrimSuffix(prefix, "."))
	n := countElements(want)
	renamed := renamedUnder(want)
	for _, src := range e.sources {
		for i, k := range src.keys {
			if want != "" && !strings.HasPrefix(appMatch(src.matches[i]), want+".") {
				nk, ok := underNewName(k, renamed)
				if !ok || !strings.HasPrefix(appMatch(matchKey(nk)), want+".") {
					continue // "" is every key
				}
				k = nk
			}
			rest, ok := afterElements(k, n)
			if !ok {
				continue
			}
			if k = prefix + rest; !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// BindPrefixed binds every key of the family prefix that is set and
// returns the values by the member's name (logging.level.store gives
// "store", logging.level.[com.Foo] "com.Foo"; see MemberName): the keys
// KeysWithPrefix finds, and prefix+name for each of known, which the
// environment may set too. A key that is not set is not bound, so that
// the family does not swell the listings of settings, nor one already
// bound on its own in any form, which would be reported twice. Of two keys
// that give one name (logging.level.com.Foo and logging.level.[com.Foo]),
// the one of the highest source is bound, as Spring binds a map's entry
// once. meaning, when not nil, says what the member name means (Bind's
// meaning). Binder.Refuse(prefix+name) refuses the member's key.
func BindPrefixed[T any](b *Binder, prefix string, known []string, parse func(string) (T, error), meaning func(name string) string) map[string]T {
	keys := b.env.KeysWithPrefix(prefix)
	listed := make(map[string]bool, len(keys))
	for _, k := range keys {
		listed[k] = true
	}
	for _, name := range known {
		if _, ok, _ := b.env.Lookup(prefix + name); ok && !listed[prefix+name] {
			listed[prefix+name] = true
			keys = append(keys, prefix+name)
		}
	}
	before := len(b.keys) // what was bound on its own
	values := make(map[string]T, len(keys))
	for _, k := range keys {
		if i, bound := b.boundAt[matchKey(k)]; bound && i < before {
			continue // bound on its own, as logging.level.root is
		}
		name := MemberName(k, prefix)
		if _, ok := values[name]; ok {
			continue
		}
		if prefix+name != k {
			if b.members == nil {
				b.members = map[string]string{}
			}
			b.members[prefix+name] = k
		}
		var zero T
		if meaning == nil {
			values[name] = Bind(b, k, zero, parse)
		} else {
			values[name] = Bind(b, k, zero, parse, meaning(name))
		}
	}
	return values
}
