package boot_test

// Bearer tokens through run: an issuer the test serves (OpenID discovery
// and a JWK set), tokens the test signs, and what the service answers
// them, with Spring Boot's actuator rules.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/jwttest"
)

// testIssuer is an authorization server the test serves (jwttest).
type testIssuer = jwttest.Issuer

// newTestIssuer signs with an RSA key (RS256).
func newTestIssuer(t *testing.T) *testIssuer { return jwttest.NewRSA(t) }

func bearerHeader(token string) string { return "Authorization: Bearer " + token }

// issuerArg turns bearer tokens on with is as the issuer.
func issuerArg(is *testIssuer) string {
	return "--app.security.oauth2.resourceserver.jwt.issuer-uri=" + is.URL
}

// metadataURL is where the protected resource metadata of the service
// at root (scheme, host and context path) is, as a 401 names it.
func metadataURL(root string) string { return root + "/.well-known/oauth-protected-resource" }

// noTokenChallenge is Spring Security 7's challenge of a 401 without a
// token (BearerTokenAuthenticationEntryPoint): the scheme and RFC 9728's
// resource_metadata.
func noTokenChallenge(root string) string {
	return `Bearer resource_metadata="` + metadataURL(root) + `"`
}

// isInvalidTokenChallenge reports whether c is Spring Security 7's
// challenge of a 401 for a bad token: RFC 6750's invalid_token, its
// description and error_uri, then resource_metadata, last.
func isInvalidTokenChallenge(c, root string) bool {
	return strings.HasPrefix(c, `Bearer error="invalid_token", error_description="`) &&
		strings.HasSuffix(c, `", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1", resource_metadata="`+metadataURL(root)+`"`)
}

// insufficientScope is the challenge of a 403 to a valid token that lacks
// the authority, as Spring Security 6.5 and 7 write it
// (BearerTokenAccessDeniedHandler): no resource_metadata.
const insufficientScope = `Bearer error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1"`

// checkDeniedToken checks the 403 to a valid token that lacks the
// authority: the problem document as for any 403, with RFC 6750's
// insufficient_scope challenge.
func checkDeniedToken(t *testing.T, r response) {
	t.Helper()
	if r.status != http.StatusForbidden {
		t.Fatalf("%s: %d %s, want 403", r.request, r.status, r.body)
	}
	if p, err := boottest.CheckProblem(r.status, r.header, r.body); err != nil || p.Detail != "Access Denied" {
		t.Errorf("%s: %+v, %v; want the problem document of a 403, Access Denied", r.request, p, err)
	}
	if got := r.header.Values("WWW-Authenticate"); len(got) != 1 || got[0] != insufficientScope {
		t.Errorf("%s: WWW-Authenticate %q, want %q", r.request, got, insufficientScope)
	}
	checkSpringHeaders(t, r)
}

// protectedResource is the protected resource metadata (RFC 9728) as
// greeter writes it.
type protectedResource struct {
	Resource                              string   `json:"resource"`
	BearerMethodsSupported                []string `json:"bearer_methods_supported"`
	TLSClientCertificateBoundAccessTokens *bool    `json:"tls_client_certificate_bound_access_tokens"`
	AuthorizationServers                  []string `json:"authorization_servers"`
}

// checkMetadata checks the answer to GET of the protected resource
// metadata: 200, application/json, Spring's members with resource as
// wanted, and Spring Security's headers, as the document is served in
// the security filter chain.
func checkMetadata(t *testing.T, r response, resource string) {
	t.Helper()
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s: %d %q %s, want 200 application/json", r.request, r.status, r.header.Get("Content-Type"), r.body)
	}
	want := `{"resource":"` + resource + `","bearer_methods_supported":["header"],"tls_client_certificate_bound_access_tokens":false}`
	if r.body != want {
		t.Errorf("%s:\ngot  %s\nwant %s", r.request, r.body, want)
	}
	checkSpringHeaders(t, r)
}

