package config

// What CheckKeys found (keycheck.go), as start-up logs it or refuses it.

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
)

// maxUnknownLines bounds the lines about unknown keys, however many a
// source holds; the rest are counted.
const maxUnknownLines = 100

// unknownKey is a key that nothing reads.
type unknownKey struct {
	key, origin string
	hint        string // "did you mean server.port?"; "" when nothing is close
}

func (u unknownKey) String() string {
	s := u.key + " (" + u.origin + ")"
	if u.hint != "" {
		s += ": " + u.hint
	}
	return s
}

// renamedKeyReport is a key that Spring Boot renamed, read under its new
// name.
type renamedKeyReport struct {
	key, origin string
	replacement string // the new name, written as the key was (spring. for spring.)
	since       string // the Spring Boot version that renamed it
	// winner is the new name as written and its origin, when it is set
	// too and its value wins over the old key's; "" when the old key's
	// value is used.
	winner string
}

// KeyReport is what CheckKeys found of the keys the sources set.
type KeyReport struct {
	renamed     []renamedKeyReport // at most maxUnknownLines
	unknown     []unknownKey       // at most maxUnknownLines
	ignored     map[string]int     // Spring's families that mean nothing here, as written (spring.jpa.*), by count
	twins       []string           // spring. keys read as their app. twins, as written; at most maxUnknownLines
	more        int                // unknown keys past those listed
	renamedMore int                // renamed keys past those listed
	twinsMore   int                // spring. keys read past those listed
	refusedBy   string             // KeyCheck.RefusedBy
}

// add notes an unknown key, with the hint that hint gives it, or past
// maxUnknownLines counts it: however many a source holds, the report
// stays small.
func (r *KeyReport) add(u unknownKey, hint func(string) string) {
	if len(r.unknown) >= maxUnknownLines {
		r.more++
		return
	}
	u.hint = hint(u.key)
	r.unknown = append(r.unknown, u)
}

// rename notes a renamed key, or past maxUnknownLines counts it.
func (r *KeyReport) rename(k renamedKeyReport) {
	if len(r.renamed) >= maxUnknownLines {
		r.renamedMore++
		return
	}
	r.renamed = append(r.renamed, k)
}

// twin notes a spring. key (or variable) read as its app. twin: a
// family's members may be many, so past maxUnknownLines they are counted.
func (r *KeyReport) twin(key string) {
	if len(r.twins) < maxUnknownLines {
		r.twins = append(r.twins, key)
	} else {
		r.twinsMore++
	}
}

// Log writes the report: a line per renamed key, naming its new name; a line per unknown key, one for the rest, one
// summing up Spring's settings that mean nothing here, one naming the
// spring. keys read as app. keys.
func (r KeyReport) Log(logger *slog.Logger) {
	if len(r.twins) > 0 {
		attrs := []any{"keys", strings.Join(slices.Sorted(slices.Values(r.twins)), ",")}
		if r.twinsMore > 0 {
			attrs = append(attrs, "more", r.twinsMore)
		}
		logger.Info("spring. keys read as their app. twins", attrs...)
	}
	for _, k := range r.renamed {
		attrs := []any{"key", k.key, "origin", k.origin, "replacement", k.replacement}
		if k.winner == "" {
			logger.Warn(renamedMessage(k.since, "mapped to its replacement for now, as Spring's properties migrator maps it: update the configuration to the new key"), attrs...)
		} else {
			logger.Warn(renamedMessage(k.since, "ignored: its replacement is set too, and wins: remove it"), append(attrs, "set", k.winner)...)
		}
	}
	if r.renamedMore > 0 {
		logger.Warn("more configuration keys that have been renamed, not listed", "count", r.renamedMore)
	}
	for _, u := range r.unknown {
		attrs := []any{"key", u.key, "origin", u.origin}
		if u.hint != "" {
			attrs = append(attrs, "hint", u.hint)
		}
		logger.Warn("setting not read by anything, ignored", attrs...)
	}
	if r.more > 0 {
		logger.Warn("more settings not read by anything, ignored and not listed", "count", r.more)
	}
	if len(r.ignored) > 0 {
		var families []string
		for _, f := range slices.Sorted(maps.Keys(r.ignored)) {
			families = append(families, fmt.Sprintf("%s (%d)", f, r.ignored[f]))
		}
		logger.Warn("Spring Boot settings that mean nothing here, ignored", "families", strings.Join(families, ", "))
	}
}

// UnknownKeysError is the refusal of the keys that nothing reads (with
// app.config.fail-on-unknown=true), each with its origin and the nearest
// key read.
type UnknownKeysError struct {
	Keys      []string // "key (origin): did you mean ...?"
	More      int      // unknown keys past those listed
	RefusedBy string   // the setting that refuses them: app.config.fail-on-unknown
}

func (e *UnknownKeysError) Error() string {
	var b strings.Builder
	b.WriteString("Settings that nothing reads, refused by " + e.RefusedBy + "=true:\n\n")
	for _, k := range e.Keys {
		b.WriteString("    " + k + "\n")
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "    and %d more\n", e.More)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Refusal is the UnknownKeysError of r; nil when no key is unknown.
func (r KeyReport) Refusal() error {
	if len(r.unknown) == 0 {
		return nil
	}
	e := &UnknownKeysError{More: r.more, RefusedBy: r.refusedBy}
	for _, u := range r.unknown {
		e.Keys = append(e.Keys, u.String())
	}
	return e
}

// renamedMessage is the message of a renamed key's line, in the words of
// Spring's properties migrator.
func renamedMessage(since, what string) string {
	in := ""
	if since != "" {
		in = " in Spring Boot " + since
	}
	return "The use of a configuration key that has been renamed" + in + " was found in the environment; it is " + what
}
