package jwt_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"

	"github.com/springport/greeter/framework/security"
	"github.com/springport/greeter/framework/security/jwt"
)

// signingKey is a key pair of the test issuer, named by its kid.
type signingKey struct {
	kid     string
	alg     jwa.SignatureAlgorithm
	private crypto.Signer
}

func rsaKey(t testing.TB, kid string) signingKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{kid: kid, alg: jwa.RS256(), private: k}
}

func ecKey(t testing.TB, kid string) signingKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{kid: kid, alg: jwa.ES256(), private: k}
}

// sign returns a compact JWS of claims, signed by k with alg; the header
// names k's kid unless it is empty.
func (k signingKey) sign(t testing.TB, alg jwa.SignatureAlgorithm, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return k.signRaw(t, alg, payload)
}

// signRaw returns a compact JWS of payload as it is, which may be no
// claims set at all.
func (k signingKey) signRaw(t testing.TB, alg jwa.SignatureAlgorithm, payload []byte) string {
	t.Helper()
	h := jws.NewHeaders()
	if k.kid != "" {
		if err := h.Set(jws.KeyIDKey, k.kid); err != nil {
			t.Fatal(err)
		}
	}
	out, err := jws.Sign(payload, jws.WithKey(alg, k.private, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// issuer is the test's authorization server: its discovery document and
// its JWK set, which counts the times it is fetched.
type issuer struct {
	srv        *httptest.Server
	mu         sync.Mutex
	keys       []signingKey
	jwksHits   atomic.Int32
	down       atomic.Bool // answers 503 to everything
	metaIssuer string      // the issuer the discovery document names; "" : the server's URL
}

func newIssuer(t testing.TB, keys ...signingKey) *issuer {
	t.Helper()
	is := &issuer{keys: keys}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		is.jwksHits.Add(1)
		set := jwk.NewSet()
		is.mu.Lock()
		for _, k := range is.keys {
			pub, err := jwk.Import(k.private.Public())
			if err != nil {
				panic(err)
			}
			_ = pub.Set(jwk.KeyIDKey, k.kid)
			_ = pub.Set(jwk.KeyUsageKey, "sig")
			_ = set.AddKey(pub)
		}
		is.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(set)
	})
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		name := is.metaIssuer
		if name == "" {
			name = is.srv.URL
		}
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q}`, name, is.srv.URL+"/jwks")
	})
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if is.down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(is.srv.Close)
	return is
}

func (is *issuer) publish(keys ...signingKey) {
	is.mu.Lock()
	is.keys = keys
	is.mu.Unlock()
}

// clock is a settable time, so that tests move past exp or the refetch
// interval without waiting.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) Now() time.Time             { return time.Unix(0, c.ns.Load()) }
func (c *clock) Advance(d time.Duration)    { c.ns.Add(int64(d)) }
func (c *clock) unix(d time.Duration) int64 { return c.Now().Add(d).Unix() }

func newAuthenticator(t testing.TB, opts jwt.Options) *jwt.Authenticator {
	t.Helper()
	a, err := jwt.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func request(header string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/actuator/env", nil)
	if header != "" {
		r.Header.Set("Authorization", header)
	}
	return r
}

func bearer(token string) *http.Request { return request("Bearer " + token) }

// claims are a valid token's claims at c's time, with extra ones added.
func claims(c *clock, extra ...any) map[string]any {
	m := map[string]any{"sub": "alice", "exp": c.unix(5 * time.Minute), "iat": c.unix(0)}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

// mustAccept authenticates r and returns its principal, failing the test
// on anything else.
func mustAccept(t *testing.T, a *jwt.Authenticator, r *http.Request) *security.Principal {
	t.Helper()
	p, err := a.Authenticate(r)
	if err != nil || p == nil {
		t.Fatalf("got %v, %v; want a principal", p, err)
	}
	return p
}

// mustRefuse authenticates r, wants a *security.Failure whose challenge is
// RFC 6750's invalid_token and mentions want, and checks that it quotes
// nothing of the token.
func mustRefuse(t *testing.T, a *jwt.Authenticator, r *http.Request, want string) {
	t.Helper()
	p, err := a.Authenticate(r)
	var f *security.Failure
	if !errors.As(err, &f) {
		t.Fatalf("got %v, %v; want a *security.Failure", p, err)
	}
	if !strings.HasPrefix(f.Challenge, `Bearer error="invalid_token", error_description="`) ||
		!strings.HasSuffix(f.Challenge, `", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1", resource_metadata="http://example.com/.well-known/oauth-protected-resource"`) {
		t.Errorf("challenge %q is not RFC 6750's invalid_token followed by RFC 9728's resource_metadata", f.Challenge)
	}
	if !strings.Contains(f.Challenge, want) || !strings.Contains(f.Reason, want) {
		t.Errorf("got challenge %q, reason %q; want them to say %q", f.Challenge, f.Reason, want)
	}
	token := strings.TrimSpace(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer"))
	for part := range strings.SplitSeq(token, ".") {
		if len(part) > 3 && strings.Contains(f.Challenge+f.Reason, part) {
			t.Errorf("the failure %q quotes the token", f.Challenge)
		}
	}
}

func TestAuthenticateValidTokens(t *testing.T) {
	c := newClock()
	rs, es := rsaKey(t, "rs"), ecKey(t, "es")
	is := newIssuer(t, rs, es)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", JWSAlgorithms: []string{"RS256", "ES256"}, Now: c.Now})

	p := mustAccept(t, a, bearer(rs.sign(t, jwa.RS256(), claims(c, "scope", "read  write"))))
	if p.Name != "alice" || !slices.Equal(p.Authorities, []string{"SCOPE_read", "SCOPE_write"}) {
		t.Errorf("RS256, scope as a string:\ngot  %+v\nwant alice [SCOPE_read SCOPE_write]", p)
	}
	p = mustAccept(t, a, bearer(es.sign(t, jwa.ES256(), claims(c, "scp", []string{"read", "admin"}))))
	if !slices.Equal(p.Authorities, []string{"SCOPE_read", "SCOPE_admin"}) {
		t.Errorf("ES256, scp as a list:\ngot  %v\nwant [SCOPE_read SCOPE_admin]", p.Authorities)
	}
	// scope wins over scp when both are there, as in Spring.
	p = mustAccept(t, a, bearer(rs.sign(t, jwa.RS256(), claims(c, "scope", "a", "scp", []string{"b"}))))
	if !slices.Equal(p.Authorities, []string{"SCOPE_a"}) {
		t.Errorf("scope and scp:\ngot  %v\nwant [SCOPE_a]", p.Authorities)
	}
	// The scheme's name is case-insensitive (RFC 7235).
	mustAccept(t, a, request("bearer "+rs.sign(t, jwa.RS256(), claims(c))))
	if got := is.jwksHits.Load(); got != 1 {
		t.Errorf("the JWK set was fetched %d times; want once, then cached", got)
	}
}

func TestAuthenticateCustomClaims(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{
		JWKSetURI:            is.srv.URL + "/jwks",
		AuthoritiesClaimName: "roles",
		AuthorityPrefix:      new("ROLE_"),
		PrincipalClaimName:   "preferred_username",
		Now:                  c.Now,
	})
	p := mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "roles", []any{"ADMIN", "USER"}, "scope", "ignored", "preferred_username", "bob"))))
	if p.Name != "bob" || !slices.Equal(p.Authorities, []string{"ROLE_ADMIN", "ROLE_USER"}) {
		t.Errorf("got %+v; want bob [ROLE_ADMIN ROLE_USER]", p)
	}

	noPrefix := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", AuthorityPrefix: new(""), AuthoritiesClaimDelimiter: ",", Now: c.Now})
	p = mustAccept(t, noPrefix, bearer(k.sign(t, jwa.RS256(), claims(c, "scope", "a,b"))))
	if !slices.Equal(p.Authorities, []string{"a", "b"}) {
		t.Errorf("no prefix, comma-delimited:\ngot  %v\nwant [a b]", p.Authorities)
	}
}

