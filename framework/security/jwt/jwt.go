// Package jwt authenticates requests by an OAuth 2.0 bearer token that is
// a signed JWT, as a Spring Boot resource server does with
// spring.security.oauth2.resourceserver.jwt.* (app.… here). It is the one
// adapter for github.com/lestrrat-go/jwx/v3: nothing else in the module
// imports jwx.
//
// A request's token (RFC 6750: Authorization: Bearer <token>) is checked
// as Spring Security's default JwtDecoder checks one: the signature, by a
// key of the issuer's JWK set (or a configured RSA public key), with an
// algorithm of Options.JWSAlgorithms; exp and nbf, with 60 s of clock
// skew; iss when an issuer is configured; aud when audiences are. Its
// principal is then named by a claim (sub), and its authorities are the
// scopes of its scope or scp claim, each prefixed SCOPE_.
package jwt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	jwxjwt "github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/springport/greeter/framework/security"
)

// Options are the resource server's settings, with Spring Boot's meaning;
// the zero value of each is Spring's default. One key source is used: the
// JWK set at JWKSetURI; else the one IssuerURI's discovery document
// names; else the RSA key at PublicKeyLocation.
type Options struct {
	// JWKSetURI is where the issuer's public keys are published (a JWK
	// set, RFC 7517), over https:// or http://.
	JWKSetURI string
	// IssuerURI is the issuer's identifier: without JWKSetURI, its keys
	// are found through its discovery document (see discovery.go); with
	// or without, a token's iss must be it.
	IssuerURI string
	// PublicKeyLocation is a PEM file (file: prefix allowed) holding the
	// one RSA public key tokens are signed with, when neither URI is set.
	PublicKeyLocation string
	// Audiences, when set, are the aud values of which a token must
	// carry at least one.
	Audiences []string
	// JWSAlgorithms are the signature algorithms accepted (RS256 unset,
	// as Spring); with PublicKeyLocation, exactly one RSA algorithm.
	JWSAlgorithms []string
	// AuthoritiesClaimName is the claim the authorities come from; unset,
	// scope, else scp.
	AuthoritiesClaimName string
	// AuthoritiesClaimDelimiter splits a claim that is a string (a space
	// unset); a claim that is a list gives one authority per element.
	AuthoritiesClaimDelimiter string
	// AuthorityPrefix goes before each authority; nil is SCOPE_, and
	// a pointer to "" is no prefix at all, as Spring allows.
	AuthorityPrefix *string
	// PrincipalClaimName is the claim that names the principal; unset,
	// sub.
	PrincipalClaimName string

	// Client fetches the JWK set and the discovery document; unset, a
	// client with FetchTimeout.
	Client *http.Client
	// Now is the clock tokens are checked against; unset, time.Now.
	Now func() time.Time
	// Logger is told of the keys of a JWK set that are skipped, each
	// once; unset, slog.Default().
	Logger *slog.Logger
}

// Defaults, as Spring Security's and Nimbus's.
const (
	// clockSkew is how far exp and nbf may be off, as Spring's
	// JwtTimestampValidator allows.
	clockSkew = 60 * time.Second
	// FetchTimeout bounds each request for the JWK set or the discovery
	// document, so that a request holding a token never waits on a
	// stalled issuer longer than this.
	FetchTimeout = 5 * time.Second
	// maxDocumentSize bounds the JWK set and the discovery document
	// read: a set of a few keys is a few KiB.
	maxDocumentSize = 1 << 20
	// KeysLifetime is how long a fetched JWK set is used before it is
	// fetched again (Nimbus's cache time-to-live, which Spring uses).
	KeysLifetime = 5 * time.Minute
	// RefetchInterval bounds how often the JWK set is fetched: a token
	// whose kid is not in the set (a key the issuer just rotated in)
	// makes it fetched again at most once per interval (Nimbus's rate
	// limit), so that a flood of tokens with made-up kids cannot make
	// this service hammer the issuer.
	RefetchInterval = 30 * time.Second
)