// TestSecurityBearerTokens: with an issuer set, a request needs a valid
// token but on the open paths; a valid token opens the management
// endpoints, as Spring Boot's default asks only for an authenticated
// principal; a bad token is a 401 with
// RFC 6750's challenge that never quotes it; the principal is the
// token's subject in the access log.
func TestSecurityBearerTokens(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{exposeAll, "--server.access-log.enabled=true",
		"--app.security.oauth2.resourceserver.jwt.issuer-uri=" + is.URL,
		"--app.security.oauth2.resourceserver.jwt.audiences=greeter"}, nil)

	checkRefusedWith(t, send(t, nil, "GET", s.URL+"/store", ""), http.StatusUnauthorized, func(c string) bool { return c == noTokenChallenge(s.URL) })
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != http.StatusOK {
		t.Errorf("GET /actuator/health without a token: %d, want 200 (open)", r.status)
	}

	good := is.Token(t, map[string]any{"sub": "alice", "scope": "read write"})
	if r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(good)); r.status != http.StatusOK {
		t.Errorf("GET /store with a valid token: %d %s, want 200", r.status, r.body)
	} else {
		checkSpringHeaders(t, r)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/env", "", bearerHeader(good)); r.status != http.StatusOK {
		t.Errorf("GET /actuator/env with a valid token: %d %s, want 200", r.status, r.body)
	}
	s.WaitForLog(t, regexp.MustCompile(`msg=request method=GET path=/store route=/store status=200 .* principal=alice`))

	for name, token := range map[string]string{
		"expired":        is.Token(t, map[string]any{"sub": "alice", "exp": time.Now().Add(-time.Hour).Unix()}),
		"wrong audience": is.Token(t, map[string]any{"sub": "alice", "aud": "other"}),
		"wrong issuer":   is.Token(t, map[string]any{"sub": "alice", "iss": "https://elsewhere.example"}),
		"tampered":       good[:len(good)-4] + "AAAA",
	} {
		r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(token))
		checkRefusedWith(t, r, http.StatusUnauthorized, func(c string) bool { return isInvalidTokenChallenge(c, s.URL) })
		if strings.Contains(r.body, token) || strings.Contains(r.header.Get("WWW-Authenticate"), token) {
			t.Errorf("%s token: the answer quotes the token", name)
		}
	}
}

// TestSecurityBearerTokenRoles: with app.security.actuator.roles,
// authorities taken from a roles claim with the prefix ROLE_ open the
// management endpoints to a token that holds ACTUATOR, and not to one
// that holds only USER: its 403 carries RFC 6750's insufficient_scope, as
// Spring Security's BearerTokenAccessDeniedHandler writes it (issue 33).
// A user over Basic, refused the same way, gets no challenge, as from
// Spring's AccessDeniedHandlerImpl; a 401 without credentials names both
// schemes.
func TestSecurityBearerTokenRoles(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{exposeAll, issuerArg(is),
		"--app.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
		"--app.security.oauth2.resourceserver.jwt.authority-prefix=ROLE_",
		"--app.security.actuator.roles=ACTUATOR",
		"--app.security.user.name=basic-user", "--app.security.user.password=" + encoded(t, "bcrypt"), "--app.security.user.roles=USER"}, nil)
	ops := is.Token(t, map[string]any{"sub": "ops", "roles": []string{"ACTUATOR"}})
	if r := send(t, nil, "GET", s.URL+"/actuator/env", "", bearerHeader(ops)); r.status != http.StatusOK {
		t.Errorf("GET /actuator/env with ROLE_ACTUATOR: %d %s, want 200", r.status, r.body)
	}
	user := is.Token(t, map[string]any{"sub": "bob", "roles": []string{"USER"}})
	checkDeniedToken(t, send(t, nil, "GET", s.URL+"/actuator/env", "", bearerHeader(user)))
	checkDeniedToken(t, send(t, nil, "GET", s.URL+"/actuator", "", bearerHeader(user)))

	checkRefused(t, send(t, nil, "GET", s.URL+"/actuator/env", "", basic("basic-user", secret)), http.StatusForbidden)

	r := send(t, nil, "GET", s.URL+"/actuator/env", "")
	checkRefusedWith(t, r, http.StatusUnauthorized, func(string) bool { return true })
	if got, want := r.header.Values("WWW-Authenticate"), []string{`Basic realm="Realm", charset="UTF-8"`, noTokenChallenge(s.URL)}; !slices.Equal(got, want) {
		t.Errorf("GET /actuator/env without credentials: WWW-Authenticate %q, want %q", got, want)
	}
}

