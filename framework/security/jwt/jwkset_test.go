package jwt_test

// JWK sets holding keys this package cannot use: each is skipped, named
// once in the log with why, and the others go on checking tokens (issue
// 37: one such key made every token 503).

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"

	"github.com/springport/greeter/framework/security"
	"github.com/springport/greeter/framework/security/jwt"
)

// rawSet serves a JWK set: the raw keys given (JSON, as written), then
// the public keys of the signing keys; it counts the fetches.
type rawSet struct {
	srv  *httptest.Server
	mu   sync.Mutex
	raw  []string
	keys []signingKey
	hits atomic.Int32
}

func newRawSet(t *testing.T) *rawSet {
	t.Helper()
	s := &rawSet{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		members := append([]string(nil), s.raw...)
		for _, k := range s.keys {
			members = append(members, publicJWK(k))
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"keys":[%s]}`, strings.Join(members, ","))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *rawSet) publish(raw []string, keys ...signingKey) {
	s.mu.Lock()
	s.raw, s.keys = raw, keys
	s.mu.Unlock()
}

// publicJWK is k's public key as a JWK, named by its kid.
func publicJWK(k signingKey) string {
	pub, err := jwk.Import(k.private.Public())
	if err != nil {
		panic(err)
	}
	if k.kid != "" {
		_ = pub.Set(jwk.KeyIDKey, k.kid)
	}
	b, err := json.Marshal(pub)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// logBuffer collects what a logger writes, safely from any goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// unusableKeys are keys of a JWK set that cannot be used, by kid, with
// what the log must say of each.
func unusableKeys(t *testing.T) (raw []string, reasons map[string]string) {
	t.Helper()
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	good, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	// A 512-bit modulus, which Go no longer generates: any odd number
	// of 512 bits parses.
	n512 := new(big.Int).Lsh(big.NewInt(1), 511)
	n512.Add(n512, big.NewInt(12345))
	rsaJWK := func(kid string, n *big.Int, extra string) string {
		return fmt.Sprintf(`{"kty":"RSA","kid":%q,"n":%q,"e":"AQAB"%s}`, kid, b64url(n.Bytes()), extra)
	}
	// A certificate of another key, in x5c.
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "other"}, NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &other.PublicKey, other)
	if err != nil {
		t.Fatal(err)
	}
	raw = []string{
		rsaJWK("rsa-1024", weak.N, ""),
		rsaJWK("rsa-512", n512, ""),
		`{"kty":"XYZ","kid":"unknown-kty","x":"AAAA"}`,
		`{"kty":"EC","crv":"secp256k1","kid":"secp256k1","x":"` + b64url(make([]byte, 32)) + `","y":"` + b64url(make([]byte, 32)) + `"}`,
		rsaJWK("bad-x5c", good.N, `,"x5c":["not base64!"]`),
		rsaJWK("foreign-x5c", good.N, `,"x5c":["`+base64.StdEncoding.EncodeToString(der)+`"]`),
		`{"kty":"RSA","kid":"malformed","n":"!!!","e":"AQAB"}`,
		`{"kty":"oct","kid":"secret","k":"AAAA"}`,
		`{"kty":"EC","crv":"P-256","kid":"off-curve","x":"` + b64url(make([]byte, 32)) + `","y":"` + b64url(make([]byte, 32)) + `"}`,
	}
	reasons = map[string]string{
		"rsa-1024":    "an RSA key of 1024 bits: want at least 2048",
		"rsa-512":     "an RSA key of 512 bits: want at least 2048",
		"unknown-kty": `kty "XYZ": want RSA or EC`,
		"secp256k1":   `curve "secp256k1": want P-256, P-384 or P-521`,
		"bad-x5c":     "x5c: certificate #1 is not base64",
		"foreign-x5c": "x5c: the first certificate's key is not the JWK's",
		"malformed":   "malformed",
		"secret":      "kty oct is a shared secret",
		"off-curve":   "malformed",
	}
	return raw, reasons
}

// checkSkipLog checks that log names each key of reasons once, with its
// reason, at WARN.
func checkSkipLog(t *testing.T, log string, reasons map[string]string) {
	t.Helper()
	for kid, reason := range reasons {
		re := regexp.MustCompile(`level=WARN msg="a key of the JWK set is skipped" jwk_set_uri=\S+ key="kid \\"` + regexp.QuoteMeta(kid) + `\\"" reason="?` + regexp.QuoteMeta(strings.ReplaceAll(reason, `"`, `\"`)))
		if n := len(re.FindAllString(log, -1)); n != 1 {
			t.Errorf("kid %s with %q is logged %d times; want once. The log:\n%s", kid, reason, n, log)
		}
	}
}

