package security

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// The settings of security that every authenticator shares, with Spring
// Boot's names (spring.* read as app.*). Security is on as soon as a
// starter adds an authenticator (a user, a token key source: see
// boot.App.Authenticate), with no switch of its own; see docs/security.md.
const (
	permitAllKey     = "app.security.permit-all"
	healthRolesKey   = "management.endpoint.health.roles"
	actuatorRolesKey = "app.security.actuator.roles"
)

// Settings are the rules the settings make, whichever authenticator
// checks the credentials.
type Settings struct {
	PermitAll   []string // path patterns anyone may call
	HealthRoles []string // who sees health's when-authorized details; none: anyone authenticated
	// ActuatorRoles are the roles of which the management endpoints but
	// health ask one; none: any authenticated user, as Spring Boot's
	// default (ManagementWebSecurityAutoConfiguration) asks.
	ActuatorRoles []string
}

// Bind reads the rules' settings through b.
func Bind(b *config.Binder) Settings {
	return Settings{
		PermitAll:     config.Bind(b, permitAllKey, nil, pathPatterns, "with security on, path patterns anyone may call (/api/**, /v3/api-docs/**, /users/{id}, *.json)"),
		HealthRoles:   config.Bind(b, healthRolesKey, nil, config.List, "with security on, the roles that see health's when-authorized components and details; none: any authenticated user"),
		ActuatorRoles: config.Bind(b, actuatorRolesKey, nil, roleList, "with security on, the roles (ACTUATOR, or ROLE_ACTUATOR) of which every management endpoint but health, and their index, asks one; none: any authenticated user, as Spring Boot's default"),
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

// roleList reads a list of roles, each as Spring's hasAnyRole takes it
// (ACTUATOR) or as the authority it stands for (ROLE_ACTUATOR).
func roleList(s string) ([]string, error) {
	roles, _ := config.List(s)
	for _, r := range roles {
		if strings.TrimPrefix(r, "ROLE_") == "" {
			return nil, errors.New("want role names such as ACTUATOR (or ROLE_ACTUATOR)")
		}
	}
	return roles, nil
}

// ActuatorAuthorities are the authorities of which the management
// endpoints but health ask one: each of ActuatorRoles as written and as
// a role (ACTUATOR and ROLE_ACTUATOR), as health's roles are matched;
// none when any authenticated user may call them.
func (s Settings) ActuatorAuthorities() []string {
	var authorities []string
	for _, r := range s.ActuatorRoles {
		authorities = append(authorities, r)
		if !strings.HasPrefix(r, "ROLE_") {
			authorities = append(authorities, "ROLE_"+r)
		}
	}
	return authorities
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