func TestAuthenticateWithoutBearerToken(t *testing.T) {
	is := newIssuer(t, rsaKey(t, "k"))
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks"})
	for _, header := range []string{"", "Basic dXNlcjpwYXNz", "Digest x"} {
		if p, err := a.Authenticate(request(header)); p != nil || err != nil {
			t.Errorf("%q: got %v, %v; want nil, nil", header, p, err)
		}
	}
	// RFC 9728: where the protected resource metadata is, from the
	// request's scheme and host, as Spring Security 7 names it.
	if got, want := a.Challenge(request("")), `Bearer resource_metadata="http://example.com/.well-known/oauth-protected-resource"`; got != want {
		t.Errorf("challenge %q; want %q", got, want)
	}
	overTLS := request("")
	overTLS.Host, overTLS.TLS = "api.example.com", &tls.ConnectionState{}
	if got, want := a.Challenge(overTLS), `Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"`; got != want {
		t.Errorf("over TLS: challenge %q; want %q", got, want)
	}
	// A host a proxy forwarded may hold a quote: it is escaped, never
	// let out of the quoted-string.
	quoting := request("")
	quoting.Host = `a"b\c`
	if got, want := a.Challenge(quoting), `Bearer resource_metadata="http://a\"b\\c/.well-known/oauth-protected-resource"`; got != want {
		t.Errorf("a host with a quote: challenge %q; want %q", got, want)
	}
	if got, want := a.DeniedChallenge(request("")), `Bearer error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1"`; got != want {
		t.Errorf("the 403's challenge %q; want %q", got, want)
	}
	// Fetched once at start-up (New), and not again for requests
	// without a token.
	if got := is.jwksHits.Load(); got != 1 {
		t.Errorf("the JWK set was fetched %d times: want once, at start-up, and not for requests with no token", got)
	}
}

