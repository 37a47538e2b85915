// Package jwttest serves a test an authorization server that issues
// bearer tokens: its OpenID discovery document and its JWK set over
// HTTP, and tokens it signs. Only tests import it.
package jwttest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// Issuer is an authorization server with one key, of id "k1". Its
// discovery document (/.well-known/openid-configuration) names itself
// and its JWK set (/jwks), as issuer-uri asks.
type Issuer struct {
	URL string // http://127.0.0.1:PORT, the tokens' iss
	key crypto.Signer
	alg jwa.SignatureAlgorithm
}

// NewRSA serves an issuer that signs with a new 2048-bit RSA key (RS256)
// until the test ends.
func NewRSA(t testing.TB) *Issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return Serve(t, key, jwa.RS256())
}

// Serve serves an issuer that signs with key and alg until the test ends.
func Serve(t testing.TB, key crypto.Signer, alg jwa.SignatureAlgorithm) *Issuer {
	t.Helper()
	return ServeWith(t, key, alg)
}

// ServeWith is Serve with other keys in the JWK set before the issuer's:
// each a JWK's JSON as written (a key the service cannot use, say).
func ServeWith(t testing.TB, key crypto.Signer, alg jwa.SignatureAlgorithm, raw ...string) *Issuer {
	t.Helper()
	pub, err := jwk.Import(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Set(jwk.KeyIDKey, "k1"); err != nil {
		t.Fatal(err)
	}
	is := &Issuer{key: key, alg: alg}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q,"subject_types_supported":["public"],"response_types_supported":["code"],"id_token_signing_alg_values_supported":[%q]}`,
			is.URL, is.URL+"/jwks", alg.String())
	})
	own, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	keys := strings.Join(append(append([]string(nil), raw...), string(own)), ",")
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"keys":[%s]}`, keys)
	})
	// The URL is set before the server starts, so that its handlers,
	// which read it, run after the write: a request may come from
	// another process, which the race detector cannot follow.
	srv := httptest.NewUnstartedServer(mux)
	is.URL = "http://" + srv.Listener.Addr().String()
	srv.Start()
	t.Cleanup(srv.Close)
	return is
}

// Token signs claims. Unless claims say otherwise, iss is the issuer's
// URL, aud "greeter", exp an hour from now and iat an hour before exp (a
// token that expired was issued before it expired: Spring refuses one
// that was not).
func (is *Issuer) Token(t testing.TB, claims map[string]any) string {
	t.Helper()
	return is.TokenWithHeaders(t, nil, claims)
}

// TokenWithHeaders is Token with these protected headers besides alg and
// kid (crit, say).
func (is *Issuer) TokenWithHeaders(t testing.TB, headers map[string]any, claims map[string]any) string {
	t.Helper()
	all := map[string]any{"iss": is.URL, "aud": "greeter", "exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range claims {
		all[k] = v
	}
	if _, ok := all["iat"]; !ok {
		if exp, ok := all["exp"].(int64); ok {
			all["iat"] = exp - int64(time.Hour/time.Second)
		}
	}
	payload, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	h := jws.NewHeaders()
	if err := h.Set(jws.KeyIDKey, "k1"); err != nil {
		t.Fatal(err)
	}
	for name, v := range headers {
		if err := h.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	out, err := jws.Sign(payload, jws.WithKey(is.alg, is.key, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
