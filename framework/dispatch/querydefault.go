package dispatch

import (
	"fmt"

	"github.com/google/uuid"
)

// Default sets the value Get returns when the request leaves the
// optional query parameter out (or sends it empty), as Spring's
// @RequestParam(defaultValue), and returns p. The OpenAPI document gives
// it as the parameter's default. Lookup still reports the parameter as
// absent. New refuses a route whose parameter with a default is required
// (a path variable, a Query), or whose default the parameter would refuse
// from a client (below its Min).
func (p *Param[T]) Default(v T) *Param[T] {
	p.s.hasDefault, p.s.defaultValue = true, v
	switch v := any(v).(type) {
	case int32:
		p.s.def = inputValue{integer: int64(v)}
	case int64:
		p.s.def = inputValue{integer: v}
	case uuid.UUID:
		p.s.def = inputValue{id: v}
	case string:
		p.s.def = inputValue{text: v}
	}
	return p
}

// checkDefault reports what is wrong with s's default, if it has one.
func (s *inputSpec) checkDefault() []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !s.hasDefault {
		return nil
	}
	if s.required {
		fail("declares a default for %s parameter %q, which is required: declare it with OptionalQuery", s.in, s.name)
	}
	if s.hasMin && s.def.integer < s.min {
		fail("declares the default %d for %s parameter %q, below its minimum %d", s.def.integer, s.in, s.name, s.min)
	}
	return errs
}