func TestAuthenticateRefusals(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	stranger := rsaKey(t, "k") // the same kid, another key
	unknown := rsaKey(t, "unknown")
	noneHeader := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`))
	payload, _ := json.Marshal(claims(c))
	none := noneHeader + "." + base64.RawURLEncoding.EncodeToString(payload) + "."
	valid := k.sign(t, jwa.RS256(), claims(c))
	// An encrypted JWT's compact form: a JWE header, then four parts
	// this service has no key to read.
	jwe := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RSA-OAEP-256","enc":"A256GCM","kid":"k"}`)) + ".a2V5.aXY.Y2lwaGVy.dGFn"
	// An HMAC token keyed with the public key's bytes: the classic
	// confusion of a verifier that lets the token choose the algorithm.
	pub, _ := x509.MarshalPKIXPublicKey(k.private.Public())
	hmac, err := jws.Sign(payload, jws.WithKey(jwa.HS256(), pub))
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, header, want string
	}{
		{"no token", "Bearer", "Bearer token is malformed"},
		{"not a b64token", "Bearer a b", "Bearer token is malformed"},
		{"not a JWT", "Bearer abc", "Malformed token"},
		{"garbage", "Bearer YWJj.ZGVm.Z2hp", "Malformed token"},
		{"five parts, not a JWE", "Bearer a.b.c.d.e", "Malformed token"},
		{"encrypted", "Bearer " + jwe, "An error occurred while attempting to decode the Jwt: Encrypted JWT rejected: No JWE key selector is configured"},
		{"alg none", "Bearer " + none, "Unsupported algorithm of none"},
		{"alg none, signed", "Bearer " + none + "c2ln", "Malformed token"},
		{"payload not JSON", "Bearer " + k.signRaw(t, jwa.RS256(), []byte("not json")), "An error occurred while attempting to decode the Jwt: Malformed payload"},
		{"payload a JSON list", "Bearer " + k.signRaw(t, jwa.RS256(), []byte(`["sub"]`)), "Malformed payload"},
		{"exp not a number", "Bearer " + k.sign(t, jwa.RS256(), claims(c, "exp", "tomorrow")), "Malformed payload"},
		{"payload not JSON, signed by another key", "Bearer " + stranger.signRaw(t, jwa.RS256(), []byte("not json")), "Malformed payload"},
		{"expired", "Bearer " + k.sign(t, jwa.RS256(), claims(c, "exp", c.unix(-61*time.Second))), "Jwt expired at 20"},
		{"not yet valid", "Bearer " + k.sign(t, jwa.RS256(), claims(c, "nbf", c.unix(61*time.Second))), "Jwt used before"},
		{"alg not accepted", "Bearer " + k.sign(t, jwa.RS384(), claims(c)), "Another algorithm expected"},
		{"HS256 keyed with the public key", "Bearer " + string(hmac), "Another algorithm expected"},
		{"unknown kid", "Bearer " + unknown.sign(t, jwa.RS256(), claims(c)), "no matching key"},
		{"another key, same kid", "Bearer " + stranger.sign(t, jwa.RS256(), claims(c)), "Invalid signature"},
		{"payload changed", "Bearer " + tamper(valid, claims(c, "sub", "mallory")), "Invalid signature"},
	} {
		t.Run(tc.name, func(t *testing.T) { mustRefuse(t, a, request(tc.header), tc.want) })
	}

	// Within the clock skew, as Spring's 60 s.
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "exp", c.unix(-30*time.Second)))))
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "nbf", c.unix(30*time.Second)))))
}

