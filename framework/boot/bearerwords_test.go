package boot_test

// Spring Security's bearer answers through run (issue 38, point 5): the
// 403 of a token that lacks the authority, wherever security can refuse
// one, and each token error in Spring's words, in the challenge and in
// the problem document.

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"
)

// invalidTokenChallenge is Spring Security 7's challenge of a 401 for a
// bad token of the service at root, which says why in description.
func invalidTokenChallenge(description, root string) string {
	return `Bearer error="invalid_token", error_description="` + description +
		`", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1", resource_metadata="` + metadataURL(root) + `"`
}

// decodeError is what Spring's NimbusJwtDecoder puts before its reasons.
const decodeError = "An error occurred while attempting to decode the Jwt: "

// instant is t as Java's Instant.toString writes a time of whole seconds,
// as Spring's JwtTimestampValidator quotes exp and nbf.
func instant(unix int64) string { return time.Unix(unix, 0).UTC().Format("2006-01-02T15:04:05Z") }

// TestBearerTokenInsufficientScope: with app.security.actuator.roles=ACTUATOR,
// a valid token without ROLE_ACTUATOR gets, on every management endpoint
// and their index, on its first request and once remembered, by GET, HEAD
// or POST, and on a management port of its own, a 403 with the problem
// document and RFC 6750's insufficient_scope challenge, as Spring's
// BearerTokenAccessDeniedHandler writes it. The rules are the only place
// a 403 of security's comes from (the framework has no method security,
// and a service's routes ask only for an authenticated principal), and
// the rules' refusal always names the scheme of the principal's
// authenticator; a user over Basic gets none.
func TestBearerTokenInsufficientScope(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	args := []string{exposeAll, issuerArg(is),
		"--app.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
		"--app.security.oauth2.resourceserver.jwt.authority-prefix=ROLE_",
		"--app.security.actuator.roles=ACTUATOR",
		"--app.security.user.name=basic-user", "--app.security.user.password=" + encoded(t, "bcrypt"), "--app.security.user.roles=USER"}
	user := bearerHeader(is.Token(t, map[string]any{"sub": "bob", "roles": []string{"USER"}}))
	ops := bearerHeader(is.Token(t, map[string]any{"sub": "ops", "roles": []string{"ACTUATOR"}}))
	for port, extra := range map[string][]string{"server.port": nil, "management.server.port": {"--management.server.port=0"}} {
		s := start(t, append(args, extra...), nil)
		m := s.ManagementURL
		if port == "management.server.port" && m == s.URL {
			t.Fatal("the management endpoints have no port of their own")
		}
		for _, path := range []string{"/actuator", "/actuator/env", "/actuator/prometheus", "/actuator/metrics", "/actuator/loggers", "/actuator/beans", "/actuator/mappings", "/actuator/info"} {
			for range 2 { // the token checked, then remembered
				checkDeniedToken(t, send(t, nil, "GET", m+path, "", user))
			}
			if r := send(t, nil, "GET", m+path, "", ops); r.status != http.StatusOK {
				t.Errorf("GET %s with ROLE_ACTUATOR, on %s: %d %s, want 200", path, port, r.status, r.body)
			}
		}
		head := send(t, nil, "HEAD", m+"/actuator/env", "", user)
		if got := head.header.Values("WWW-Authenticate"); head.status != http.StatusForbidden || len(got) != 1 || got[0] != insufficientScope {
			t.Errorf("HEAD /actuator/env on %s: %d, WWW-Authenticate %q; want 403 and %q", port, head.status, got, insufficientScope)
		}
		checkDeniedToken(t, send(t, nil, "POST", m+"/actuator/loggers/ROOT", `{"configuredLevel":"DEBUG"}`, user, "Content-Type: application/json"))
		checkRefused(t, send(t, nil, "GET", m+"/actuator/env", "", basic("basic-user", secret)), http.StatusForbidden)
	}
}

