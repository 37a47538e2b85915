package jwt

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
)

// A JWK set is read key by key: a key that cannot be used is skipped, with
// its kid and why, and the others are kept, as Spring (Nimbus) skips keys
// it cannot use. One unreadable key (a short RSA key, a curve or type this
// package does not verify with, a bad x5c) must not make every token 503,
// which it did while the set was parsed whole: a set that rotates a good
// key in beside the bad one would then never be usable.

// minRSABits is the smallest RSA modulus a key may have. Spring accepts
// shorter ones; 1024-bit RSA is within reach of a well-funded attacker and
// NIST has disallowed it for signatures since 2013, so a key under 2048
// bits is skipped (a public-key-location holding one stops start-up).
const minRSABits = 2048

// skippedKey is a key of the set that is not used, and why, in words that
// name the key by its kid (or its place in the set, when it has none).
type skippedKey struct {
	kid    string // `kid "k1"` or `key #3 (no kid)`
	reason string
	quiet  bool // an encryption key: expected beside the signing keys, not logged
}

func (s skippedKey) String() string { return s.kid + ": " + s.reason }

// parseKeySet reads a JWK set (RFC 7517 §5): the keys a signature may be
// checked with, and those skipped. It fails only when body is not a JWK
// set at all.
func parseKeySet(body []byte) (keys []*publicKey, skipped []skippedKey, err error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, nil, fmt.Errorf("not JSON: %w", err)
	}
	if set.Keys == nil {
		return nil, nil, errors.New(`no "keys" member`)
	}
	for i, raw := range set.Keys {
		k, skip := parseSetKey(i, raw)
		if k == nil {
			skipped = append(skipped, skip)
			continue
		}
		keys = append(keys, k)
	}
	return keys, skipped, nil
}

// jwkMembers are the members of a JWK read before jwx parses it, so that a
// key jwx cannot parse is still named, and refused with a reason of ours.
type jwkMembers struct {
	Kid any `json:"kid"`
	Kty any `json:"kty"`
	Crv any `json:"crv"`
	Use any `json:"use"`
	N   any `json:"n"`
	X5c any `json:"x5c"`
}

// curves are the curves of the ES algorithms (RFC 7518 §3.4): those the
// keys of a set may have.
var curves = map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}

// parseSetKey reads the set's i-th key: the key, or nil and why not.
func parseSetKey(i int, raw json.RawMessage) (*publicKey, skippedKey) {
	var m jwkMembers
	if err := json.Unmarshal(raw, &m); err != nil {
		m = jwkMembers{} // a kid may still be had below; the key is refused by jwx
	}
	name := fmt.Sprintf("key #%d (no kid)", i+1)
	if kid, ok := m.Kid.(string); ok {
		name = fmt.Sprintf("kid %q", kid)
	}
	skip := func(format string, args ...any) (*publicKey, skippedKey) {
		return nil, skippedKey{kid: name, reason: fmt.Sprintf(format, args...)}
	}
	if use, ok := m.Use.(string); ok && use != "" && use != jwk.ForSignature.String() {
		s := skippedKey{kid: name, reason: fmt.Sprintf("use %q: not a signing key", use), quiet: true}
		return nil, s
	}
	switch kty, _ := m.Kty.(string); kty {
	case "RSA":
		// Said here, as jwx's refusal of a short key reads as a
		// malformed one.
		if n, ok := m.N.(string); ok {
			if b, err := base64.RawURLEncoding.DecodeString(n); err == nil {
				if bits := new(big.Int).SetBytes(b).BitLen(); bits < minRSABits {
					return skip("an RSA key of %d bits: want at least %d", bits, minRSABits)
				}
			}
		}
	case "EC":
		crv, _ := m.Crv.(string)
		if _, ok := curves[crv]; !ok {
			return skip("curve %q: want P-256, P-384 or P-521 (ES256, ES384, ES512)", crv)
		}
	case "":
		return skip("no kty")
	case "oct":
		return skip("kty oct is a shared secret: tokens are checked with public keys (RSA or EC)")
	default:
		return skip("kty %q: want RSA or EC", kty)
	}
	var cert *x509.Certificate
	if m.X5c != nil {
		// Read before jwx reads it, which refuses a bad chain as a
		// malformed key.
		var reason string
		if cert, reason = firstCertificate(m.X5c); reason != "" {
			return skip("x5c: %s", reason)
		}
	}
	key, err := jwk.ParseKey(raw)
	if err != nil {
		return skip("malformed: %s", jwxReason(err))
	}
	pub, err := jwk.PublicRawKeyOf(key)
	if err != nil {
		return skip("malformed: %s", jwxReason(err))
	}
	switch pub := pub.(type) {
	case *rsa.PublicKey:
		if bits := pub.N.BitLen(); bits < minRSABits {
			return skip("an RSA key of %d bits: want at least %d", bits, minRSABits)
		}
	case *ecdsa.PublicKey:
	default:
		return skip("a %T, not an RSA or EC public key", pub)
	}
	if cert != nil {
		if k, ok := cert.PublicKey.(interface{ Equal(crypto.PublicKey) bool }); !ok || !k.Equal(pub) {
			return skip("x5c: the first certificate's key is not the JWK's")
		}
	}
	k := &publicKey{kty: key.KeyType(), raw: pub}
	k.kid, _ = key.KeyID()
	if alg, ok := key.Algorithm(); ok {
		k.alg = alg.String()
	}
	return k, skippedKey{}
}

// firstCertificate reads a key's certificate chain (RFC 7517 §4.7) as far
// as the key goes: each element a base64 DER certificate. It returns the
// first, whose key must be the JWK's, or says what is wrong.
func firstCertificate(x5c any) (*x509.Certificate, string) {
	chain, ok := x5c.([]any)
	if !ok || len(chain) == 0 {
		return nil, "not a list of certificates"
	}
	var first *x509.Certificate
	for i, v := range chain {
		s, _ := v.(string)
		der, err := base64.StdEncoding.DecodeString(s)
		if err != nil || s == "" {
			return nil, fmt.Sprintf("certificate #%d is not base64", i+1)
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Sprintf("certificate #%d is not an X.509 certificate", i+1)
		}
		if i == 0 {
			first = cert
		}
	}
	return first, ""
}

// jwxReason is jwx's error, shortened to its last clause: what was wrong
// rather than which function found it. A JWK set is public, so quoting
// from it is safe; the reason goes to the log, not to a client.
func jwxReason(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		return msg[i+2:]
	}
	return msg
}

// fitsCurve reports whether an EC key k is on the curve alg signs with
// (ES256 with P-256, say), as Nimbus's ECDSAVerifier checks: a P-384 key
// never checks an ES256 signature.
func fitsCurve(k *publicKey, alg string) bool {
	if k.kty != jwa.EC() {
		return true
	}
	pub, ok := k.raw.(*ecdsa.PublicKey)
	if !ok {
		return false
	}
	switch alg {
	case "ES256":
		return pub.Curve == elliptic.P256()
	case "ES384":
		return pub.Curve == elliptic.P384()
	case "ES512":
		return pub.Curve == elliptic.P521()
	}
	return false
}
