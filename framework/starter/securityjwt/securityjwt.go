// Package securityjwt is the starter of bearer-token authentication, as
// Spring Boot's OAuth 2.0 resource server (spring-boot-starter-oauth2-
// resource-server): setting a key source under
// app.security.oauth2.resourceserver.jwt.* (jwk-set-uri, issuer-uri or
// public-key-location) turns security on, a request's JWT, checked with
// framework/security/jwt, authenticates it, and
// /.well-known/oauth-protected-resource (RFC 9728) tells clients how to
// send one. The rules (app.security.permit-all, the management
// endpoints' roles) are the framework's, whichever starter
// authenticates; see docs/security.md.
//
// A service that does not name it does not link the JWT library (jwx),
// and one given a key source is refused, naming this starter: it would
// otherwise serve every request unauthenticated.
package securityjwt

import (
	"context"
	"errors"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/security/jwt"
)

// Starter authenticates bearer tokens when a key source is set.
var Starter = boot.Starter{
	Name: boot.SecurityJWTStarter,
	Bind: func(b *config.Binder) func(context.Context, *boot.App) error {
		opts, on := bindJWT(b)
		if !on {
			return nil
		}
		return func(ctx context.Context, a *boot.App) error { return start(ctx, a, opts) }
	},
}

// logger is where the keys of a JWK set that are skipped are reported:
// security's, as the framework's refusals.
const logger = "security"

// start makes the authenticator, and serves the protected resource
// metadata its challenges name. It reads the public key file, or the
// issuer's discovery document and the JWK set (each bounded by the fetch
// timeout; an issuer that cannot be reached is tried again with the
// first token): a key source that cannot be used (a public key file that
// cannot be read or holds a short RSA key, an issuer whose discovery
// document names another, a JWK set with no usable key) stops start-up
// as its setting, with its value and origin. jwt.New's errors are each a
// *jwt.OptionError.
func start(ctx context.Context, a *boot.App, opts jwt.Options) error {
	opts.Logger = a.Logger(logger)
	authn, err := jwt.New(ctx, opts)
	if bad, ok := errors.AsType[*jwt.OptionError](err); ok {
		return a.SettingError(jwtPrefix+bad.Option, bad.Reason)
	}
	if err != nil {
		return err
	}
	a.Authenticate(boot.BearerScheme, authn)
	// The OAuth 2.0 protected resource metadata (RFC 9728) that every
	// Bearer challenge of a 401 names, served to anyone, as Spring
	// Security 7's resource server serves it.
	a.OpenRoutes(jwt.MetadataPattern, jwt.MetadataRoutes()...)
	return nil
}