// tamper returns token with its payload replaced by claims, its signature
// kept.
func tamper(token string, claims map[string]any) string {
	parts := strings.Split(token, ".")
	payload, _ := json.Marshal(claims)
	parts[1] = base64.RawURLEncoding.EncodeToString(payload)
	return strings.Join(parts, ".")
}

func TestAuthenticateAudiencesAndIssuer(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{IssuerURI: is.srv.URL, Audiences: []string{"greeter", "api"}, Now: c.Now})

	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "iss", is.srv.URL, "aud", "api"))))
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "iss", is.srv.URL, "aud", []string{"other", "greeter"}))))
	mustRefuse(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "iss", is.srv.URL, "aud", "other"))), "The aud claim is not valid")
	mustRefuse(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "iss", is.srv.URL))), "The aud claim is not valid")
	mustRefuse(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "iss", "https://evil.example", "aud", "api"))), "The iss claim is not valid")
	mustRefuse(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "aud", "api"))), "The iss claim is not valid")
}

func TestKeyRotationRefetchesAtABoundedRate(t *testing.T) {
	c := newClock()
	old, rotated := rsaKey(t, "old"), rsaKey(t, "new")
	is := newIssuer(t, old)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	mustAccept(t, a, bearer(old.sign(t, jwa.RS256(), claims(c))))

	// The issuer rotates its key in; a token signed with it just after
	// the first fetch waits for the refetch interval.
	is.publish(old, rotated)
	c.Advance(time.Second)
	mustRefuse(t, a, bearer(rotated.sign(t, jwa.RS256(), claims(c))), "no matching key")
	c.Advance(jwt.RefetchInterval)
	p := mustAccept(t, a, bearer(rotated.sign(t, jwa.RS256(), claims(c))))
	if p.Name != "alice" {
		t.Errorf("after the rotation: got %+v", p)
	}
	if got := is.jwksHits.Load(); got != 2 {
		t.Errorf("the JWK set was fetched %d times; want 2 (start, rotation)", got)
	}

	// A flood of tokens with made-up kids, concurrently: at most one
	// fetch per interval.
	hits := is.jwksHits.Load()
	flood := func() {
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 50 {
					forged := signingKey{kid: fmt.Sprintf("forged-%d-%d", w, i), private: old.private}
					_, _ = a.Authenticate(bearer(forged.sign(t, jwa.RS256(), claims(c))))
				}
			})
		}
		wg.Wait()
	}
	c.Advance(jwt.RefetchInterval)
	flood()
	if got := is.jwksHits.Load() - hits; got != 1 {
		t.Errorf("400 unknown kids in one interval fetched the JWK set %d times; want 1", got)
	}
	c.Advance(jwt.RefetchInterval)
	flood()
	if got := is.jwksHits.Load() - hits; got != 2 {
		t.Errorf("400 unknown kids in each of two intervals fetched the JWK set %d times; want 2", got)
	}
	// The known keys still work meanwhile.
	mustAccept(t, a, bearer(old.sign(t, jwa.RS256(), claims(c))))
}

func TestKeysExpireAndSurviveAnOutage(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))

	// Past their lifetime the keys are fetched again; while the issuer
	// is down, those fetched before go on being used.
	is.down.Store(true)
	c.Advance(jwt.KeysLifetime)
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
	is.down.Store(false)
	c.Advance(jwt.RefetchInterval)
	hits := is.jwksHits.Load()
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
	if got := is.jwksHits.Load(); got != hits+1 {
		t.Errorf("the JWK set was fetched %d times after the outage; want 1", got-hits)
	}
}

func TestUnreachableKeysAreNotTheClientsFault(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	is.down.Store(true)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	p, err := a.Authenticate(bearer(k.sign(t, jwa.RS256(), claims(c))))
	var f *security.Failure
	if err == nil || errors.As(err, &f) || p != nil {
		t.Fatalf("got %v, %v; want an error that is not a *security.Failure", p, err)
	}
	if !strings.Contains(err.Error(), "503") {
		t.Errorf("error %q does not say what the issuer answered", err)
	}
}

