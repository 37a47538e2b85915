package security

import (
	"context"
	"slices"

	"github.com/springport/greeter/framework/config"
)

// The settings of security that every authenticator shares, with Spring
// Boot's names (spring.* read as app.*). Security is on as soon as a
// starter adds an authenticator (a user, a token key source: see
// boot.App.Authenticate), with no switch of its own; see docs/security.md.
const (
	permitAllKey   = "app.security.permit-all"
	healthRolesKey = "management.endpoint.health.roles"
)

// Settings are the rules the settings make, whichever authenticator
// checks the credentials.
type Settings struct {
	PermitAll   []string // path patterns anyone may call
	HealthRoles []string // who sees health's when-authorized details; none: anyone authenticated
}

// Bind reads the rules' settings through b.
func Bind(b *config.Binder) Settings {
	return Settings{
		PermitAll:   config.Bind(b, permitAllKey, nil, pathPatterns, "with security on, path patterns anyone may call (/api/**, /v3/api-docs/**, /users/{id}, *.json)"),
		HealthRoles: config.Bind(b, healthRolesKey, nil, config.List, "with security on, the roles that see health's when-authorized components and details; none: any authenticated user"),
	}
}

// pathPatterns reads a list of Spring path patterns.
func pathPatterns(s string) ([]string, error) {
	patterns, _ := config.List(s)
	for _, p := range patterns {
		if _, err := ParsePathPattern(p); err != nil {
			return nil, err
		}
	}
	return patterns, nil
}

// HealthAuthorized is when-authorized's test for health: an authenticated
// principal holding one of HealthRoles (as ROLE_<role> or as it is
// written), or any when there are none, as Spring Boot decides.
func (s Settings) HealthAuthorized(ctx context.Context) bool {
	p := PrincipalFrom(ctx)
	if p == nil {
		return false
	}
	return len(s.HealthRoles) == 0 || slices.ContainsFunc(s.HealthRoles, func(r string) bool { return p.Has(r) || p.Has("ROLE_"+r) })
}
