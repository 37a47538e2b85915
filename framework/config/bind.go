package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Binder reads typed settings from an Environment and collects every
// failure, so that one start reports every bad setting at once.
type Binder struct {
	env      *Environment
	keys     []string
	defaults map[string]string // each key's default, as --help shows it
	// boundAt gives, by match key (relaxed.go), where in keys a key was
	// first bound; members, the key of each member of a family whose name
	// is not its key's rest (BindPrefixed), by prefix+name.
	boundAt  map[string]int
	members  map[string]string
	meanings map[string]string // what each key given one means (Bind's meaning)
	families []Family          // what each family described means (Describe)
	errs     []error
	// unreported counts the failures past maxReportedErrors, which are
	// counted rather than kept.
	unreported int
	// failed holds each failure kept, so that a setting refused twice for
	// one reason (Bind, then Refuse of the default it returned) is
	// reported once.
	failed map[string]bool
	// warnings are what binding went on past, for the start-up log: the
	// first maxWarnings, and how many there were in all.
	warnings     []Warning
	warnedKeys   map[string]bool
	moreWarnings int
}

// maxWarnings bounds the warnings a Binder keeps, as maxReportedErrors
// bounds its failures.
const maxWarnings = 100

// maxReportedErrors bounds the failures a Binder keeps: a family of
// 100,000 bad keys (logging.level.*) would otherwise make a report of
// tens of megabytes.
const maxReportedErrors = 100

// fail records a failure, once.
func (b *Binder) fail(err error) {
	if len(b.errs) >= maxReportedErrors {
		b.unreported++
		return
	}
	id := err.Error()
	var se *SettingError
	if errors.As(err, &se) {
		id = se.Value.Key + "\x00" + se.Value.Origin + "\x00" + se.Reason
	}
	if b.failed[id] {
		return
	}
	if b.failed == nil {
		b.failed = map[string]bool{}
	}
	b.failed[id] = true
	b.errs = append(b.errs, err)
}

// warnUnresolved notes, once per setting, that v keeps placeholders that
// nothing resolves as written.
func (b *Binder) warnUnresolved(v Value) {
	if b.warnedKeys[v.Key] {
		return
	}
	if b.warnedKeys == nil {
		b.warnedKeys = map[string]bool{}
	}
	b.warnedKeys[v.Key] = true
	if len(b.warnings) >= maxWarnings {
		b.moreWarnings++
		return
	}
	placeholders := make([]string, len(v.Unresolved))
	for i, u := range v.Unresolved {
		placeholders[i] = u.String()
	}
	attrs := []any{"placeholder", strings.Join(placeholders, ", ")}
	if more := v.UnresolvedCount - len(v.Unresolved); more > 0 {
		attrs = append(attrs, "more", more)
	}
	b.warnings = append(b.warnings, Warning{
		Message: "could not resolve placeholder; the setting keeps it as written, as Spring's binder does",
		Key:     v.Key, Origin: OriginWithoutValue(v.Origin), Attrs: attrs})
}

// Warnings returns what binding went on past, for the start-up log: each
// setting that keeps a placeholder nothing resolves, naming it as
// written, its origin and the placeholder, with the chain that led to it.
func (b *Binder) Warnings() []Warning {
	w := slices.Clone(b.warnings)
	if b.moreWarnings > 0 {
		w = append(w, Warning{Message: "more settings keep placeholders that nothing resolves, not listed", Attrs: []any{"count", b.moreWarnings}})
	}
	return w
}

// NewBinder returns a Binder over env.
func NewBinder(env *Environment) *Binder { return &Binder{env: env} }

// Err returns every failure so far, or nil.
func (b *Binder) Err() error {
	if b.unreported > 0 {
		return errors.Join(append(b.errs, fmt.Errorf("and %d more settings that cannot be used, not listed here", b.unreported))...)
	}
	return errors.Join(b.errs...)
}

// Keys returns the keys asked for so far, each once, in the order first
// asked: what the application reads, which the Environment cannot know, and
// which its listing needs to show the environment variables that set them
// (see Environment.PropertySources).
func (b *Binder) Keys() []string { return slices.Clone(b.keys) }

// Meaning returns what key means, as the binding that read it said; ""
// when it said nothing.
func (b *Binder) Meaning(key string) string { return b.meanings[key] }

// IsSet reports whether a source sets key (or its spring. twin), whatever
// its value: for a setting whose mere presence means something, as a
// user's name turns security on even when it is the default's.
func (b *Binder) IsSet(key string) bool {
	_, ok, _ := b.env.Lookup(key)
	return ok
}

