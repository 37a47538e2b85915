package openapi

import (
	"maps"
	"reflect"

	"github.com/springport/greeter/framework/dispatch"
)

// The constraints a body field or a parameter declares (dispatch's
// validate and pattern tags, Param's Min, Max, Size...), as JSON Schema
// keywords, so that the document says what the service refuses.

// constrained returns sc, the schema of values of type t, with c's
// keywords; sc itself when c constrains nothing.
func constrained(sc object, t reflect.Type, c dispatch.Constraints) object {
	if c.Minimum == nil && c.Maximum == nil && c.MinLength == nil && c.MaxLength == nil &&
		c.Pattern == "" && c.Format == "" && c.Enum == nil {
		return sc
	}
	sc = maps.Clone(sc)
	if c.Minimum != nil {
		sc["minimum"] = tighter(sc["minimum"], *c.Minimum, func(a, b int64) bool { return a > b })
	}
	if c.Maximum != nil {
		sc["maximum"] = tighter(sc["maximum"], *c.Maximum, func(a, b int64) bool { return a < b })
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	minKey, maxKey := "minLength", "maxLength"
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		minKey, maxKey = "minItems", "maxItems"
	case reflect.Map:
		minKey, maxKey = "minProperties", "maxProperties"
	}
	if c.MinLength != nil {
		sc[minKey] = *c.MinLength
	}
	if c.MaxLength != nil {
		sc[maxKey] = *c.MaxLength
	}
	if c.Pattern != "" {
		sc["pattern"] = c.Pattern
	}
	if c.Format != "" {
		sc["format"] = c.Format
	}
	if c.Enum != nil {
		enum := make([]any, len(c.Enum))
		for i, v := range c.Enum {
			enum[i] = v
		}
		sc["enum"] = enum
	}
	return sc
}

// tighter returns the bound declared, or the type's own (an uint8's 255)
// when that is tighter by better.
func tighter(own any, declared int64, better func(a, b int64) bool) int64 {
	var n int64
	switch v := own.(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	default:
		return declared
	}
	if better(n, declared) {
		return n
	}
	return declared
}

// hasConstraintTags reports whether a struct field declares constraints.
func hasConstraintTags(f reflect.StructField) bool {
	_, v := f.Tag.Lookup("validate")
	_, p := f.Tag.Lookup("pattern")
	return v || p
}

// declaresConstraints reports whether a struct's fields, its embedded
// structs' included, declare constraints: then its required list is what
// the dispatcher enforces rather than what encoding/json always writes.
func declaresConstraints(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		if hasConstraintTags(f) {
			return true
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && ft.Kind() == reflect.Struct && declaresConstraints(ft, seen) {
			return true
		}
	}
	return false
}
