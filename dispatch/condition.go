package dispatch

import (
	"fmt"
	"strings"
)

// paramCondition is one request-parameter condition of a route, in Spring's
// syntax: "p" (present), "!p" (absent), "p=v" (present with value v) and
// "p!=v" (absent, or present with another value).
type paramCondition struct {
	expr   string
	name   string
	value  string
	negate bool
	exact  bool // compares a value rather than presence
}

func parseParamCondition(expr string) (paramCondition, error) {
	c := paramCondition{expr: expr}
	switch {
	case strings.Contains(expr, "!="):
		c.name, c.value, _ = strings.Cut(expr, "!=")
		c.negate, c.exact = true, true
	case strings.Contains(expr, "="):
		c.name, c.value, _ = strings.Cut(expr, "=")
		c.exact = true
	case strings.HasPrefix(expr, "!"):
		c.name, c.negate = expr[1:], true
	default:
		c.name = expr
	}
	if c.name == "" || strings.TrimSpace(c.name) != c.name || strings.ContainsAny(c.name, "!=&") {
		return c, fmt.Errorf("params condition %q: want \"p\", \"!p\", \"p=v\" or \"p!=v\"", expr)
	}
	return c, nil
}

// holds reports whether the condition holds for the raw query. A malformed
// query holds for no condition.
func (c paramCondition) holds(rawQuery string) bool {
	v, n, err := queryValue(rawQuery, c.name)
	if err != nil {
		return false
	}
	switch {
	case !c.exact:
		return (n > 0) != c.negate
	case c.negate:
		return n == 0 || v != c.value
	default:
		return n > 0 && v == c.value
	}
}