// TestJWKSetSkipsUnusableKeys: a JWK set that holds keys of every kind
// this package cannot use beside a good one. Each is skipped and named in
// the log once, not again when the set is fetched again; tokens signed by
// the good key are accepted, and a token naming a skipped key is the
// client's fault (401), not the server's.
func TestJWKSetSkipsUnusableKeys(t *testing.T) {
	c := newClock()
	good, es := rsaKey(t, "good"), ecKey(t, "es")
	set := newRawSet(t)
	raw, reasons := unusableKeys(t)
	set.publish(raw, good, es)
	var log logBuffer
	a := newAuthenticator(t, jwt.Options{JWKSetURI: set.srv.URL, JWSAlgorithms: []string{"RS256", "ES256", "ES384"}, Now: c.Now, Logger: log.logger()})

	mustAccept(t, a, bearer(good.sign(t, jwa.RS256(), claims(c))))
	mustAccept(t, a, bearer(es.sign(t, jwa.ES256(), claims(c))))
	checkSkipLog(t, log.String(), reasons)

	for kid := range reasons {
		forged := signingKey{kid: kid, private: good.private}
		mustRefuse(t, a, bearer(forged.sign(t, jwa.RS256(), claims(c))), "no matching key")
	}
	// A P-256 key does not check ES384, whatever the token says.
	es384 := signingKey{kid: "es", private: es.private}
	mustRefuse(t, a, bearer(es384.sign(t, jwa.ES384(), claims(c))), "no matching key")

	// The same set fetched again: nothing new to say.
	c.Advance(jwt.KeysLifetime)
	hits := set.hits.Load()
	mustAccept(t, a, bearer(good.sign(t, jwa.RS256(), claims(c))))
	if set.hits.Load() != hits+1 {
		t.Fatalf("the set was not fetched again after %s", jwt.KeysLifetime)
	}
	checkSkipLog(t, log.String(), reasons)
}

// TestJWKSetRotationPastABadKey: key rotation works while a bad key sits
// in the set, and the key rotated out stops working, its tokens
// verified before included.
func TestJWKSetRotationPastABadKey(t *testing.T) {
	c := newClock()
	key1, key2 := rsaKey(t, "key1"), rsaKey(t, "key2")
	set := newRawSet(t)
	raw, _ := unusableKeys(t)
	bad := raw[:1] // the 1024-bit key
	set.publish(bad, key1)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: set.srv.URL, Now: c.Now, Logger: slog.New(slog.DiscardHandler)})
	token1 := bearer(key1.sign(t, jwa.RS256(), claims(c, "exp", c.unix(time.Hour))))
	mustAccept(t, a, token1)

	set.publish(bad, key2)
	c.Advance(jwt.RefetchInterval)
	if p := mustAccept(t, a, bearer(key2.sign(t, jwa.RS256(), claims(c)))); p.Name != "alice" {
		t.Errorf("a token of the rotated key: %+v", p)
	}
	mustRefuse(t, a, token1, "no matching key")
}

