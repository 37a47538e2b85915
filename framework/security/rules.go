package security

import (
	"slices"
	"strings"
)

// Rules say which requests need what, as Spring Security's
// authorizeHttpRequests does: each rule is a path pattern and what it
// asks; they are tried in the order they were added, and the first whose
// pattern matches decides. A request no rule matches needs an
// authenticated principal, as Spring's usual closing
// anyRequest().authenticated() says.
//
//	rules := new(security.Rules).
//		Permit("/actuator/health", "/actuator/health/**").
//		Require("/actuator/**", "ROLE_ACTUATOR").
//		Permit("/api/**")
type Rules struct {
	rules []rule
	// Decide tries, of the rules, only those that may match a path with
	// the path's first segment: byFirst holds, for each first segment
	// that some rule's pattern names ("actuator", "api"), the indexes of
	// the rules that name it and of those that name none ("/**",
	// "/*.json"), in order; anyFirst those that name none, for a segment
	// no rule names. A request to /api/hello then tries one or two rules
	// of the thirty-odd that the management endpoints make.
	byFirst  map[string][]int
	anyFirst []int
}

type rule struct {
	pattern PathPattern
	permit  bool     // anyone, anonymous included
	anyOf   []string // one of these authorities; none: any authenticated principal
}

// Permit lets anyone, anonymous or not, call the paths that match
// patterns (Spring's permitAll). A pattern that does not parse panics:
// see ParsePathPattern, which settings are checked with first.
func (rs *Rules) Permit(patterns ...string) *Rules {
	for _, p := range patterns {
		rs.add(rule{pattern: MustPathPattern(p), permit: true})
	}
	return rs
}

// Require asks for an authenticated principal that holds one of
// authorities (Spring's hasAnyAuthority; a role is "ROLE_" and its name);
// with none, any authenticated principal (Spring's authenticated).
func (rs *Rules) Require(pattern string, authorities ...string) *Rules {
	rs.add(rule{pattern: MustPathPattern(pattern), anyOf: slices.Clone(authorities)})
	return rs
}

// add appends r and indexes it by the first segment its pattern names.
func (rs *Rules) add(r rule) {
	i := len(rs.rules)
	rs.rules = append(rs.rules, r)
	first, named := r.pattern.firstSegment()
	if !named {
		rs.anyFirst = append(rs.anyFirst, i)
		for s := range rs.byFirst {
			rs.byFirst[s] = append(rs.byFirst[s], i)
		}
		return
	}
	if rs.byFirst == nil {
		rs.byFirst = map[string][]int{}
	}
	if _, ok := rs.byFirst[first]; !ok {
		rs.byFirst[first] = slices.Clone(rs.anyFirst)
	}
	rs.byFirst[first] = append(rs.byFirst[first], i)
}

// Decision is what the rules say of a request.
type Decision int

const (
	// Allowed: the request goes on.
	Allowed Decision = iota
	// Unauthenticated: it needs a principal and has none (401).
	Unauthenticated
	// Forbidden: its principal lacks the authority (403).
	Forbidden
)

// Decide applies the rules to a request for path (without the context
// path) made by p, nil when anonymous.
func (rs *Rules) Decide(path string, p *Principal) Decision {
	if rest, ok := strings.CutPrefix(path, "/"); ok {
		// A path without its slash matches no pattern.
		first, _, _ := strings.Cut(rest, "/")
		candidates, named := rs.byFirst[first]
		if !named {
			candidates = rs.anyFirst
		}
		for _, i := range candidates {
			if r := &rs.rules[i]; r.pattern.Matches(path) {
				return r.decide(p)
			}
		}
	}
	if p == nil {
		return Unauthenticated
	}
	return Allowed
}

func (r *rule) decide(p *Principal) Decision {
	switch {
	case r.permit:
		return Allowed
	case p == nil:
		return Unauthenticated
	case len(r.anyOf) == 0 || slices.ContainsFunc(r.anyOf, p.Has):
		return Allowed
	}
	return Forbidden
}
