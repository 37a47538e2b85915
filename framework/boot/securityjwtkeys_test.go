package boot_test

// Bearer tokens through run, issue 37: an issuer whose JWK set holds a
// key the service cannot use beside its good one, and a token that marks
// a header critical.

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/lestrrat-go/jwx/v3/jwa"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/jwttest"
)

// TestSecurityBearerTokenSetWithAnUnusableKey: a 1024-bit RSA key in the
// issuer's JWK set is skipped, named in the log with why; the token of
// the good key beside it opens the service (it was a 503: the whole set
// was refused).
func TestSecurityBearerTokenSetWithAnUnusableKey(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	n := base64.RawURLEncoding.EncodeToString(weak.N.Bytes())
	is := jwttest.ServeWith(t, key, jwa.RS256(), fmt.Sprintf(`{"kty":"RSA","kid":"old-1024","n":%q,"e":"AQAB"}`, n))
	s := start(t, []string{issuerArg(is)}, nil)
	good := is.Token(t, map[string]any{"sub": "alice"})
	for range 2 {
		if r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(good)); r.status != http.StatusOK {
			t.Fatalf("GET /store with a token of the good key: %d %s, want 200", r.status, r.body)
		}
	}
	s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="a key of the JWK set is skipped" jwk_set_uri=\S+/jwks key="kid \\"old-1024\\"" reason="an RSA key of 1024 bits: want at least 2048"`))
}

// TestSecurityBearerTokenCritical: a token that marks a header critical
// (RFC 7515 §4.1.11), which the service does not understand, is a 401
// with RFC 6750's invalid_token, as Spring (Nimbus) refuses it.
func TestSecurityBearerTokenCritical(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	s := start(t, []string{issuerArg(is)}, nil)
	for _, crit := range [][]string{{"foo"}, {"exp"}, {}} {
		token := is.TokenWithHeaders(t, map[string]any{"crit": crit, "foo": "bar"}, map[string]any{"sub": "alice"})
		r := send(t, nil, "GET", s.URL+"/store", "", bearerHeader(token))
		checkRefusedWith(t, r, http.StatusUnauthorized, func(c string) bool {
			return isInvalidTokenChallenge(c, s.URL) && regexp.MustCompile(`error_description="An error occurred while attempting to decode the Jwt: Signed JWT rejected: Invalid signature"`).MatchString(c)
		})
	}
}

// TestSecurityBearerTokenSetWithoutUsableKeyStopsStartUp: a JWK set none
// of whose keys can be used, fetched at start-up, stops it: the report
// names the setting, its value and origin, and each key skipped and why.
func TestSecurityBearerTokenSetWithoutUsableKeyStopsStartUp(t *testing.T) {
	t.Parallel()
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	n := base64.RawURLEncoding.EncodeToString(weak.N.Bytes())
	set := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		fmt.Fprintf(w, `{"keys":[{"kty":"RSA","kid":"old-1024","n":%q,"e":"AQAB"},{"kty":"XYZ","kid":"odd"}]}`, n)
	}))
	t.Cleanup(set.Close)
	report, err := boottest.FailToStart(t, tester(), []string{"--server.port=0",
		"--app.security.oauth2.resourceserver.jwt.jwk-set-uri=" + set.URL + "/jwks"}, nil)
	for _, want := range []string{
		"app.security.oauth2.resourceserver.jwt.jwk-set-uri", set.URL + "/jwks", "command-line argument",
		"has no usable key", `kid "old-1024": an RSA key of 1024 bits: want at least 2048`, `kid "odd": kty "XYZ"`,
	} {
		if err == nil || !strings.Contains(report, want) {
			t.Errorf("the report does not say %q: %v\n%s", want, err, report)
		}
	}
}
