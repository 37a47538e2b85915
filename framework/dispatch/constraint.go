package dispatch

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Constraints, Bean Validation's, declared on a body's fields with struct
// tags and on parameters with Param's methods: what each allows, the
// messages of what breaks it (Hibernate Validator's default English ones),
// and the checks of a value, shared by bodies and parameters. Everything
// is parsed and worded when the routes are compiled; a check allocates
// nothing unless it finds a violation.

// Constraints describe what a body field or a parameter must hold, for
// the OpenAPI document; nil and empty fields constrain nothing.
type Constraints struct {
	// Required: the field must be given (validate:"required"); for a
	// text, not blank; for a list or map, not empty.
	Required bool
	// Minimum and Maximum bound a number, inclusive.
	Minimum, Maximum *int64
	// MinLength and MaxLength bound a text's length in characters, or a
	// list's or a map's number of members.
	MinLength, MaxLength *int
	// Pattern is the regular expression (Go's syntax) the whole text
	// must match, anchored with ^ and $ as it is applied.
	Pattern string
	// Format is "email" or "uri" when the text must be one.
	Format string
	// Enum lists the texts allowed.
	Enum []string
}

// rules are the constraints of one field or parameter, ready to check.
type rules struct {
	required       bool
	hasMin, hasMax bool
	min, max       int64
	hasSize        bool
	sizeMin        int
	sizeMax        int // -1: no upper bound
	pattern        string
	re             *regexp.Regexp
	email, url     bool
	enum           []string

	minMsg, maxMsg, sizeMsg, patternMsg, enumMsg string
}

// The messages that do not depend on the constraint's arguments.
const (
	msgNull  = "must not be null"
	msgBlank = "must not be blank"
	msgEmpty = "must not be empty"
	msgEmail = "must be a well-formed email address"
	msgURL   = "must be a valid URL"
)

func (r *rules) any() bool {
	return r.required || r.hasMin || r.hasMax || r.hasSize || r.re != nil || r.email || r.url || r.enum != nil
}

// parseRules reads a field's validate and pattern tags.
func parseRules(validate, pattern string) (rules, error) {
	var r rules
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	seen := map[string]bool{}
	for item := range strings.SplitSeq(validate, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, arg, hasArg := strings.Cut(item, "=")
		if seen[name] {
			fail("declares %s twice", name)
			continue
		}
		seen[name] = true
		if name == "pattern" {
			fail("pattern goes in a tag of its own, pattern:\"…\", so that it needs no escaping")
			continue
		}
		takesArg := name == "min" || name == "max" || name == "size" || name == "enum"
		if hasArg != takesArg {
			if takesArg {
				fail("%s needs a value (%s=…)", name, name)
			} else {
				fail("%s takes no value", name)
			}
			continue
		}
		switch name {
		case "required":
			r.required = true
		case "email":
			r.email = true
		case "url":
			r.url = true
		case "min", "max":
			n, err := strconv.ParseInt(arg, 10, 64)
			if err != nil {
				fail("%s=%s: want an integer", name, arg)
				continue
			}
			if name == "min" {
				r.setMin(n)
			} else {
				r.setMax(n)
			}
		case "size":
			lo, hi, ok := parseSize(arg)
			if !ok {
				fail("size=%s: want min..max, min.. or ..max, with 0 <= min <= max", arg)
				continue
			}
			r.setSize(lo, hi)
		case "enum":
			values := strings.Split(arg, "|")
			if slices.Contains(values, "") {
				fail("enum=%s: a value is empty", arg)
				continue
			}
			r.setEnum(values)
		default:
			fail("unknown constraint %q (known: required, min, max, size, pattern, email, url, enum)", name)
		}
	}
	if pattern != "" {
		if err := r.setPattern(pattern); err != nil {
			errs = append(errs, err)
		}
	}
	if err := r.consistent(); err != nil {
		errs = append(errs, err)
	}
	return r, errors.Join(errs...)
}

