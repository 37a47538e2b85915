package config

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The parsers a setting is bound with (Bind's parse): each takes the
// value as written and says, when it refuses it, what it wants.

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
