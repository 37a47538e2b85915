package dispatch

import (
	"fmt"
	"strings"
)

// ParamCondition is one request-parameter condition of a route, in Spring's
// syntax: "p" (present), "!p" (absent), "p=v" (present with value v) and
// "p!=v" (absent, or present with another value).
type ParamCondition struct {
	Name    string
	Value   string // the value compared, when Exact
	Negated bool   // "!p" or "p!=v"
	Exact   bool   // compares a value rather than presence
	expr    string
}

// String returns the condition as declared.
func (c ParamCondition) String() string { return c.expr }

func parseParamCondition(expr string) (ParamCondition, error) {
	c := ParamCondition{expr: expr}
	switch {
	case strings.Contains(expr, "!="):
		c.Name, c.Value, _ = strings.Cut(expr, "!=")
		c.Negated, c.Exact = true, true
	case strings.Contains(expr, "="):
		c.Name, c.Value, _ = strings.Cut(expr, "=")
		c.Exact = true
	case strings.HasPrefix(expr, "!"):
		c.Name, c.Negated = expr[1:], true
	default:
		c.Name = expr
	}
	if c.Name == "" || strings.TrimSpace(c.Name) != c.Name || strings.ContainsAny(c.Name, "!=&") {
		return c, fmt.Errorf("params condition %q: want \"p\", \"!p\", \"p=v\" or \"p!=v\"", expr)
	}
	return c, nil
}

// holds reports whether the condition holds for the raw query. A malformed
// query holds for no condition.
func (c ParamCondition) holds(rawQuery string) bool {
	v, n, err := queryValue(rawQuery, c.Name)
	if err != nil {
		return false
	}
	switch {
	case !c.Exact:
		return (n > 0) != c.Negated
	case c.Negated:
		return n == 0 || v != c.Value
	default:
		return n > 0 && v == c.Value
	}
}
