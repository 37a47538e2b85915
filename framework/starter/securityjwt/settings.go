package securityjwt

import (
	"errors"
	"net/url"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/security/jwt"
)

// jwtPrefix is where the resource server's settings live: Spring Boot's
// spring.security.oauth2.resourceserver.jwt.*, spring. renamed app.
const jwtPrefix = "app.security.oauth2.resourceserver.jwt."

// bindJWT reads the bearer-token settings, and says whether a key source
// (jwk-set-uri, issuer-uri or public-key-location) is set: what turns
// bearer-token authentication on, with no other switch, as in Spring
// Boot. jwt.New with the options gives the authenticator
// (start refuses its errors with their settings' origins).
func bindJWT(b *config.Binder) (jwt.Options, bool) {
	o := jwt.Options{
		JWKSetURI:                 config.Bind(b, jwtPrefix+"jwk-set-uri", "", webURL, "the URL of the issuer's JWK set, the public keys tokens are signed with (http:// or https://); cached, fetched again after 5m, or for a kid it lacks at most once per 30s. Setting a key source turns bearer-token authentication on"),
		IssuerURI:                 config.Bind(b, jwtPrefix+"issuer-uri", "", webURL, "the issuer's URL: a token's iss must be it; without jwk-set-uri, its keys are found through its discovery document (<issuer>/.well-known/openid-configuration, then RFC 8414's oauth-authorization-server)"),
		PublicKeyLocation:         config.Bind(b, jwtPrefix+"public-key-location", "", publicKeyLocation, "a PEM file (file:path too) holding the RSA public key tokens are signed with, when neither jwk-set-uri nor issuer-uri is set"),
		Audiences:                 config.Bind(b, jwtPrefix+"audiences", nil, config.List, "a token's aud must hold one of these (none: aud is not checked)"),
		JWSAlgorithms:             config.Bind(b, jwtPrefix+"jws-algorithms", []string{"RS256"}, jwsAlgorithms, "the signature algorithms accepted: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512"),
		AuthoritiesClaimName:      config.Bind(b, jwtPrefix+"authorities-claim-name", "", config.String, "the claim a token's authorities come from (none: scope, else scp), a string split at the delimiter or a list"),
		AuthoritiesClaimDelimiter: config.Bind(b, jwtPrefix+"authorities-claim-delimiter", "", config.String, "what splits an authorities claim that is a string (none: a space)"),
		AuthorityPrefix:           new(config.Bind(b, jwtPrefix+"authority-prefix", "SCOPE_", config.String, "put before each of a token's authorities (read: SCOPE_read); empty for none")),
		PrincipalClaimName:        config.Bind(b, jwtPrefix+"principal-claim-name", "sub", config.String, "the claim that names a token's principal"),
	}
	if o.PrincipalClaimName == "" {
		b.Refuse(jwtPrefix+"principal-claim-name", "want a claim's name, such as sub or preferred_username")
	}
	return o, o.JWKSetURI != "" || o.IssuerURI != "" || o.PublicKeyLocation != ""
}

// webURL takes an http:// or https:// URL with a host, as Spring accepts
// for the JWK set and the issuer (plain http too, for a test issuer or
// one behind a sidecar).
func webURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("want an http:// or https:// URL, such as https://idp.example.com/realms/main")
	}
	return s, nil
}

// publicKeyLocation takes a file's path, file: prefix allowed. Spring's
// classpath: resources have no counterpart in a Go binary.
func publicKeyLocation(s string) (string, error) {
	if strings.HasPrefix(s, "classpath:") {
		return "", errors.New("want a file's path (file: prefix allowed): a Go service has no classpath")
	}
	return s, nil
}

// jwsAlgorithms takes a list of Spring's SignatureAlgorithm names, in
// upper case as JWS writes them.
func jwsAlgorithms(s string) ([]string, error) {
	list, _ := config.List(s)
	if len(list) == 0 {
		return nil, errors.New("want at least one of " + jwt.SignatureAlgorithms)
	}
	for _, alg := range list {
		if !jwt.IsSignatureAlgorithm(alg) {
			return nil, errors.New("want each of " + jwt.SignatureAlgorithms + " (HS256 and none are not accepted: the keys are public)")
		}
	}
	return list, nil
}