// TestSecurityBearerTokenMetadata: with bearer tokens on, Spring Security
// 7 serves the OAuth 2.0 protected resource metadata (RFC 9728) to
// anyone, with its security headers: the resource is the service's root
// as the client reached it, or the path after the well-known one. It is
// not part of the service's OpenAPI document.
func TestSecurityBearerTokenMetadata(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{issuerArg(is)}, nil)
	checkMetadata(t, send(t, nil, "GET", metadataURL(s.URL), ""), s.URL)
	checkMetadata(t, send(t, nil, "GET", metadataURL(s.URL), "", "Accept: application/xml"), s.URL)
	checkMetadata(t, send(t, nil, "GET", metadataURL(s.URL)+"/api/items", ""), s.URL+"/api/items")
	good := is.Token(t, map[string]any{"sub": "alice"})
	checkMetadata(t, send(t, nil, "GET", metadataURL(s.URL), "", bearerHeader(good)), s.URL)
	if r := send(t, nil, "HEAD", metadataURL(s.URL), ""); r.status != http.StatusOK {
		t.Errorf("HEAD of the metadata: %d, want 200", r.status)
	}
	if r := send(t, nil, "POST", metadataURL(s.URL), "{}", "Content-Type: application/json"); r.status != http.StatusMethodNotAllowed {
		t.Errorf("POST of the metadata: %d %s, want 405", r.status, r.body)
	}
	doc := decode[protectedResource](t, send(t, nil, "GET", metadataURL(s.URL), ""))
	if doc.TLSClientCertificateBoundAccessTokens == nil || *doc.TLSClientCertificateBoundAccessTokens || doc.AuthorizationServers != nil {
		t.Errorf("the metadata claims certificate-bound tokens, or names authorization servers, which Spring Boot does not: %+v", doc)
	}

	r := send(t, nil, "GET", s.URL+"/v3/api-docs", "", bearerHeader(good))
	if r.status != http.StatusOK || strings.Contains(r.body, "oauth-protected-resource") {
		t.Errorf("GET /v3/api-docs: %d; want 200, without the metadata's path:\n%.300s", r.status, r.body)
	}
}

// TestSecurityBearerTokenMetadataAbsent: without bearer tokens there is
// no protected resource metadata: a 404 with security off, and with a
// user over Basic only, a 404 to that user (a 401 to anonymous, as for any
// path that needs a user).
func TestSecurityBearerTokenMetadataAbsent(t *testing.T) {
	t.Parallel()
	off := start(t, nil, nil)
	if r := send(t, nil, "GET", metadataURL(off.URL), ""); r.status != http.StatusNotFound {
		t.Errorf("security off: GET of the metadata: %d %s, want 404", r.status, r.body)
	}
	s := start(t, []string{"--app.security.user.name=admin", "--app.security.user.password=" + encoded(t, "bcrypt")}, nil)
	if r := send(t, nil, "GET", metadataURL(s.URL), "", basic("admin", secret)); r.status != http.StatusNotFound {
		t.Errorf("Basic only: GET of the metadata as the user: %d %s, want 404", r.status, r.body)
	}
	checkRefused(t, send(t, nil, "GET", metadataURL(s.URL), ""), http.StatusUnauthorized)
}

