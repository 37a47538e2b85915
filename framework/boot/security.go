package boot

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/security"
)

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

// OpenRoutes adds routes that a starter serves to anyone, as Spring
// Security answers some requests from its filter chain, ahead of
// authorization: the bearer-token starter's OAuth 2.0 protected resource
// metadata (RFC 9728). pattern is a Spring path pattern (see
// security.PathPattern; one that does not parse panics) that covers the
// routes' paths: security leaves the paths it matches open, before every
// other rule, as /actuator/health is. The routes are served on both
// ports (under the context path on server.port), listed by
// /actuator/mappings, and not described in the OpenAPI document, which
// is the service's.
func (a *App) OpenRoutes(pattern string, routes ...dispatch.Route) {
	a.mustBeStarting("OpenRoutes")
	security.MustPathPattern(pattern)
	a.openPatterns = append(a.openPatterns, pattern)
	a.openRoutes = append(a.openRoutes, routes...)
}

// securityOn reports whether security is on: an authenticator was added.
func (a *App) securityOn() bool { return len(a.authenticators) > 0 }

// securityRules are the rules the settings make, through the same API a
// service would use, as Spring Boot 3's ManagementWebSecurityAutoConfiguration
// makes them, after the paths the starters serve to anyone (open, see
// OpenRoutes): health (its groups and probes) is open; every other
// management endpoint, and their index, need an authenticated user, and
// one of app.security.actuator.roles when it is set; the paths of
// app.security.permit-all are open; everything else needs an
// authenticated user. A management endpoint is open when permit-all names
// it (/actuator/info, or /actuator/info/**), not when a broader pattern
// (/**) happens to match it.
func securityRules(s security.Settings, managementBase string, open []string) *security.Rules {
	base := strings.TrimSuffix(managementBase, "/")
	rules := new(security.Rules).
		Permit(open...).
		Permit(base+"/health", base+"/health/**")
	roles := s.ActuatorAuthorities()
	if base != "" {
		rules.Require(base, roles...)
	}
	for _, id := range actuator.IDs {
		path := base + "/" + id
		if id == actuator.Health {
			continue
		}
		if slices.Contains(s.PermitAll, path) || slices.Contains(s.PermitAll, path+"/**") {
			rules.Permit(path, path+"/**")
			continue
		}
		rules.Require(path, roles...).Require(path+"/**", roles...)
	}
	return rules.Permit(s.PermitAll...)
}

// securityGuard builds the guard of both ports, or nil when security is
// off: then the dispatcher is as it was. Refusals are counted in
// security_refusals_total{status,reason}.
func (a *App) securityGuard(s security.Settings, managementBase string) (dispatch.Guard, error) {
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
		Rules:          securityRules(s, managementBase, a.openPatterns),
		Logger:         a.Logger(securityLogger),
		Refused: func(status int, reason string) {
			refusals.WithLabelValues(strconv.Itoa(status), reason).Inc()
		},
	}
	return g.Check, nil
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
		d.Authorized = a.settings.security.HealthAuthorized
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
	rules := securityRules(a.settings.security, managementBase, a.openPatterns)
	return &openapi.Security{Basic: slices.Contains(a.schemes, BasicScheme), Bearer: slices.Contains(a.schemes, BearerScheme),
		Open: func(path string) bool { return rules.Decide(path, nil) == security.Allowed }}
}