// TestBearerTokenErrorWords: each refusal of a token says why in Spring
// Security 7's words, in the challenge's error_description and in the
// problem document's detail alike: NimbusJwtDecoder's and its validators'
// (JwtTimestampValidator with Instant's format, JwtIssuerValidator, the
// audience's JwtClaimValidator), DefaultBearerTokenResolver's. A request
// without a token gets the challenge without an error. A token in the
// query (access_token) is not read, as Spring's resolver reads none by
// default: alone it is no token, and beside the header's it is ignored
// rather than "Found multiple bearer tokens in the request", which
// Spring says only once the query is allowed.
func TestBearerTokenErrorWords(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{issuerArg(is), "--app.security.oauth2.resourceserver.jwt.audiences=greeter"}, nil)
	good := is.Token(t, map[string]any{"sub": "alice"})
	header, payload, signature := splitToken(t, good)
	exp := time.Now().Add(-time.Hour).Unix()
	nbf := time.Now().Add(time.Hour).Unix()
	b64 := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

	for _, tc := range []struct{ name, authorization, description string }{
		{"expired", "Bearer " + is.Token(t, map[string]any{"sub": "alice", "exp": exp}), decodeError + "Jwt expired at " + instant(exp)},
		{"not yet valid", "Bearer " + is.Token(t, map[string]any{"sub": "alice", "nbf": nbf}), decodeError + "Jwt used before " + instant(nbf)},
		{"expired and of another issuer", "Bearer " + is.Token(t, map[string]any{"sub": "alice", "exp": exp, "iss": "https://elsewhere.example"}), decodeError + "Jwt expired at " + instant(exp)},
		{"another issuer", "Bearer " + is.Token(t, map[string]any{"sub": "alice", "iss": "https://elsewhere.example"}), decodeError + "The iss claim is not valid"},
		{"another audience", "Bearer " + is.Token(t, map[string]any{"sub": "alice", "aud": "other"}), decodeError + "The aud claim is not valid"},
		{"not a JWT", "Bearer abc", decodeError + "Malformed token"},
		{"a header that is not JSON", "Bearer " + b64("abc") + "." + payload + "." + signature, decodeError + "Malformed token"},
		{"a payload that is not JSON", "Bearer " + header + "." + b64("not json") + "." + signature, decodeError + "Malformed payload"},
		{"exp not a number", "Bearer " + is.Token(t, map[string]any{"sub": "alice", "exp": "tomorrow"}), decodeError + "Malformed payload"},
		{"bad signature", "Bearer " + header + "." + b64(`{"sub":"mallory","aud":"greeter","iss":"`+is.URL+`"}`) + "." + signature, decodeError + "Signed JWT rejected: Invalid signature"},
		{"an algorithm not accepted", "Bearer " + b64(`{"alg":"RS384","kid":"k1"}`) + "." + payload + "." + signature, decodeError + "Signed JWT rejected: Another algorithm expected, or no matching key(s) found"},
		{"a key the issuer does not have", "Bearer " + b64(`{"alg":"RS256","kid":"k9"}`) + "." + payload + "." + signature, decodeError + "Signed JWT rejected: Another algorithm expected, or no matching key(s) found"},
		{"unsecured (alg none)", "Bearer " + b64(`{"alg":"none"}`) + "." + payload + ".", "Unsupported algorithm of none"},
		{"encrypted (JWE)", "Bearer " + b64(`{"alg":"RSA-OAEP-256","enc":"A256GCM"}`) + ".a2V5.aXY.Y2lwaGVy.dGFn", decodeError + "Encrypted JWT rejected: No JWE key selector is configured"},
		{"no token after the scheme", "Bearer", "Bearer token is malformed"},
		{"not a b64token", "Bearer a b", "Bearer token is malformed"},
		{"the scheme and the token unspaced", "Bearer" + good, "Bearer token is malformed"},
	} {
		r := send(t, nil, "GET", s.URL+"/store", "", "Authorization: "+tc.authorization)
		if r.status != http.StatusUnauthorized {
			t.Errorf("%s: %d %s, want 401", tc.name, r.status, r.body)
			continue
		}
		if got, want := r.header.Values("WWW-Authenticate"), invalidTokenChallenge(tc.description, s.URL); len(got) != 1 || got[0] != want {
			t.Errorf("%s: WWW-Authenticate\n got %q\nwant %q", tc.name, got, want)
		}
		if p := problemOf(t, r); p.Detail != tc.description {
			t.Errorf("%s: the problem's detail %q, want %q", tc.name, p.Detail, tc.description)
		}
		checkSpringHeaders(t, r)
	}

	for _, tc := range []struct {
		name    string
		query   string
		headers []string
		status  int
	}{
		{"no token", "", nil, http.StatusUnauthorized},
		{"a token in the query alone", "?access_token=" + good, nil, http.StatusUnauthorized},
		{"a token in the header and another in the query", "?access_token=abc", []string{bearerHeader(good)}, http.StatusOK},
		{"a token in the header and two in the query", "?access_token=abc&access_token=def", []string{bearerHeader(good)}, http.StatusOK},
	} {
		r := send(t, nil, "GET", s.URL+"/store"+tc.query, "", tc.headers...)
		if r.status != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, r.status, r.body, tc.status)
			continue
		}
		if tc.status == http.StatusUnauthorized {
			checkRefusedWith(t, r, http.StatusUnauthorized, func(c string) bool { return c == noTokenChallenge(s.URL) })
		}
	}
}

// splitToken is a compact JWS's three parts.
func splitToken(t *testing.T, token string) (header, payload, signature string) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("a token of %d parts", len(parts))
	}
	return parts[0], parts[1], parts[2]
}
