package config

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// SettingError reports a setting that cannot be used: its key, its value,
// where the value came from and why it is wrong.
type SettingError struct {
	Value  Value
	Reason string
	// positional says that Reason has its secrets masked already, where
	// they stand: the placeholder resolver's messages, which know which of
	// their text is a secret's. Shown masks nothing more in them.
	positional bool
}

func (e *SettingError) Error() string {
	value, origin, reason := e.Shown()
	return fmt.Sprintf("setting %s=%q from %s is invalid: %s", e.Value.Key, value, origin, reason)
}

// Shown returns the setting's value, origin and reason as they may be
// printed, every secret masked (as Mask), by position wherever the
// structure of the text says where it is:
//
//   - the value: whole when the key holds a secret; otherwise the
//     passwords of a connection string in it and the defaults of its
//     placeholders that name secrets (see Sanitize);
//   - the origin: without the value it quotes (a command-line argument's),
//     when the value has a secret in it;
//   - the reason: where it quotes the value, raw or resolved (a parser's
//     "cannot parse ..."), the value as the Value line shows it.
//
// A reason may also quote a secret where no structure marks it: a
// parser or driver that prints its input back ("cannot parse ..."). Only
// there is text replaced: each secret the setting holds or took from
// another (x=${db.password}) is masked wherever the reason holds it,
// except one that the printed value or origin shows anyway: a password
// that is also the user or database name (postgres) would otherwise
// mask that name everywhere, hiding nothing that is not already shown.
func (e *SettingError) Shown() (value, origin, reason string) {
	value, origin, reason = Sanitize(e.Value.Key, e.Value.Raw), e.Value.Origin, e.Reason
	masked := value != e.Value.Raw || len(e.Value.secrets) > 0 || len(Passwords(e.Value.Resolved)) > 0
	if masked {
		origin = OriginWithoutValue(origin)
	}
	if e.positional {
		return value, origin, reason
	}
	reason = quotedMasked(reason, e.Value.Raw, value)
	resolved := MaskPasswords(e.Value.Resolved)
	if Sensitive(e.Value.Key) {
		resolved = Mask
	}
	reason = quotedMasked(reason, e.Value.Resolved, resolved)
	secrets := slices.Concat(e.Value.secrets, Passwords(e.Value.Raw), Passwords(e.Value.Resolved))
	return value, origin, maskQuoted(reason, secrets, value+"\n"+origin)
}

// quotedMasked returns text with each occurrence of value, which it
// quotes, replaced by masked, value as it may be shown.
func quotedMasked(text, value, masked string) string {
	if value == "" || value == masked {
		return text
	}
	return strings.ReplaceAll(text, value, masked)
}

// maskQuoted masks each of secrets wherever text holds it, longest first,
// except those that shown, text printed beside it in clear, holds: see
// SettingError.Shown for when this is the only way.
func maskQuoted(text string, secrets []string, shown string) string {
	secrets = slices.Clone(secrets)
	slices.SortStableFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, secret := range secrets {
		if secret == "" || secret == Mask || containsWord(shown, secret) {
			continue
		}
		text = strings.ReplaceAll(text, secret, Mask)
	}
	return text
}

// containsWord reports whether s holds word as a whole: not inside a
// longer run of letters and digits, as a user or a database name stands
// in a connection string. A secret that is merely part of other text
// (the password "a" in "argument") is not shown by it.
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		if (start == 0 || !isAlnum(s[start-1]) || !isAlnum(word[0])) &&
			(end == len(s) || !isAlnum(s[end]) || !isAlnum(word[len(word)-1])) {
			return true
		}
		i = start + 1
	}
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// MaskQuoted returns text, an error message about a connection string
// (a driver's), with its secrets masked: by position, the passwords of
// the connection strings it quotes (MaskPasswords); then, as a driver
// may print its input back where nothing marks the password, each of
// secrets wherever text holds it, except one that shown (text printed
// in clear beside it, such as the connection string with its password
// masked) holds anyway: a password that is also the user's or the
// database's name would otherwise mask that name, and hide nothing.
func MaskQuoted(text string, secrets []string, shown string) string {
	return maskQuoted(MaskPasswords(text), secrets, shown)
}

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

// String takes the value as it is.
func String(s string) (string, error) { return s, nil }

// IntIn returns a parser for integers from lo to hi.
func IntIn(lo, hi int) func(string) (int, error) {
	return func(s string) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("want an integer from %d to %d", lo, hi)
		}
		return n, nil
	}
}

// Int32 parses a 32-bit integer.
func Int32(s string) (int32, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("want an integer from %d to %d", math.MinInt32, math.MaxInt32)
	}
	return int32(n), nil
}

// Port parses a TCP port; 0 asks for a free one.
func Port(s string) (int, error) {
	n, err := IntIn(0, 65535)(s)
	if err != nil {
		return 0, errors.New("want a port number from 0 to 65535 (0 picks a free port)")
	}
	return n, nil
}

// Bool parses true or false, in any case, and the other words Spring's
// conversion takes for them: on, yes, 1 and off, no, 0.
func Bool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, errors.New("want true or false (or on/off, yes/no, 1/0), in any case")
}

// OneOf returns a parser that allows only the given values, and returns
// the one given. As Spring binds enums, case and separators do not count:
// ALWAYS, When_Authorized and whenAuthorized are always and
// when-authorized.
func OneOf(allowed ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		for _, a := range allowed {
			if canonicalName(a) == canonicalName(s) {
				return a, nil
			}
		}
		return "", fmt.Errorf("want one of %s (in any case)", strings.Join(allowed, ", "))
	}
}

// canonicalName is s as Spring's lenient enum rule compares names: in
// lower case, with everything but letters and digits dropped.
func canonicalName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// List parses a comma-separated list, trimming each element and dropping
// empty ones.
func List(s string) ([]string, error) { return splitList(s), nil }

// URL returns a parser for URLs of the given schemes, in any case; the
// empty string is taken as unset. The value is not quoted in the reason:
// it may hold a password.
func URL(schemes ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		if s == "" {
			return "", nil
		}
		scheme, _, ok := strings.Cut(s, "://")
		if ok && slices.Contains(schemes, strings.ToLower(scheme)) {
			return s, nil
		}
		return "", fmt.Errorf("want a URL that starts with %s://", strings.Join(schemes, ":// or "))
	}
}

// Probability parses a number from 0 to 1.
func Probability(s string) (float64, error) {
	p, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(p >= 0 && p <= 1) { // NaN too
		return 0, errors.New("want a number from 0 to 1")
	}
	return p, nil
}