// Refuse records that the setting key, which its own parser accepted,
// cannot be used for reason (it clashes with another, say), with its
// value and origin, as a value that does not parse is recorded. A
// family's member may be named by its name, as BindPrefixed gives it
// (management.metrics.tags.Some.Key for management.metrics.tags.[Some.Key]).
func (b *Binder) Refuse(key, reason string) {
	if k, ok := b.members[key]; ok {
		key = k // a family's member, by its name (logging.level.[com.Foo] by com.Foo)
	}
	v, _, err := b.env.Lookup(key)
	if err != nil {
		b.fail(err)
		return
	}
	b.fail(&SettingError{Value: v, Reason: reason})
}

// RefuseVariable stops start-up over the environment variable name, for
// reason, as Refuse does over a key: for a variable found by its name,
// not through a key the service reads.
func (b *Binder) RefuseVariable(name, reason string) {
	v, _ := b.env.variable(name)
	b.fail(&SettingError{Value: v, Reason: reason})
}

// Value returns the setting key as a source sets it, with its origin,
// or as def from "the default" when none does: for a report about a
// setting that bound without fault but could not be used (a port taken).
func (b *Binder) Value(key, def string) Value {
	v, ok, err := b.env.Lookup(key)
	if !ok || err != nil {
		v = Value{Key: key, Raw: def, Origin: "the default"}
	}
	return v
}

// KeysWithPrefix returns the keys of the family prefix that the settings
// files, APP_APPLICATION_JSON and the command line set (see
// Environment.KeysWithPrefix): for a family whose members are named by
// the user (a health group, a header).
func (b *Binder) KeysWithPrefix(prefix string) []string { return b.env.KeysWithPrefix(prefix) }

// A Family is a family of settings whose members the user names
// (management.endpoint.health.group.<name>.include), described once.
type Family struct {
	Key     string // the members' key, with <name> (or <key>) for the part the user names
	Meaning string
}

// Describe says what the members of a family mean, for --help and the
// settings reference: a family binds only the members that are set, so
// its meaning is given once, beside its binding, for all of them.
func (b *Binder) Describe(key, meaning string) {
	b.families = append(b.families, Family{Key: key, Meaning: meaning})
}

// Families are the families described, in the order they were.
func (b *Binder) Families() []Family { return slices.Clone(b.families) }

// Default returns the default of key, as Bind was given it, written as a
// setting would be (30s, a,b, true), and whether key was bound.
func (b *Binder) Default(key string) (string, bool) {
	d, ok := b.defaults[key]
	return d, ok
}

// formatDefault writes a default as a setting's value would be written.
func formatDefault(v any) string {
	switch v := v.(type) {
	case time.Duration:
		return formatDuration(v)
	case []string:
		return strings.Join(v, ",")
	}
	return fmt.Sprint(v)
}

// Bind reads key and converts it with parse; an unset key gives def. A
// value that does not convert is recorded with its origin and def is
// returned, so binding can go on and report the other settings too.
//
// meaning, when given, says what the setting does, for --help and the
// settings reference (Binder.Meaning): written beside the binding, so
// that a key and its meaning cannot drift apart.
func Bind[T any](b *Binder, key string, def T, parse func(string) (T, error), meaning ...string) T {
	// defaults holds every key bound so far: a map, so that a family of
	// many keys (logging.level.*) binds in linear time.
	if _, bound := b.defaults[key]; !bound {
		if b.defaults == nil {
			b.defaults, b.boundAt = map[string]string{}, map[string]int{}
		}
		if match := matchKey(key); !hasMatch(b.boundAt, match) {
			b.boundAt[match] = len(b.keys)
		}
		b.keys = append(b.keys, key)
		b.defaults[key] = formatDefault(def)
	}
	if len(meaning) > 0 {
		if b.meanings == nil {
			b.meanings = map[string]string{}
		}
		b.meanings[key] = strings.Join(meaning, " ")
	}
	v, ok, err := b.env.Lookup(key)
	if err != nil {
		b.fail(err)
		return def
	}
	if !ok {
		return def
	}
	if v.UnresolvedCount > 0 {
		b.warnUnresolved(v)
	}
	t, err := parse(v.Resolved)
	if err != nil {
		b.fail(&SettingError{Value: v, Reason: err.Error()})
		return def
	}
	return t
}

func hasMatch(m map[string]int, match string) bool {
	_, ok := m[match]
	return ok
}