// parseSize reads min..max, min.. or ..max.
func parseSize(arg string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(arg, "..")
	if !found || (a == "" && b == "") {
		return 0, 0, false
	}
	hi = -1
	var err error
	if a != "" {
		if lo, err = strconv.Atoi(a); err != nil || lo < 0 {
			return 0, 0, false
		}
	}
	if b != "" {
		if hi, err = strconv.Atoi(b); err != nil || hi < lo {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

func (r *rules) setMin(n int64) {
	r.hasMin, r.min = true, n
	r.minMsg = "must be greater than or equal to " + strconv.FormatInt(n, 10)
}

func (r *rules) setMax(n int64) {
	r.hasMax, r.max = true, n
	r.maxMsg = "must be less than or equal to " + strconv.FormatInt(n, 10)
}

func (r *rules) setSize(lo, hi int) {
	r.hasSize, r.sizeMin, r.sizeMax = true, lo, hi
	shown := hi
	if hi < 0 {
		shown = math.MaxInt32 // Hibernate's words for @Size without max
	}
	r.sizeMsg = fmt.Sprintf("size must be between %d and %d", lo, shown)
}

func (r *rules) setEnum(values []string) {
	r.enum = values
	r.enumMsg = "must be one of: " + strings.Join(values, ", ")
}

// setPattern compiles pattern to match the whole text, as Bean's @Pattern
// does (Matcher.matches), where Go's regexp would find it anywhere.
func (r *rules) setPattern(pattern string) error {
	re, err := regexp.Compile(anchored(pattern))
	if err != nil {
		return fmt.Errorf("pattern %q: %v", pattern, err)
	}
	r.pattern, r.re = pattern, re
	r.patternMsg = "must match " + strconv.Quote(pattern)
	return nil
}

// anchored returns the regular expression that matches a whole text as
// pattern does: pattern itself when it is anchored at both ends and has no
// alternative that could escape an anchor.
func anchored(pattern string) string {
	if strings.HasPrefix(pattern, "^") && strings.HasSuffix(pattern, "$") && !strings.HasSuffix(pattern, `\$`) && !strings.Contains(pattern, "|") {
		return pattern
	}
	return "^(?:" + pattern + ")$"
}

// consistent refuses constraints that no value could satisfy, or that
// contradict each other.
func (r *rules) consistent() error {
	var errs []string
	if r.hasMin && r.hasMax && r.min > r.max {
		errs = append(errs, fmt.Sprintf("min %d is greater than max %d", r.min, r.max))
	}
	if r.email && r.url {
		errs = append(errs, "email and url cannot both hold")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// appliesTo refuses a constraint that cannot apply to values of type t
// (a body field's type), such as email on an int.
func (r *rules) appliesTo(t reflect.Type) error {
	base := t
	if t.Kind() == reflect.Pointer {
		base = t.Elem()
	}
	k := base.Kind()
	var errs []string
	refuse := func(c, what string) { errs = append(errs, fmt.Sprintf("%s applies to %s, not %s", c, what, t)) }
	text := k == reflect.String
	if r.required && t.Kind() != reflect.Pointer && !text && k != reflect.Slice && k != reflect.Map && k != reflect.Interface {
		errs = append(errs, fmt.Sprintf("required cannot be enforced on %s: an absent member decodes to its zero value; declare the field *%s", t, t))
	}
	if (r.hasMin || r.hasMax) && !isNumber(k) {
		refuse("min and max", "numbers (size bounds a length)")
	}
	if r.hasSize && !text && k != reflect.Slice && k != reflect.Map && k != reflect.Array {
		refuse("size", "texts, lists and maps")
	}
	for _, c := range []struct {
		on   bool
		name string
	}{{r.re != nil, "pattern"}, {r.email, "email"}, {r.url, "url"}, {r.enum != nil, "enum"}} {
		if c.on && !text {
			refuse(c.name, "texts")
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func isNumber(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// describe returns the constraints for the OpenAPI document.
func (r *rules) describe() Constraints {
	c := Constraints{Required: r.required, Enum: r.enum}
	if r.hasMin {
		c.Minimum = new(r.min)
	}
	if r.hasMax {
		c.Maximum = new(r.max)
	}
	if r.hasSize {
		if r.sizeMin > 0 {
			c.MinLength = new(r.sizeMin)
		}
		if r.sizeMax >= 0 {
			c.MaxLength = new(r.sizeMax)
		}
	}
	if r.re != nil {
		c.Pattern = anchored(r.pattern)
	}
	switch {
	case r.email:
		c.Format = "email"
	case r.url:
		c.Format = "uri"
	}
	return c
}

// FieldConstraints returns the constraints a body field's validate and
// pattern tags declare, for the OpenAPI document; an error for tags that
// New would refuse.
func FieldConstraints(f reflect.StructField) (Constraints, error) {
	r, err := parseRules(f.Tag.Get("validate"), f.Tag.Get("pattern"))
	if err == nil {
		err = r.appliesTo(f.Type)
	}
	return r.describe(), err
}
