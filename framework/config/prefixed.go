package config

import (
	"slices"
	"strings"
)

// Some settings are a family of keys under one prefix, a key per name:
// logging.level.<logger> sets one logger's level, whatever the logger.
// Their keys cannot all be known in advance, so the files and the command
// line are searched for them. The environment cannot be: its variables
// hold much that is not the service's business, and a variable's name
// does not say where the key's dots were (LOGGING_LEVEL_SHOP_ORDERS may be
// shop.orders or shop_orders). There, only the names the
// caller knows are looked up.

// KeysWithPrefix returns the keys under prefix that a file or the command
// line sets, each once, highest precedence first. Under an app. prefix, a
// key set as its spring. twin is returned as the app. key it is read as.
func (e *Environment) KeysWithPrefix(prefix string) []string {
	var keys []string
	seen := map[string]bool{} // not slices.Contains: a source may hold 100,000s of keys
	for _, src := range e.sources {
		for _, k := range src.keys {
			if !strings.HasPrefix(k, prefix) {
				k = asApp(k)
			}
			if strings.HasPrefix(k, prefix) && len(k) > len(prefix) && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// BindPrefixed binds every key of the family prefix that is set and
// returns the values by the rest of the key (logging.level.store gives
// "store"): the keys KeysWithPrefix finds, and prefix+name for each of
// known, which the environment may set too. A key that is not set is not
// bound, so that the family does not swell the listings of settings, nor
// one already bound on its own, which would be reported twice. meaning,
// when not nil, says what the member name means (Bind's meaning).
func BindPrefixed[T any](b *Binder, prefix string, known []string, parse func(string) (T, error), meaning func(name string) string) map[string]T {
	keys := b.env.KeysWithPrefix(prefix)
	for _, name := range known {
		if _, ok, _ := b.env.Lookup(prefix + name); ok && !slices.Contains(keys, prefix+name) {
			keys = append(keys, prefix+name)
		}
	}
	values := make(map[string]T, len(keys))
	for _, k := range keys {
		if _, bound := b.defaults[k]; bound {
			continue // bound on its own, as logging.level.root is
		}
		var zero T
		name := strings.TrimPrefix(k, prefix)
		if meaning == nil {
			values[name] = Bind(b, k, zero, parse)
		} else {
			values[name] = Bind(b, k, zero, parse, meaning(name))
		}
	}
	return values
}