// TestJWKSetWithoutUsableKey: a set none of whose keys can be used stops
// start-up, its error naming every key skipped and why; an empty set
// too. One that becomes so once serving is the server's trouble (a 503,
// as when the issuer is down), until the issuer publishes a usable key.
func TestJWKSetWithoutUsableKey(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	set := newRawSet(t)
	raw, reasons := unusableKeys(t)
	set.publish(raw)
	_, err := jwt.New(context.Background(), jwt.Options{JWKSetURI: set.srv.URL, Now: c.Now, Logger: slog.New(slog.DiscardHandler)})
	if bad, ok := errors.AsType[*jwt.OptionError](err); !ok || bad.Option != "jwk-set-uri" {
		t.Fatalf("New with a set of no usable key: %v; want an *OptionError of jwk-set-uri", err)
	}
	if !strings.Contains(err.Error(), "has no usable key") {
		t.Errorf("error %q does not say the set has no usable key", err)
	}
	for kid, reason := range reasons {
		if !strings.Contains(err.Error(), fmt.Sprintf("kid %q: %s", kid, reason)) {
			t.Errorf("error %q does not name kid %s and %q", err, kid, reason)
		}
	}
	set.publish(nil)
	if _, err := jwt.New(context.Background(), jwt.Options{JWKSetURI: set.srv.URL, Now: c.Now}); err == nil || !strings.Contains(err.Error(), "has no usable key: it holds no key") {
		t.Errorf("New with an empty set: got %v; want it said to hold no key", err)
	}

	// Serving: the set loses its usable key.
	set.publish(raw, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: set.srv.URL, Now: c.Now, Logger: slog.New(slog.DiscardHandler)})
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
	set.publish(raw)
	c.Advance(jwt.KeysLifetime) // the set fetched before is stale: fetched again
	_, err = a.Authenticate(bearer(k.sign(t, jwa.RS256(), claims(c))))
	if f := (*security.Failure)(nil); err == nil || errors.As(err, &f) {
		t.Fatalf("got %v; want an error that is not the client's", err)
	}
	for kid, reason := range reasons {
		if !strings.Contains(err.Error(), fmt.Sprintf("kid %q: %s", kid, reason)) {
			t.Errorf("error %q does not name kid %s and %q", err, kid, reason)
		}
	}

	// Once the issuer publishes a good key again, tokens are accepted.
	set.publish(raw, k)
	c.Advance(jwt.RefetchInterval)
	mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
}

// TestPublicKeyLocationRefusesAShortRSAKey: a public key under 2048 bits
// stops start-up, saying why (stricter than Spring, on purpose).
func TestPublicKeyLocationRefusesAShortRSAKey(t *testing.T) {
	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&weak.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "weak.pub")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = jwt.New(context.Background(), jwt.Options{PublicKeyLocation: path})
	var oe *jwt.OptionError
	if !errors.As(err, &oe) || oe.Option != "public-key-location" || !strings.Contains(oe.Reason, "the RSA key has 1024 bits: want at least 2048") {
		t.Errorf("a 1024-bit public key: got %v; want a public-key-location OptionError saying why", err)
	}
}

// TestJWKSetWithoutUsableKeyWithdrawsTheKeysBefore: an issuer that
// publishes a set with no usable key, emptied or holding only keys that
// cannot be used, no longer publishes the keys it had: once the set is
// fetched again, a token of one of them is not accepted, whether it was
// verified before or not, but is the server's trouble (a 503), as for a
// first set without a usable key. Such a set was taken for an outage,
// and the withdrawn keys went on opening requests for good.
func TestJWKSetWithoutUsableKeyWithdrawsTheKeysBefore(t *testing.T) {
	raw, _ := unusableKeys(t)
	for _, tc := range []struct {
		name string
		raw  []string
	}{{"emptied", nil}, {"only unusable keys", raw}} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			k := rsaKey(t, "k")
			set := newRawSet(t)
			set.publish(nil, k)
			a := newAuthenticator(t, jwt.Options{JWKSetURI: set.srv.URL, Now: c.Now, Logger: slog.New(slog.DiscardHandler)})
			remembered := k.sign(t, jwa.RS256(), claims(c, "exp", c.unix(time.Hour)))
			mustAccept(t, a, bearer(remembered))

			set.publish(tc.raw)
			c.Advance(jwt.KeysLifetime)
			for _, token := range []string{remembered, k.sign(t, jwa.RS256(), claims(c))} {
				p, err := a.Authenticate(bearer(token))
				if f := (*security.Failure)(nil); p != nil || err == nil || errors.As(err, &f) || !strings.Contains(err.Error(), "has no usable key") {
					t.Errorf("a token of a key withdrawn: got %v, %v; want an error that is not the client's, saying the set has no usable key", p, err)
				}
			}

			// Published again, the key opens requests again.
			set.publish(nil, k)
			c.Advance(jwt.RefetchInterval)
			mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c))))
		})
	}
}
