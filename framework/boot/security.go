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
	"github.com/springport/greeter/framework/security/jwt"
	"github.com/springport/greeter/framework/security/password"
)

// The settings of security (issue 25), with Spring Boot's names
// (spring.security.* read as app.security.*). Security is on as soon as a
// user is set, with no switch of its own; see docs/security.md.
const (
	userNameKey     = "app.security.user.name"
	userPasswordKey = "app.security.user.password"
	userRolesKey    = "app.security.user.roles"
	permitAllKey    = "app.security.permit-all"
	healthRolesKey  = "management.endpoint.health.roles"
)

// securitySettings are what the settings say of security; user is nil
// when it is off.
type securitySettings struct {
	user *security.User
	// jwt are the bearer-token settings (jwtsettings.go); jwtOn says a
	// key source is set. bearer is the authenticator made from them,
	// while the settings bind (build).
	jwt         jwt.Options
	jwtOn       bool
	bearer      security.Authenticator
	noop        bool     // the password is kept as it is: warned about at start-up
	permitAll   []string // path patterns anyone may call
	healthRoles []string // who sees health's when-authorized details; none: anyone authenticated
}

// on reports whether security is on: a user or a token key source is set.
func (s securitySettings) on() bool { return s.user != nil || s.bearer != nil }

// bindSecurity reads the user and the rules. A user is on when its name
// or its password is set. Spring Boot then generates a password when none
// is set and logs it; here a name without a password is refused, naming
// the setting, since a generated password in a log is a password in a log
// collector. A password without an {id} is read as {noop}, as Spring
// Boot's UserDetailsServiceAutoConfiguration reads it.
func bindSecurity(b *config.Binder, env *config.Environment) securitySettings {
	name := config.Bind(b, userNameKey, "user", config.String)
	stored := config.Bind(b, userPasswordKey, "", config.String)
	roles := config.Bind(b, userRolesKey, nil, config.List)
	s := securitySettings{
		permitAll:   config.Bind(b, permitAllKey, nil, pathPatterns),
		healthRoles: config.Bind(b, healthRolesKey, nil, config.List),
	}
	s.jwt, s.jwtOn = bindJWT(b)
	if !isSet(env, userNameKey) && !isSet(env, userPasswordKey) {
		if isSet(env, userRolesKey) {
			b.Refuse(userRolesKey, "roles without a user: set "+userPasswordKey+" (and "+userNameKey+") to turn security on")
		}
		return s
	}
	if stored == "" {
		// Refused on the setting that is set (the name), as the password
		// has no value or origin to show when it is unset.
		key := userPasswordKey
		if !isSet(env, userPasswordKey) {
			key = userNameKey
		}
		b.Refuse(key, "a user needs a password, and "+userPasswordKey+" is empty or unset: set it to {bcrypt}$2a$10$..., {argon2}..., {pbkdf2}... or {noop}<password>")
		return s
	}
	if name == "" {
		b.Refuse(userNameKey, "want a user name, not an empty one")
		return s
	}
	if !password.HasID(stored) {
		stored = "{noop}" + stored
	}
	hash, err := password.Parse(stored)
	if err != nil {
		b.Refuse(userPasswordKey, err.Error())
		return s
	}
	authorities := make([]string, len(roles))
	for i, r := range roles {
		// As Spring's User.roles: ROLE_ is added, and may not be given.
		if strings.HasPrefix(r, "ROLE_") {
			b.Refuse(userRolesKey, "role "+strconv.Quote(r)+" starts with ROLE_, which is added to each role: write "+strings.TrimPrefix(r, "ROLE_"))
			return s
		}
		authorities[i] = "ROLE_" + r
	}
	s.user = &security.User{Name: name, Password: hash, Authorities: authorities}
	s.noop = hash.ID() == "noop"
	return s
}

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
	if !s.on() {
		return nil, nil
	}
	logger := a.Logger(securityLogger)
	if s.user != nil && s.noop {
		logger.Warn("the password of "+userPasswordKey+" is kept as it is ({noop}, or no {id}); store it encoded: {bcrypt}, {argon2} or {pbkdf2}",
			"user", s.user.Name)
	}
	refusals := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "security_refusals_total",
		Help: "Requests refused by security, by status (401, 403) and reason"}, []string{"status", "reason"})
	if err := a.metrics.Registerer().Register(refusals); err != nil {
		return nil, err
	}
	var authenticators []security.Authenticator
	if s.user != nil {
		authenticators = append(authenticators, security.NewBasic(*s.user))
	}
	if s.bearer != nil {
		authenticators = append(authenticators, s.bearer)
	}
	g := &security.Guard{
		Authenticators: authenticators,
		Rules:          securityRules(s, managementBase),
		Logger:         logger,
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
func healthDisplay(s settings) actuator.HealthDisplay {
	d := s.management.health
	if s.security.on() {
		d.Authorized = healthAuthorized(s.security.healthRoles)
	}
	return d
}

// openAPISecurity is what the OpenAPI document says of security: its
// schemes, and which operations the rules leave open; nil when security
// is off.
func openAPISecurity(s securitySettings, managementBase string) *openapi.Security {
	if !s.on() {
		return nil
	}
	rules := securityRules(s, managementBase)
	return &openapi.Security{Basic: s.user != nil, Bearer: s.bearer != nil,
		Open: func(path string) bool { return rules.Decide(path, nil) == security.Allowed }}
}