// Authenticator authenticates requests by their bearer token. It is safe
// for concurrent use.
type Authenticator struct {
	keys       keySource
	issuer     string
	audiences  []string
	algorithms []string
	claim      string // "" : scope, else scp
	delimiter  string
	prefix     string
	principal  string
	now        func() time.Time
	verified   *verifiedTokens
}

var _ security.Authenticator = (*Authenticator)(nil)

// OptionError is an Option that cannot be used: a public key file that
// cannot be read, an issuer whose discovery document names another.
// Option is Spring's name of the setting (issuer-uri, say).
type OptionError struct {
	Option string
	Reason string
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Reason }

// New returns an authenticator for opts; its errors are *OptionError. It
// reads the public key file, or (with IssuerURI alone) looks up the
// issuer's discovery document, and fetches the JWK set, each within
// FetchTimeout and ctx: a set with no usable key is an *OptionError. An
// issuer that cannot be reached now (a refused connection, a timeout, a
// 5xx) is looked up again when the first token comes, rather than stop
// start-up, as Spring resolves it lazily.
func New(ctx context.Context, opts Options) (*Authenticator, error) {
	a := &Authenticator{
		issuer:     opts.IssuerURI,
		audiences:  opts.Audiences,
		algorithms: opts.JWSAlgorithms,
		claim:      opts.AuthoritiesClaimName,
		delimiter:  opts.AuthoritiesClaimDelimiter,
		prefix:     "SCOPE_",
		principal:  opts.PrincipalClaimName,
		now:        opts.Now,
		verified:   newVerifiedTokens(),
	}
	if len(a.algorithms) == 0 {
		a.algorithms = []string{"RS256"}
	}
	for _, alg := range a.algorithms {
		if !IsSignatureAlgorithm(alg) {
			return nil, &OptionError{"jws-algorithms", fmt.Sprintf("%q is not one of %s", alg, SignatureAlgorithms)}
		}
	}
	if a.delimiter == "" {
		a.delimiter = " "
	}
	if opts.AuthorityPrefix != nil {
		a.prefix = *opts.AuthorityPrefix
	}
	if a.principal == "" {
		a.principal = "sub"
	}
	if a.now == nil {
		a.now = time.Now
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	client := opts.Client
	if client == nil {
		client = &http.Client{Timeout: FetchTimeout}
	}
	switch {
	case opts.JWKSetURI != "":
		keys := newRemoteKeys(client, a.now, logger, func(context.Context) (string, error) { return opts.JWKSetURI, nil })
		if err := keys.prime(ctx); err != nil {
			return nil, &OptionError{"jwk-set-uri", err.Error()}
		}
		a.keys = keys
	case opts.IssuerURI != "":
		d := &discovery{client: client, issuer: opts.IssuerURI}
		ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
		defer cancel()
		if err := d.resolve(ctx); err != nil && !errors.Is(err, errIssuerUnreachable) {
			return nil, &OptionError{"issuer-uri", err.Error()}
		}
		keys := newRemoteKeys(client, a.now, logger, d.jwkSetURI)
		if err := keys.prime(ctx); err != nil {
			return nil, &OptionError{"issuer-uri", err.Error()}
		}
		a.keys = keys
	case opts.PublicKeyLocation != "":
		// As Spring Boot, the key fixes the algorithm: exactly one, RSA.
		if len(a.algorithms) != 1 || !isRSA(a.algorithms[0]) {
			return nil, &OptionError{"jws-algorithms", "want exactly one RSA algorithm (RS256, say) with public-key-location, an RSA public key"}
		}
		k, err := readPublicKey(opts.PublicKeyLocation, a.algorithms[0])
		if err != nil {
			return nil, &OptionError{"public-key-location", err.Error()}
		}
		a.keys = k
	default:
		return nil, &OptionError{"jwk-set-uri", "no key source: set jwk-set-uri, issuer-uri or public-key-location"}
	}
	return a, nil
}

// Challenge is the WWW-Authenticate header of a 401 to r, which carries
// no credentials, as Spring Security 7's BearerTokenAuthenticationEntryPoint
// writes it: the scheme and where the protected resource metadata is
// (RFC 9728; see MetadataRoutes, which the starter serves).
func (a *Authenticator) Challenge(r *http.Request) string {
	return "Bearer " + resourceMetadataParam(r)
}

// DeniedChallenge is the WWW-Authenticate header of a 403 to a request
// whose token is valid but lacks the authority the path needs: RFC 6750's
// insufficient_scope, as Spring's BearerTokenAccessDeniedHandler writes it
// (without resource_metadata, which Spring 7 adds to 401s only).
func (a *Authenticator) DeniedChallenge(*http.Request) string { return insufficientScope }

const insufficientScope = `Bearer error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", error_uri="` + errorURI + `"`

// errorURI is the error_uri Spring's challenges name.
const errorURI = "https://tools.ietf.org/html/rfc6750#section-3.1"

var _ security.DeniedChallenger = (*Authenticator)(nil)

// Authenticate returns the principal of r's bearer token: (nil, nil)
// without one; a *security.Failure when it is malformed, badly signed,
// expired or not for this service; another error when the keys to check
// it could not be had (the issuer is unreachable), which is the server's
// trouble, not the client's, as Spring answers it with a 500. A token
// verified before is not checked again while it is good (see
// verified.go).
func (a *Authenticator) Authenticate(r *http.Request) (*security.Principal, error) {
	token, found, spaced := bearerToken(r)
	if !found {
		return nil, nil
	}
	ctx := r.Context()
	var key tokenKey
	if spaced {
		// Only a b64token that was verified is remembered: the check of
		// its form comes after, for a token that is not.
		key = keyOf(token)
		if p := a.verified.principal(ctx, key, a.now(), a.keys); p != nil {
			return p, nil
		}
	}
	if !spaced || !isB64Token(token) {
		return nil, invalid(r, "Bearer token is malformed")
	}
	tok, kid, keys, err := a.verify(ctx, token)
	if reason, refused := errors.AsType[verbatimError](err); refused {
		return nil, invalid(r, string(reason))
	}
	if reason, refused := errors.AsType[reasonError](err); refused {
		return nil, invalid(r, "An error occurred while attempting to decode the Jwt: "+string(reason))
	}
	if err != nil {
		return nil, err
	}
	p := &security.Principal{Name: a.name(tok), Authorities: a.authorities(tok)}
	now := a.now()
	until := now.Add(unexpiringFor)
	if exp, ok := tok.Expiration(); ok {
		// As jwx's check of exp: good while now, in whole seconds, is
		// before exp plus the skew.
		until = exp.Truncate(time.Second).Add(clockSkew)
	}
	a.verified.add(key, kid, keys, p, until, now)
	return p, nil
}

// bearerToken finds the token of r's Authorization header, as Spring's
// DefaultBearerTokenResolver does: found when the header's scheme is
// Bearer (in any case), spaced when a space follows the scheme; the
// token must then have RFC 6750's b64token form (isB64Token).
func bearerToken(r *http.Request) (token string, found, spaced bool) {
	h := security.Authorization(r)
	if len(h) < len("bearer") || !strings.EqualFold(h[:len("bearer")], "bearer") {
		return "", false, false
	}
	token, spaced = strings.CutPrefix(h[len("bearer"):], " ")
	return token, true, spaced
}

// isB64Token reports whether s is RFC 6750's b64token: one or more of
// letters, digits and -._~+/, then any number of =.
func isB64Token(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", c) >= 0) {
			return false
		}
	}
	return true
}

