package boot

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/security"
)

// The settings of security that every authenticator shares, with Spring
// Boot's names (spring.* read as app.*). Security is on as soon as a
// starter adds an authenticator (a user, a token key source), with no
// switch of its own; see docs/security.md.
const (
	permitAllKey   = "app.security.permit-all"
	healthRolesKey = "management.endpoint.health.roles"
)

// securitySettings are the rules the settings make, whichever starter
// authenticates.
type securitySettings struct {
	permitAll   []string // path patterns anyone may call
	healthRoles []string // who sees health's when-authorized details; none: anyone authenticated
}

// bindSecurity reads the rules.
func bindSecurity(b *config.Binder) securitySettings {
	return securitySettings{
		permitAll:   config.Bind(b, permitAllKey, nil, pathPatterns, "with security on, path patterns anyone may call (/api/**, /v3/api-docs/**, /users/{id}, *.json)"),
		healthRoles: config.Bind(b, healthRolesKey, nil, config.List, "with security on, the roles that see health's when-authorized components and details; none: any authenticated user"),
	}
}

// Authentication schemes, as the OpenAPI document names them.
const (
	BasicScheme  = "basic"  // HTTP Basic
	BearerScheme = "bearer" // bearer tokens (JWT)
)

// Authenticate adds an authenticator to the guard of both ports, under
// scheme (BasicScheme, BearerScheme), which the OpenAPI document
// describes. Security is on once one is added: a starter adds it when its
// settings ask for it (a user, a token key source).
func (a *App) Authenticate(scheme string, auth security.Authenticator) {
	a.mustBeStarting("Authenticate")
	a.authenticators = append(a.authenticators, auth)
	a.schemes = append(a.schemes, scheme)
}

// securityOn reports whether security is on: an authenticator was added.
func (a *App) securityOn() bool { return len(a.authenticators) > 0 }

// pathPatterns reads a list of Spring path patterns.
func pathPatterns(s string) ([]string, error) {
	patterns, _ := config.List(s)
	for _, p := range patterns {
		if _, err := security.ParsePathPattern(p); err != nil {
			return nil, err
		}
	}
	return patterns, nil
}

// ActuatorAuthority is the authority every management endpoint but
// health and info needs, as in Spring Boot's documented set-up.
const ActuatorAuthority = "ROLE_ACTUATOR"

// securityRules are the rules the settings make, through the same API a
// service would use: health (its groups and probes) and info are open;
// every other management endpoint, and their index, need ROLE_ACTUATOR;
// the paths of app.security.permit-all are open; everything else needs
// an authenticated user.
func securityRules(s securitySettings, managementBase string) *security.Rules {
	base := strings.TrimSuffix(managementBase, "/")
	rules := new(security.Rules).
		Permit(base+"/health", base+"/health/**", base+"/info")
	if base != "" {
		rules.Require(base, ActuatorAuthority)
	}
	for _, id := range actuator.IDs {
		if id != actuator.Health && id != actuator.Info {
			rules.Require(base+"/"+id, ActuatorAuthority).Require(base+"/"+id+"/**", ActuatorAuthority)
		}
	}
	return rules.Permit(s.permitAll...)
}

// securityGuard builds the guard of both ports, or nil when security is
// off: then the dispatcher is as it was. Refusals are counted in
// security_refusals_total{status,reason}.
func (a *App) securityGuard(s securitySettings, managementBase string) (dispatch.Guard, error) {
	if !a.securityOn() {
		return nil, nil
	}
	refusals := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "security_refusals_total",
		Help: "Requests refused by security, by status (401, 403) and reason"}, []string{"status", "reason"})
	if err := a.metrics.Registerer().Register(refusals); err != nil {
		return nil, err
	}
	g := &security.Guard{
		Authenticators: a.authenticators,
		Rules:          securityRules(s, managementBase),
		Logger:         a.Logger(securityLogger),
		Refused: func(status int, reason string) {
			refusals.WithLabelValues(strconv.Itoa(status), reason).Inc()
		},
	}
	return g.Check, nil
}

// healthAuthorized is when-authorized's test for health: an authenticated
// principal holding one of roles (as ROLE_<role> or as it is written), or
// any when roles are none, as Spring Boot decides.
func healthAuthorized(roles []string) func(context.Context) bool {
	return func(ctx context.Context) bool {
		p := security.PrincipalFrom(ctx)
		if p == nil {
			return false
		}
		return len(roles) == 0 || slices.ContainsFunc(roles, func(r string) bool { return p.Has(r) || p.Has("ROLE_"+r) })
	}
}

// principalAttr is the access log's principal: the name, for an
// authenticated request.
func principalAttr(ctx context.Context) (slog.Attr, bool) {
	p := security.PrincipalFrom(ctx)
	if p == nil {
		return slog.Attr{}, false
	}
	return slog.String("principal", p.Name), true
}

// healthDisplay is what health shows, when-authorized included.
func (a *App) healthDisplay() actuator.HealthDisplay {
	d := a.settings.management.actuator.Health
	if a.securityOn() {
		d.Authorized = healthAuthorized(a.settings.security.healthRoles)
	}
	return d
}

// openAPISecurity is what the OpenAPI document says of security: its
// schemes, and which operations the rules leave open; nil when security
// is off.
func (a *App) openAPISecurity(managementBase string) *openapi.Security {
	if !a.securityOn() {
		return nil
	}
	rules := securityRules(a.settings.security, managementBase)
	return &openapi.Security{Basic: slices.Contains(a.schemes, BasicScheme), Bearer: slices.Contains(a.schemes, BearerScheme),
		Open: func(path string) bool { return rules.Decide(path, nil) == security.Allowed }}
}