// TestSecurityBearerTokenMetadataURLs: the resource_metadata of the 401s
// and the metadata's resource are built from the request, as the
// actuator's links are: under the context path, and from a trusted
// proxy's forwarded headers (X-Forwarded-Prefix in place of the context
// path); on a management port of its own, that port's.
func TestSecurityBearerTokenMetadataURLs(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{issuerArg(is), "--server.servlet.context-path=/ctx", "--server.forward-headers-strategy=framework"}, nil)
	expired := is.Token(t, map[string]any{"sub": "alice", "exp": time.Now().Add(-time.Hour).Unix()})
	for _, tc := range []struct {
		name    string
		headers []string
		root    string
	}{
		{"direct", nil, s.URL + "/ctx"},
		{"X-Forwarded-*", proxied, "https://example.com/ctx"},
		{"X-Forwarded-Prefix", append([]string{"X-Forwarded-Prefix: /greeter"}, proxied...), "https://example.com/greeter"},
		{"Forwarded", []string{"Forwarded: proto=https;host=api.example.com:8443"}, "https://api.example.com:8443/ctx"},
	} {
		get := func(url string, headers ...string) response {
			r := send(t, nil, "GET", url, "", append(headers, tc.headers...)...)
			if strings.HasPrefix(tc.root, "https:") {
				// Over HTTPS, as the proxy says: HSTS, which
				// checkSpringHeaders wants only over plain HTTP.
				if r.header.Get("Strict-Transport-Security") == "" {
					t.Errorf("%s (%s): no Strict-Transport-Security over forwarded HTTPS", r.request, tc.name)
				}
				r.header.Del("Strict-Transport-Security")
			}
			return r
		}
		checkRefusedWith(t, get(s.URL+"/ctx/store"), http.StatusUnauthorized, func(c string) bool { return c == noTokenChallenge(tc.root) })
		checkRefusedWith(t, get(s.URL+"/ctx/store", bearerHeader(expired)), http.StatusUnauthorized,
			func(c string) bool { return isInvalidTokenChallenge(c, tc.root) })
		checkMetadata(t, get(metadataURL(s.URL+"/ctx")), tc.root)
	}
	if r := send(t, nil, "GET", metadataURL(s.URL), ""); r.status != http.StatusNotFound {
		t.Errorf("GET of the metadata outside the context path: %d %s, want 404", r.status, r.body)
	}

	m := start(t, []string{issuerArg(is), exposeAll, "--management.server.port=0"}, nil)
	if m.ManagementURL == m.URL {
		t.Fatal("the management endpoints have no port of their own")
	}
	checkRefusedWith(t, send(t, nil, "GET", m.ManagementURL+"/actuator/env", ""), http.StatusUnauthorized,
		func(c string) bool { return c == noTokenChallenge(m.ManagementURL) })
	checkMetadata(t, send(t, nil, "GET", metadataURL(m.ManagementURL), ""), m.ManagementURL)
	checkMetadata(t, send(t, nil, "GET", metadataURL(m.URL), ""), m.URL)
}

// TestSecurityBearerTokenES256: an issuer that signs with an EC key, and
// jws-algorithms that says so; an RS256 token of another issuer is
// refused.
func TestSecurityBearerTokenES256(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is := jwttest.Serve(t, key, jwa.ES256())
	s := start(t, []string{"--app.security.oauth2.resourceserver.jwt.issuer-uri=" + is.URL,
		"--app.security.oauth2.resourceserver.jwt.jws-algorithms=ES256"}, nil)
	if r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(is.Token(t, map[string]any{"sub": "carol"}))); r.status != http.StatusOK {
		t.Errorf("GET /store with an ES256 token: %d %s, want 200", r.status, r.body)
	}
	other := newTestIssuer(t)
	forged := other.Token(t, map[string]any{"sub": "carol", "iss": is.URL})
	checkRefusedWith(t, send(t, nil, "GET", s.URL+"/store", "", bearerHeader(forged)), http.StatusUnauthorized,
		func(c string) bool { return isInvalidTokenChallenge(c, s.URL) })
}