// invalid is the failure of a token that r gave and that cannot be used,
// with the challenge Spring Security 7's BearerTokenAuthenticationEntryPoint
// writes: RFC 6750's invalid_token, then where the protected resource
// metadata is. The description is Spring's, and says why without quoting
// the token or anything from it, which is the caller's input.
func invalid(r *http.Request, reason string) *security.Failure {
	return &security.Failure{
		Challenge: `Bearer error="invalid_token", error_description="` + reason + `", error_uri="` + errorURI + `", ` + resourceMetadataParam(r),
		Reason:    reason,
	}
}

// decodeFailure is why a token could not be decoded or checked, in words
// of Spring's NimbusJwtDecoder after its "An error occurred while
// attempting to decode the Jwt: ", which Authenticate puts before them.
func decodeFailure(reason string) reasonError { return reasonError(reason) }

// verify checks token's signature and claims, and returns it parsed, with
// its kid and the keys it may have been verified by (one, unless it names
// no kid and several keys fit).
func (a *Authenticator) verify(ctx context.Context, token string) (jwxjwt.Token, string, []*publicKey, error) {
	// A JWS in compact form has three parts; a JWE (five) is refused
	// here, as Spring's default decoder refuses encrypted tokens.
	if strings.Count(token, ".") != 2 {
		return nil, "", nil, decodeFailure(fivePartRefusal(token))
	}
	if reason := headerRefusal(token); reason != "" {
		return nil, "", nil, decodeFailure(reason)
	}
	p := &keyPicker{a: a, ctx: ctx}
	tok, err := jwxjwt.ParseString(token,
		jwxjwt.WithKeyProvider(p),
		jwxjwt.WithValidate(true),
		jwxjwt.WithResetValidators(true),
		jwxjwt.WithValidator(jwxjwt.IsExpirationValid()),
		jwxjwt.WithValidator(jwxjwt.IsNbfValid()),
		jwxjwt.WithValidator(jwxjwt.ValidatorFunc(a.checkClaims)),
		jwxjwt.WithAcceptableSkew(clockSkew),
		jwxjwt.WithClock(jwxjwt.ClockFunc(a.now)),
	)
	if err == nil {
		return tok, p.kid, p.picked, nil
	}
	// What went wrong, in words of ours: jwx's own messages may quote
	// the token's header (its kid), which is the caller's input.
	var reason reasonError
	if p.err != nil {
		return nil, "", nil, p.err
	}
	if refusal := refusedBeforeKeys(token); refusal != nil {
		return nil, "", nil, refusal
	}
	switch {
	case p.reason != "":
		return nil, "", nil, decodeFailure(p.reason)
	case errors.As(err, &reason):
		return nil, "", nil, decodeFailure(string(reason))
	case errors.Is(err, jwxjwt.TokenExpiredError()):
		return nil, "", nil, decodeFailure("Jwt expired" + claimTime(token, jwxjwt.ExpirationKey))
	case errors.Is(err, jwxjwt.TokenNotYetValidError()):
		return nil, "", nil, decodeFailure("Jwt used before" + claimTime(token, jwxjwt.NotBeforeKey))
	case len(p.picked) > 0:
		return nil, "", nil, decodeFailure("Signed JWT rejected: Invalid signature")
	}
	return nil, "", nil, decodeFailure("Malformed token")
}

// claimTime is " at" and the token's time claim (exp or nbf) as Spring's
// JwtTimestampValidator writes it ("Jwt expired at 2026-11-29T10:52:15Z",
// Java's Instant), read once the signature was found good, so the time
// is the issuer's; the token is only read again for it, never quoted.
func claimTime(token, claim string) string {
	tok, err := jwxjwt.ParseInsecure([]byte(token))
	if err != nil {
		return ""
	}
	var at time.Time
	if tok.Get(claim, &at) != nil || at.IsZero() {
		return ""
	}
	if claim == jwxjwt.ExpirationKey {
		return " at " + at.UTC().Format(time.RFC3339Nano)
	}
	return " " + at.UTC().Format(time.RFC3339Nano)
}

// reasonError is why a token was refused, in words that quote nothing of
// it.
type reasonError string

func (e reasonError) Error() string { return string(e) }
