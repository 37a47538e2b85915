package jwt_test

// The JWS crit header (RFC 7515 §4.1.11): this package understands no
// extension, so a token that marks one critical is refused (issue 37: it
// was ignored, and ["foo"], ["exp"] or [] were accepted).

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"testing"

	"github.com/lestrrat-go/jwx/v3/jwa"

	"github.com/springport/greeter/framework/security/jwt"
)

// signHeader returns a compact RS256 JWS of claims under header, written
// as given, signed by k: a header jwx would not write.
func signHeader(t *testing.T, k signingKey, header string, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	input := b64url([]byte(header)) + "." + b64url(payload)
	sum := sha256.Sum256([]byte(input))
	sig, err := rsa.SignPKCS1v15(rand.Reader, k.private.(*rsa.PrivateKey), crypto.SHA256, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + b64url(sig)
}

func TestCritHeaderIsRefused(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})

	// The signature is good: only the header is wrong.
	mustAccept(t, a, bearer(signHeader(t, k, `{"alg":"RS256","kid":"k"}`, claims(c))))
	mustAccept(t, a, bearer(signHeader(t, k, `{"alg":"RS256","kid":"k","b64":true}`, claims(c))))
	for _, tc := range []struct{ name, header, want string }{
		{"an extension not understood", `{"alg":"RS256","kid":"k","crit":["foo"],"foo":1}`, "Signed JWT rejected: Invalid signature"},
		{"a claim", `{"alg":"RS256","kid":"k","crit":["exp"],"exp":1}`, "Signed JWT rejected: Invalid signature"},
		{"a registered header", `{"alg":"RS256","kid":"k","crit":["alg"]}`, "Signed JWT rejected: Invalid signature"},
		{"a header that is not there", `{"alg":"RS256","kid":"k","crit":["foo"]}`, "Signed JWT rejected: Invalid signature"},
		{"the empty list", `{"alg":"RS256","kid":"k","crit":[]}`, "Signed JWT rejected: Invalid signature"},
		{"b64, unencoded payload", `{"alg":"RS256","kid":"k","crit":["b64"],"b64":false}`, "Signed JWT rejected: Invalid signature"},
		{"b64 false without crit", `{"alg":"RS256","kid":"k","b64":false}`, "Signed JWT rejected: Invalid signature"},
		{"crit spelled with an escape", `{"alg":"RS256","kid":"k","\u0063rit":["foo"],"foo":1}`, "Signed JWT rejected: Invalid signature"},
		{"not a list", `{"alg":"RS256","kid":"k","crit":"foo","foo":1}`, "Malformed token"},
		{"a list of numbers", `{"alg":"RS256","kid":"k","crit":[1]}`, "Malformed token"},
		{"null", `{"alg":"RS256","kid":"k","crit":null}`, "Malformed token"},
		{"a list, then null", `{"alg":"RS256","kid":"k","crit":["foo"],"foo":1,"crit":null}`, "Malformed token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mustRefuse(t, a, bearer(signHeader(t, k, tc.header, claims(c))), tc.want)
		})
	}
	// A token refused is not remembered as good: the same one again is
	// refused again.
	crit := bearer(signHeader(t, k, `{"alg":"RS256","kid":"k","crit":["foo"],"foo":1}`, claims(c)))
	mustRefuse(t, a, crit, "Invalid signature")
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
	mustRefuse(t, a, crit, "Invalid signature")
}
