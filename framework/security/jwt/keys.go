package jwt

import (
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// keySource gives the keys a token may be signed with.
type keySource interface {
	// lookup returns the keys whose kid is kid, or every key when the
	// token names none. An error means the keys could not be had at
	// all (the issuer is unreachable), not that the token is bad.
	lookup(ctx context.Context, kid string) ([]publicKey, error)
}

// publicKey is one verification key, exported from its JWK once, when the
// set is fetched, rather than at every token.
type publicKey struct {
	kid string
	kty jwa.KeyType
	alg string // "" when the JWK does not restrict it
	raw any    // *rsa.PublicKey, *ecdsa.PublicKey
}

// fits reports whether k may check a signature made with alg: a key of
// the algorithm's type, restricted to no other algorithm (as Nimbus's
// JWSVerificationKeySelector matches a JWK).
func (k publicKey) fits(alg string) bool {
	if k.alg != "" && k.alg != alg {
		return false
	}
	switch alg[:2] {
	case "RS", "PS":
		return k.kty == jwa.RSA()
	case "ES":
		return k.kty == jwa.EC()
	}
	return false
}

// SignatureAlgorithms are the algorithms Options.JWSAlgorithms may name:
// Spring's SignatureAlgorithm values, the asymmetric algorithms of RFC
// 7518. HS256 and the others that sign with a shared secret are not
// among them, as the keys here are public.
const SignatureAlgorithms = "RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512"

// IsSignatureAlgorithm reports whether alg is one of SignatureAlgorithms.
func IsSignatureAlgorithm(alg string) bool {
	return len(alg) == 5 && slices.Contains(strings.Split(SignatureAlgorithms, ", "), alg)
}

// isRSA reports whether alg signs with an RSA key.
func isRSA(alg string) bool { return strings.HasPrefix(alg, "RS") || strings.HasPrefix(alg, "PS") }

// keyPicker hands jwx the keys for one token, and remembers why there
// were none, in words of ours.
type keyPicker struct {
	a      *Authenticator
	ctx    context.Context
	picked bool   // some key was handed over: a failure after is the signature's
	reason string // why no key was handed over
	err    error  // the keys could not be had
}

// errNoKey stops jwx when keyPicker has no key for the token; the reason
// is in keyPicker.
var errNoKey = errors.New("no key")

func (p *keyPicker) FetchKeys(_ context.Context, sink jws.KeySink, sig *jws.Signature, _ *jws.Message) error {
	h := sig.ProtectedHeaders()
	alg, ok := h.Algorithm()
	if !ok || !slices.Contains(p.a.algorithms, alg.String()) {
		// alg none, HS256 (a public key used as an HMAC secret), or an
		// algorithm the settings do not accept.
		p.reason = "Signed JWT rejected: Another algorithm expected, or no matching key(s) found"
		return errNoKey
	}
	kid, _ := h.KeyID()
	keys, err := p.a.keys.lookup(p.ctx, kid)
	if err != nil {
		p.err = err
		return err
	}
	for _, k := range keys {
		if k.fits(alg.String()) {
			sink.Key(alg, k.raw)
			p.picked = true
		}
	}
	if !p.picked {
		p.reason = "Signed JWT rejected: Another algorithm expected, or no matching key(s) found"
		return errNoKey
	}
	return nil
}

// staticKey is the one RSA public key of public-key-location, used
// whatever kid a token names, as Spring's decoder built withPublicKey.
type staticKey []publicKey

func (k staticKey) lookup(context.Context, string) ([]publicKey, error) { return k, nil }

// readPublicKey reads the PEM file at location (file: prefix allowed): an
// RSA public key, as Spring Boot reads public-key-location.
func readPublicKey(location, algorithm string) (staticKey, error) {
	data, err := os.ReadFile(strings.TrimPrefix(location, "file:"))
	if err != nil {
		return nil, fmt.Errorf("cannot read the public key file: %w", err)
	}
	key, err := jwk.ParseKey(data, jwk.WithPEM(true))
	if err != nil {
		return nil, errors.New("want a PEM file holding an RSA public key (-----BEGIN PUBLIC KEY-----)")
	}
	var raw rsa.PublicKey
	if err := jwk.Export(key, &raw); err != nil || key.KeyType() != jwa.RSA() {
		return nil, errors.New("the key is not an RSA public key")
	}
	return staticKey{{kty: jwa.RSA(), alg: algorithm, raw: &raw}}, nil
}

// remoteKeys is an issuer's JWK set, fetched over HTTP and cached. It is
// fetched again when it is older than KeysLifetime, or when a token names
// a kid it lacks, but never more than once per RefetchInterval; while
// the issuer cannot be reached, the set last fetched goes on being used.
type remoteKeys struct {
	client *http.Client
	now    func() time.Time
	uri    func(context.Context) (string, error) // the JWK set's URI: set, or discovered

	current atomic.Pointer[keySet] // read without a lock by every token

	mu        sync.Mutex // held while fetching, so that one fetch runs at a time
	lastFetch time.Time  // when the last fetch started, under mu
}

// keySet is one fetch of the JWK set.
type keySet struct {
	keys    []publicKey
	fetched time.Time
}

func newRemoteKeys(client *http.Client, now func() time.Time, uri func(context.Context) (string, error)) *remoteKeys {
	return &remoteKeys{client: client, now: now, uri: uri}
}

// match returns the keys of s for kid; every key for "".
func (s *keySet) match(kid string) []publicKey {
	if kid == "" {
		return s.keys
	}
	for i, k := range s.keys {
		if k.kid == kid {
			return s.keys[i : i+1]
		}
	}
	return nil
}

// fresh reports whether s was fetched less than KeysLifetime ago.
func (s *keySet) fresh(now time.Time) bool {
	return s != nil && now.Sub(s.fetched) < KeysLifetime
}

func (r *remoteKeys) lookup(ctx context.Context, kid string) ([]publicKey, error) {
	if s := r.current.Load(); s.fresh(r.now()) {
		if keys := s.match(kid); keys != nil {
			return keys, nil
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	s := r.current.Load()
	if s.fresh(now) {
		// Another token may have fetched the set while this one waited.
		if keys := s.match(kid); keys != nil {
			return keys, nil
		}
	}
	if r.lastFetch.IsZero() || now.Sub(r.lastFetch) >= RefetchInterval {
		r.lastFetch = now
		fetched, err := r.fetch(ctx)
		switch {
		case err == nil:
			fetched.fetched = now
			r.current.Store(fetched)
			s = fetched
		case s == nil:
			return nil, err
		}
		// On a failed fetch, the set fetched before goes on being used
		// until the issuer answers again.
	}
	if s == nil {
		return nil, errors.New("the JWK set could not be fetched yet; the next try is after " + RefetchInterval.String())
	}
	return s.match(kid), nil
}

// fetch gets and parses the JWK set. The request outlives neither
// FetchTimeout nor, unless it is cancelled, the token's request: a client
// that goes away does not cancel a fetch other requests wait on.
func (r *remoteKeys) fetch(ctx context.Context) (*keySet, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FetchTimeout)
	defer cancel()
	uri, err := r.uri(ctx)
	if err != nil {
		return nil, err
	}
	body, err := getDocument(ctx, r.client, uri, "application/jwk-set+json, application/json")
	if err != nil {
		return nil, fmt.Errorf("couldn't retrieve remote JWK set: %w", err)
	}
	set, err := jwk.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("couldn't retrieve remote JWK set: %s does not hold a JWK set: %w", uri, err)
	}
	s := &keySet{}
	for i := range set.Len() {
		key, _ := set.Key(i)
		if use, ok := key.KeyUsage(); ok && use != "" && use != jwk.ForSignature.String() {
			continue // an encryption key
		}
		raw, err := jwk.PublicRawKeyOf(key)
		if err != nil {
			continue // a key type this package cannot verify with
		}
		k := publicKey{kty: key.KeyType(), raw: raw}
		k.kid, _ = key.KeyID()
		if alg, ok := key.Algorithm(); ok {
			k.alg = alg.String()
		}
		s.keys = append(s.keys, k)
	}
	return s, nil
}

// getDocument GETs uri and returns its body: a 200 of at most
// maxDocumentSize bytes.
func getDocument(ctx context.Context, client *http.Client, uri, accept string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", accept)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{uri: uri, code: resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocumentSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", uri, err)
	}
	if len(body) > maxDocumentSize {
		return nil, fmt.Errorf("%s answered more than %d bytes", uri, maxDocumentSize)
	}
	return body, nil
}

// statusError is an answer other than 200.
type statusError struct {
	uri  string
	code int
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s answered %d %s", e.uri, e.code, http.StatusText(e.code))
}
