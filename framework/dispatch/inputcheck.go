package dispatch

import (
	"fmt"
	"strings"
)

// The constraints of a path variable or query parameter beyond Min
// (input.go): declared with Param's methods, checked after conversion by
// the same rules as a body's fields (constraint.go), and refused by New
// where they cannot apply.

// inputRules are a parameter's constraints, and what was wrong with them
// when declared, for New to report.
type inputRules struct {
	rules
	declErrs []string
}

func (p *Param[T]) declError(format string, args ...any) {
	p.s.checks.declErrs = append(p.s.checks.declErrs, fmt.Sprintf(format, args...))
}

// Max sets the greatest value of an integer parameter and returns p; a
// greater one is a 400 listing "must be less than or equal to n".
func (p *Param[T]) Max(greatest int64) *Param[T] {
	p.s.checks.setMax(greatest)
	return p
}

// Size bounds the length of a text parameter, in characters, and returns
// p; max < 0 leaves it unbounded.
func (p *Param[T]) Size(least, most int) *Param[T] {
	if least < 0 || most >= 0 && most < least {
		p.declError("size %d..%d: want 0 <= min <= max", least, most)
		return p
	}
	p.s.checks.setSize(least, most)
	return p
}

// Pattern sets the regular expression (Go's syntax) that the whole of a
// text parameter must match, as Bean's @Pattern, and returns p.
func (p *Param[T]) Pattern(re string) *Param[T] {
	if err := p.s.checks.setPattern(re); err != nil {
		p.declError("%v", err)
	}
	return p
}

// OneOf lists the values a text parameter may take, and returns p.
func (p *Param[T]) OneOf(values ...string) *Param[T] {
	if len(values) == 0 {
		p.declError("OneOf lists no value")
		return p
	}
	p.s.checks.setEnum(values)
	return p
}

// Email requires a text parameter to be an email address, and returns p.
func (p *Param[T]) Email() *Param[T] {
	p.s.checks.email = true
	return p
}

// URL requires a text parameter to be an absolute URL, and returns p.
func (p *Param[T]) URL() *Param[T] {
	p.s.checks.url = true
	return p
}

// checkDeclaration reports constraints that the parameter's type cannot
// have, or that contradict each other, for compileInputs.
func (s *inputSpec) checkDeclaration() error {
	errs := s.checks.declErrs
	c := &s.checks
	integer := s.kind == kindInt32 || s.kind == kindInt64
	if c.hasMax && !integer {
		errs = append(errs, "Max applies to integer parameters")
	}
	if s.hasMin && c.hasMax && s.min > c.max {
		errs = append(errs, fmt.Sprintf("its minimum %d is greater than its maximum %d", s.min, c.max))
	}
	if (c.hasSize || c.re != nil || c.enum != nil || c.email || c.url) && s.kind != kindString {
		errs = append(errs, "Size, Pattern, OneOf, Email and URL apply to string parameters")
	}
	if c.email && c.url {
		errs = append(errs, "Email and URL cannot both hold")
	}
	if len(errs) == 0 && s.hasDefault {
		if f, _ := s.checkValue(s.def).(*paramFault); f != nil {
			for _, v := range f.violations {
				errs = append(errs, "its default "+v.Detail)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s parameter %q: %s", s.in, s.name, strings.Join(errs, "; "))
}

// checkValue checks a converted value against the constraints beyond Min.
func (s *inputSpec) checkValue(v inputValue) error {
	c := &s.checks
	if !c.any() {
		return nil
	}
	var f *paramFault
	add := func(msg string) {
		if f == nil {
			f = &paramFault{}
		}
		f.violations = append(f.violations, Violation{Detail: msg, Parameter: s.name})
	}
	if s.kind == kindString {
		c.checkText(v.text, add)
	} else {
		c.checkInt(v.integer, add)
	}
	if f == nil {
		return nil
	}
	return f
}

// describeChecks gives the parameter's constraints beyond Min for the
// OpenAPI document; nil when it has none.
func (s *inputSpec) describeChecks() *Constraints {
	if !s.checks.any() {
		return nil
	}
	return new(s.checks.describe())
}