func TestOversizedJWKSetIsRefused(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"keys":[`)
		chunk := strings.Repeat(`{"kty":"oct","k":"AAAA"},`, 1000)
		for range 100 { // 2.5 MB
			fmt.Fprint(w, chunk)
		}
		fmt.Fprint(w, `{"kty":"oct","k":"AAAA"}]}`)
	}))
	t.Cleanup(srv.Close)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: srv.URL, Now: c.Now})
	_, err := a.Authenticate(bearer(k.sign(t, jwa.RS256(), claims(c))))
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("got %v; want the JWK set refused for its size", err)
	}
}

func TestIssuerDiscovery(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	var hits []string
	var mu sync.Mutex
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server/realms/main":
			fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q}`, srv.URL+"/realms/main", srv.URL+"/keys")
		case "/keys":
			pub, _ := jwk.Import(k.private.Public())
			_ = pub.Set(jwk.KeyIDKey, k.kid)
			set := jwk.NewSet()
			_ = set.AddKey(pub)
			_ = json.NewEncoder(w).Encode(set)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	a := newAuthenticator(t, jwt.Options{IssuerURI: srv.URL + "/realms/main", Now: c.Now})
	// Discovery, then the JWK set it names, fetched once at start-up.
	want := []string{"/realms/main/.well-known/openid-configuration", "/.well-known/openid-configuration/realms/main", "/.well-known/oauth-authorization-server/realms/main", "/keys"}
	if !slices.Equal(hits, want) {
		t.Errorf("discovery asked:\ngot  %v\nwant %v", hits, want)
	}
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "iss", srv.URL+"/realms/main"))))
}

func TestIssuerDiscoveryRefusals(t *testing.T) {
	is := newIssuer(t, rsaKey(t, "k"))
	is.metaIssuer = "https://other.example"
	_, err := jwt.New(context.Background(), jwt.Options{IssuerURI: is.srv.URL})
	var oe *jwt.OptionError
	if !errors.As(err, &oe) || oe.Option != "issuer-uri" || !strings.Contains(oe.Reason, "https://other.example") {
		t.Errorf("a discovery document naming another issuer: got %v; want an issuer-uri OptionError naming it", err)
	}
	_, err = jwt.New(context.Background(), jwt.Options{IssuerURI: is.srv.URL + "/nothing-here"})
	if !errors.As(err, &oe) || oe.Option != "issuer-uri" || !strings.Contains(oe.Reason, "no discovery document") {
		t.Errorf("no discovery document: got %v; want an issuer-uri OptionError", err)
	}
}

func TestIssuerUnreachableAtStartIsRetried(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	is.down.Store(true)
	a := newAuthenticator(t, jwt.Options{IssuerURI: is.srv.URL, Now: c.Now})
	token := k.sign(t, jwa.RS256(), claims(c, "iss", is.srv.URL))
	if _, err := a.Authenticate(bearer(token)); err == nil {
		t.Fatal("a token was accepted while the issuer was down")
	}
	is.down.Store(false)
	c.Advance(jwt.RefetchInterval)
	mustAccept(t, a, bearer(token))
}

func TestPublicKeyLocation(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "")
	der, err := x509.MarshalPKIXPublicKey(k.private.Public())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.pub")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newAuthenticator(t, jwt.Options{PublicKeyLocation: "file:" + path, Now: c.Now})
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
	mustRefuse(t, a, bearer(rsaKey(t, "").sign(t, jwa.RS256(), claims(c))), "Invalid signature")

	for _, tc := range []struct {
		name string
		opts jwt.Options
		want string
	}{
		{"missing file", jwt.Options{PublicKeyLocation: path + ".missing"}, "cannot read"},
		{"not a key", jwt.Options{PublicKeyLocation: "jwt_test.go"}, "want a PEM file"},
	} {
		_, err := jwt.New(context.Background(), tc.opts)
		var oe *jwt.OptionError
		if !errors.As(err, &oe) || oe.Option != "public-key-location" || !strings.Contains(oe.Reason, tc.want) {
			t.Errorf("%s: got %v; want a public-key-location OptionError saying %q", tc.name, err, tc.want)
		}
	}
	_, err = jwt.New(context.Background(), jwt.Options{PublicKeyLocation: path, JWSAlgorithms: []string{"ES256"}})
	var oe *jwt.OptionError
	if !errors.As(err, &oe) || oe.Option != "jws-algorithms" || !strings.Contains(oe.Reason, "exactly one RSA algorithm") {
		t.Errorf("a public key with ES256: got %v; want a jws-algorithms OptionError", err)
	}
}
