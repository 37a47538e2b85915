// Package securityjwt is the starter of bearer-token authentication, as
// Spring Boot's OAuth 2.0 resource server (spring-boot-starter-oauth2-
// resource-server): setting a key source under
// app.security.oauth2.resourceserver.jwt.* (jwk-set-uri, issuer-uri or
// public-key-location) turns security on, and a request's JWT, checked
// with framework/security/jwt, authenticates it. The rules
// (app.security.permit-all, the management endpoints' roles) are the
// framework's, whichever starter authenticates; see docs/security.md.
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
	Help: help,
	Bind: func(b *config.Binder) func(context.Context, *boot.App) error {
		opts, on := bindJWT(b)
		if !on {
			return nil
		}
		return func(ctx context.Context, a *boot.App) error { return start(ctx, a, opts) }
	},
}

// start makes the authenticator, fetching the keys (or the issuer's
// discovery document) once, bounded by the fetch timeout: a key source
// that cannot be used (a public key file that cannot be read, an issuer
// whose discovery document names another) stops start-up as its setting,
// with its value and origin. jwt.New's errors are each a
// *jwt.OptionError.
func start(ctx context.Context, a *boot.App, opts jwt.Options) error {
	authn, err := jwt.New(ctx, opts)
	if bad, ok := errors.AsType[*jwt.OptionError](err); ok {
		return a.SettingError(jwtPrefix+bad.Option, bad.Reason)
	}
	if err != nil {
		return err
	}
	a.Authenticate(boot.BearerScheme, authn)
	return nil
}

// help says what each setting does, for --help and the configuration
// reference.
var help = map[string]string{
	"app.security.oauth2.resourceserver.jwt.jwk-set-uri":                 "the URL of the issuer's JWK set, the public keys tokens are signed with (http:// or https://); cached, fetched again after 5m, or for a kid it lacks at most once per 30s. Setting a key source turns bearer-token authentication on",
	"app.security.oauth2.resourceserver.jwt.issuer-uri":                  "the issuer's URL: a token's iss must be it; without jwk-set-uri, its keys are found through its discovery document (<issuer>/.well-known/openid-configuration, then RFC 8414's oauth-authorization-server)",
	"app.security.oauth2.resourceserver.jwt.public-key-location":         "a PEM file (file:path too) holding the RSA public key tokens are signed with, when neither jwk-set-uri nor issuer-uri is set",
	"app.security.oauth2.resourceserver.jwt.audiences":                   "a token's aud must hold one of these (none: aud is not checked)",
	"app.security.oauth2.resourceserver.jwt.jws-algorithms":              "the signature algorithms accepted: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512",
	"app.security.oauth2.resourceserver.jwt.authorities-claim-name":      "the claim a token's authorities come from (none: scope, else scp), a string split at the delimiter or a list",
	"app.security.oauth2.resourceserver.jwt.authorities-claim-delimiter": "what splits an authorities claim that is a string (none: a space)",
	"app.security.oauth2.resourceserver.jwt.authority-prefix":            "put before each of a token's authorities (read: SCOPE_read); empty for none",
	"app.security.oauth2.resourceserver.jwt.principal-claim-name":        "the claim that names a token's principal",
}
