package boot_test

// Bearer tokens through run: an issuer the test serves (OpenID discovery
// and a JWK set), tokens the test signs, and what the service answers
// them, with Spring Boot's actuator rules.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// testIssuer is an authorization server with one RSA key: its discovery
// document names itself and its JWK set.
type testIssuer struct {
	url string
	key crypto.Signer
	alg jwa.SignatureAlgorithm
}

// newTestIssuer signs with an RSA key (RS256).
func newTestIssuer(t *testing.T) *testIssuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return serveIssuer(t, key, jwa.RS256())
}

// serveIssuer serves the discovery document and the JWK set of an
// issuer that signs with key and alg.
func serveIssuer(t *testing.T, key crypto.Signer, alg jwa.SignatureAlgorithm) *testIssuer {
	t.Helper()
	is := &testIssuer{key: key, alg: alg}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q}`, is.url, is.url+"/jwks")
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		pub, err := jwk.Import(key.Public())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = pub.Set(jwk.KeyIDKey, "k1")
		set := jwk.NewSet()
		_ = set.AddKey(pub)
		_ = json.NewEncoder(w).Encode(set)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	is.url = srv.URL
	return is
}

// token signs claims with the issuer's key; iss, aud and exp are the
// issuer's, "greeter" and an hour from now unless claims say otherwise.
func (is *testIssuer) token(t *testing.T, claims map[string]any) string {
	t.Helper()
	all := map[string]any{"iss": is.url, "aud": "greeter", "exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range claims {
		all[k] = v
	}
	payload, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	h := jws.NewHeaders()
	_ = h.Set(jws.KeyIDKey, "k1")
	out, err := jws.Sign(payload, jws.WithKey(is.alg, is.key, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func bearerHeader(token string) string { return "Authorization: Bearer " + token }

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
		"--app.security.oauth2.resourceserver.jwt.issuer-uri=" + is.url,
		"--app.security.oauth2.resourceserver.jwt.audiences=greeter"}, nil)

	checkRefusedWith(t, send(t, nil, "GET", s.URL+"/store", ""), http.StatusUnauthorized, func(c string) bool { return c == "Bearer" })
	if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != http.StatusOK {
		t.Errorf("GET /actuator/health without a token: %d, want 200 (open)", r.status)
	}

	good := is.token(t, map[string]any{"sub": "alice", "scope": "read write"})
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
		"expired":        is.token(t, map[string]any{"sub": "alice", "exp": time.Now().Add(-time.Hour).Unix()}),
		"wrong audience": is.token(t, map[string]any{"sub": "alice", "aud": "other"}),
		"wrong issuer":   is.token(t, map[string]any{"sub": "alice", "iss": "https://elsewhere.example"}),
		"tampered":       good[:len(good)-4] + "AAAA",
	} {
		r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(token))
		checkRefusedWith(t, r, http.StatusUnauthorized, func(c string) bool { return strings.HasPrefix(c, `Bearer error="invalid_token"`) })
		if strings.Contains(r.body, token) || strings.Contains(r.header.Get("WWW-Authenticate"), token) {
			t.Errorf("%s token: the answer quotes the token", name)
		}
	}
}

// TestSecurityBearerTokenRoles: with app.security.actuator.roles,
// authorities taken from a roles claim with the prefix ROLE_ open the
// management endpoints to a token that holds ACTUATOR, and not to one
// that holds only USER.
func TestSecurityBearerTokenRoles(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{exposeAll,
		"--app.security.oauth2.resourceserver.jwt.issuer-uri=" + is.url,
		"--app.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
		"--app.security.oauth2.resourceserver.jwt.authority-prefix=ROLE_",
		"--app.security.actuator.roles=ACTUATOR"}, nil)
	ops := is.token(t, map[string]any{"sub": "ops", "roles": []string{"ACTUATOR"}})
	if r := send(t, nil, "GET", s.URL+"/actuator/env", "", bearerHeader(ops)); r.status != http.StatusOK {
		t.Errorf("GET /actuator/env with ROLE_ACTUATOR: %d %s, want 200", r.status, r.body)
	}
	user := is.token(t, map[string]any{"sub": "bob", "roles": []string{"USER"}})
	checkRefused(t, send(t, nil, "GET", s.URL+"/actuator/env", "", bearerHeader(user)), http.StatusForbidden)
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
	is := serveIssuer(t, key, jwa.ES256())
	s := start(t, []string{"--app.security.oauth2.resourceserver.jwt.issuer-uri=" + is.url,
		"--app.security.oauth2.resourceserver.jwt.jws-algorithms=ES256"}, nil)
	if r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(is.token(t, map[string]any{"sub": "carol"}))); r.status != http.StatusOK {
		t.Errorf("GET /store with an ES256 token: %d %s, want 200", r.status, r.body)
	}
	other := newTestIssuer(t)
	forged := other.token(t, map[string]any{"sub": "carol", "iss": is.url})
	checkRefusedWith(t, send(t, nil, "GET", s.URL+"/store", "", bearerHeader(forged)), http.StatusUnauthorized,
		func(c string) bool { return strings.HasPrefix(c, `Bearer error="invalid_token"`) })
}
