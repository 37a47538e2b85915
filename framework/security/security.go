// Package security decides who may call what, as Spring Security does for
// a Spring Boot service: it authenticates a request from its credentials
// (HTTP Basic against configured users, or an OAuth 2.0 bearer token),
// then checks the rules that say which authorities each path needs.
//
// It is off unless a user or a token key source is configured; the
// settings and the rules are in framework/boot and docs/security.md.
// This file holds the types every part shares: the principal, the
// authenticators that find one, and the failure that becomes a 401.
package security

import (
	"context"
	"net/http"
	"slices"
)

// Principal is who made a request, once authenticated: a user's name or
// a token's subject, and what it may do. Authorities are Spring's
// strings: "ROLE_ACTUATOR" for a role, "SCOPE_read" for a token's scope.
type Principal struct {
	Name        string
	Authorities []string
}

// Has reports whether p holds authority. A nil Principal, an anonymous
// request, holds none.
func (p *Principal) Has(authority string) bool {
	return p != nil && slices.Contains(p.Authorities, authority)
}

// Authenticator finds the principal of a request from one kind of
// credentials. It returns (nil, nil) when the request carries none of its
// kind, so that another authenticator, or the rules for anonymous
// requests, decide; a *Failure when they are there and wrong.
type Authenticator interface {
	Authenticate(r *http.Request) (*Principal, error)
	// Challenge is the WWW-Authenticate header a 401 to r carries when
	// no credentials were given: `Basic realm="Realm", charset="UTF-8"`, or for a bearer
	// token `Bearer resource_metadata="<where the metadata is>"`, built
	// from r as RFC 9728 asks.
	Challenge(r *http.Request) string
}

// DeniedChallenger is an Authenticator that names the scheme on a 403 to
// a principal it authenticated, as RFC 6750 asks of bearer tokens (its
// insufficient_scope error, as Spring's BearerTokenAccessDeniedHandler
// writes it). A 403 to a principal that an authenticator without it
// found (a user over Basic) carries no WWW-Authenticate, as Spring's
// AccessDeniedHandlerImpl sends none.
type DeniedChallenger interface {
	// DeniedChallenge is the WWW-Authenticate header of the 403 to r.
	DeniedChallenge(r *http.Request) string
}

// Failure is credentials that were given and are wrong: a bad password,
// an expired or badly signed token. Challenge is the WWW-Authenticate
// header of the 401 (RFC 6750's `Bearer error="invalid_token",
// error_description="..."` for a token); Reason says why for the log and
// the problem document, and never quotes the credentials.
type Failure struct {
	Challenge string
	Reason    string
}

func (f *Failure) Error() string { return f.Reason }

// Authorization is r's Authorization header (its first), as
// r.Header.Get("Authorization") is, without canonicalizing the name again
// at every request: it is canonical, as net/http keeps a request's.
func Authorization(r *http.Request) string {
	if v := r.Header["Authorization"]; len(v) > 0 {
		return v[0]
	}
	return ""
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p, for handlers and the access log.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal ctx carries; nil for an anonymous
// request, or when security is off.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
