// Package securitybasic is the starter of a service's user over HTTP
// Basic, as Spring Boot's spring-boot-starter-security with its
// UserDetailsServiceAutoConfiguration: setting app.security.user.name or
// .password (spring.security.user.*) turns security on, with that user,
// whose password is stored {bcrypt}, {argon2}, {pbkdf2} or {noop}. The
// rules (app.security.permit-all, the management endpoints' roles) are
// the framework's, whichever starter authenticates; see docs/security.md.
//
// A service that does not name it does not link the password hashes
// (golang.org/x/crypto), and one given a user is refused, naming this
// starter: it would otherwise serve every request unauthenticated.
package securitybasic

import (
	"context"
	"strconv"
	"strings"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/security"
	"github.com/springport/greeter/framework/security/password"
)

// The user's settings, with Spring Boot's names (spring.security.user.*
// read as app.security.user.*).
const (
	userNameKey     = "app.security.user.name"
	userPasswordKey = "app.security.user.password"
	userRolesKey    = "app.security.user.roles"
)

// logger is the framework's logger <service>.security.
const logger = "security"

// Starter authenticates the user that app.security.user.* sets, over
// HTTP Basic.
var Starter = boot.Starter{
	Name: boot.SecurityBasicStarter,
	Bind: func(b *config.Binder) func(context.Context, *boot.App) error {
		user, noop := bindUser(b)
		if user == nil {
			return nil
		}
		// The warning names the password's setting as the file wrote it
		// (spring.security.user.password or app.security.user.password),
		// and where; never its value.
		stored := b.Value(userPasswordKey, "")
		return func(_ context.Context, a *boot.App) error {
			if noop {
				a.Logger(logger).Warn("the user's password is kept as it is ({noop}, or no {id}); store it encoded: {bcrypt}, {argon2} or {pbkdf2}",
					"key", stored.Key, "origin", config.OriginWithoutValue(stored.Origin), "user", user.Name)
			}
			a.Authenticate(boot.BasicScheme, security.NewBasic(*user))
			return nil
		}
	},
}

// bindUser reads the user, nil when none is set. A user is on when its
// name or its password is set. Spring Boot then generates a password when
// none is set and logs it; here a name without a password is refused,
// naming the setting, since a generated password in a log is a password
// in a log collector. A password without an {id} is read as {noop}, as
// Spring Boot's UserDetailsServiceAutoConfiguration reads it; noop says
// so, to be warned about.
func bindUser(b *config.Binder) (user *security.User, noop bool) {
	name := config.Bind(b, userNameKey, "user", config.String, "the user of HTTP Basic; setting it or the password turns security on (docs/security.md)")
	stored := config.Bind(b, userPasswordKey, "", config.String, "the user's password, {bcrypt}, {argon2}, {pbkdf2} or {noop} (no {id}: {noop}, warned about); required once security is on")
	roles := config.Bind(b, userRolesKey, nil, config.List, "the user's roles (ACTUATOR, say: app.security.actuator.roles and management.endpoint.health.roles name the roles they ask for)")
	if !b.IsSet(userNameKey) && !b.IsSet(userPasswordKey) {
		if b.IsSet(userRolesKey) {
			b.Refuse(userRolesKey, "roles without a user: set "+userPasswordKey+" (and "+userNameKey+") to turn security on")
		}
		return nil, false
	}
	if stored == "" {
		// Refused on the setting that is set (the name), as the password
		// has no value or origin to show when it is unset.
		key := userPasswordKey
		if !b.IsSet(userPasswordKey) {
			key = userNameKey
		}
		b.Refuse(key, "a user needs a password, and "+userPasswordKey+" is empty or unset: set it to {bcrypt}$2a$10$..., {argon2}..., {pbkdf2}... or {noop}<password>")
		return nil, false
	}
	if name == "" {
		b.Refuse(userNameKey, "want a user name, not an empty one")
		return nil, false
	}
	if !password.HasID(stored) {
		stored = "{noop}" + stored
	}
	hash, err := password.Parse(stored)
	if err != nil {
		b.Refuse(userPasswordKey, err.Error())
		return nil, false
	}
	authorities := make([]string, len(roles))
	for i, r := range roles {
		// As Spring's User.roles: ROLE_ is added, and may not be given.
		if strings.HasPrefix(r, "ROLE_") {
			b.Refuse(userRolesKey, "role "+strconv.Quote(r)+" starts with ROLE_, which is added to each role: write "+strings.TrimPrefix(r, "ROLE_"))
			return nil, false
		}
		authorities[i] = "ROLE_" + r
	}
	return &security.User{Name: name, Password: hash, Authorities: authorities}, hash.ID() == "noop"
}
