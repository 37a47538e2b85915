package security

import "slices"

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
		rs.rules = append(rs.rules, rule{pattern: MustPathPattern(p), permit: true})
	}
	return rs
}

// Require asks for an authenticated principal that holds one of
// authorities (Spring's hasAnyAuthority; a role is "ROLE_" and its name);
// with none, any authenticated principal (Spring's authenticated).
func (rs *Rules) Require(pattern string, authorities ...string) *Rules {
	rs.rules = append(rs.rules, rule{pattern: MustPathPattern(pattern), anyOf: slices.Clone(authorities)})
	return rs
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
	for _, r := range rs.rules {
		if r.pattern.Matches(path) {
			return r.decide(p)
		}
	}
	if p == nil {
		return Unauthenticated
	}
	return Allowed
}

func (r rule) decide(p *Principal) Decision {
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
