package config

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SettingError reports a setting that cannot be used: its key, its value,
// where the value came from and why it is wrong.
type SettingError struct {
	Value  Value
	Reason string
}

func (e *SettingError) Error() string {
	value, origin, reason := e.Shown()
	return fmt.Sprintf("setting %s=%q from %s is invalid: %s", e.Value.Key, value, origin, reason)
}

// Shown returns the setting's value, origin and reason as they may be
// printed: a secret masked in each (see Sanitize), whether the setting
// holds one or a placeholder in it took one from another setting.
func (e *SettingError) Shown() (value, origin, reason string) {
	value, origin, reason = Sanitize(e.Value.Key, e.Value.Raw), e.Value.Origin, e.Reason
	masked := value != e.Value.Raw
	for _, secret := range e.Value.secrets {
		if secret == "" {
			continue
		}
		if strings.Contains(value, secret) || strings.Contains(reason, secret) {
			masked = true
		}
		value, reason = strings.ReplaceAll(value, secret, Mask), strings.ReplaceAll(reason, secret, Mask)
	}
	if masked {
		origin = OriginWithoutValue(origin)
	}
	return value, origin, reason
}

// Binder reads typed settings from an Environment and collects every
// failure, so that one start reports every bad setting at once.
type Binder struct {
	env      *Environment
	keys     []string
	defaults map[string]string // each key's default, as --help shows it
	errs     []error
}

// NewBinder returns a Binder over env.
func NewBinder(env *Environment) *Binder { return &Binder{env: env} }

// Err returns every failure so far, or nil.
func (b *Binder) Err() error { return errors.Join(b.errs...) }

// Keys returns the keys asked for so far, each once, in the order first
// asked: what the application reads, which the Environment cannot know, and
// which its listing needs to show the environment variables that set them
// (see Environment.PropertySources).
func (b *Binder) Keys() []string { return slices.Clone(b.keys) }

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
		for _, u := range []struct {
			unit   time.Duration
			suffix string
		}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}} {
			if v != 0 && v%u.unit == 0 {
				return strconv.FormatInt(int64(v/u.unit), 10) + u.suffix
			}
		}
		return v.String()
	case []string:
		return strings.Join(v, ",")
	}
	return fmt.Sprint(v)
}

// Bind reads key and converts it with parse; an unset key gives def. A
// value that does not convert is recorded with its origin and def is
// returned, so binding can go on and report the other settings too.
func Bind[T any](b *Binder, key string, def T, parse func(string) (T, error)) T {
	if !slices.Contains(b.keys, key) {
		b.keys = append(b.keys, key)
		if b.defaults == nil {
			b.defaults = map[string]string{}
		}
		b.defaults[key] = formatDefault(def)
	}
	v, ok, err := b.env.Lookup(key)
	if err != nil {
		b.errs = append(b.errs, err)
		return def
	}
	if !ok {
		return def
	}
	t, err := parse(v.Resolved)
	if err != nil {
		b.errs = append(b.errs, &SettingError{Value: v, Reason: err.Error()})
		return def
	}
	return t
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

// Bool parses true or false, in any case.
func Bool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("want true or false")
}

// Duration parses a positive duration as Spring Boot writes them: "500ms",
// "5s", "1m", "2h", "1d", or a bare number of milliseconds.
func Duration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	bad := errors.New("want a positive duration such as 500ms, 5s or 1m")
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 || n > math.MaxInt64/int64(time.Millisecond) {
			return 0, bad
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(days, 10, 64)
		if err != nil || n <= 0 || n > 100000 {
			return 0, bad
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, bad
	}
	return d, nil
}

// DurationAtLeast returns a parser of durations (as Duration) no shorter
// than min: a timeout of 10ns parses, and makes a server refuse every
// request.
func DurationAtLeast(min time.Duration) func(string) (time.Duration, error) {
	return func(s string) (time.Duration, error) {
		d, err := Duration(s)
		if err == nil && d < min {
			err = fmt.Errorf("want at least %v: a shorter one leaves no time for the work it bounds", min)
		}
		return d, err
	}
}

// DurationOrZero is Duration, also allowing zero for "none".
func DurationOrZero(s string) (time.Duration, error) {
	if t := strings.TrimSpace(s); t == "0" || t == "0s" || t == "0ms" {
		return 0, nil
	}
	d, err := Duration(s)
	if err != nil {
		return 0, errors.New("want a duration such as 0, 500ms, 5s or 1m")
	}
	return d, nil
}

// DataSize parses a size as Spring Boot writes them: "512KB", "1MB",
// "10B", or a bare number of bytes. Units are powers of 1024.
func DataSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	bad := errors.New("want a positive size such as 1048576, 512KB or 1MB")
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40}, {"B", 1}} {
		if n, ok := strings.CutSuffix(strings.ToUpper(s), u.suffix); ok {
			s, unit = strings.TrimSpace(n), u.size
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, bad
	}
	return n * unit, nil
}

// OneOf returns a parser that allows only the given values.
func OneOf(allowed ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		s = strings.TrimSpace(s)
		if slices.Contains(allowed, s) {
			return s, nil
		}
		return "", fmt.Errorf("want one of %s", strings.Join(allowed, ", "))
	}
}

// List parses a comma-separated list, trimming each element and dropping
// empty ones.
func List(s string) ([]string, error) { return splitList(s), nil }
