package jwt

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
	lookup(ctx context.Context, kid string) ([]*publicKey, error)
}

// publicKey is one verification key, exported from its JWK once, when the
// set is fetched, rather than at every token. A key is the same
// *publicKey from one fetch of the set to the next while the set holds it
// unchanged, so that a token verified by it (see verified.go) stays
// verified until the key leaves the set.
type publicKey struct {
	kid string
	kty jwa.KeyType
	alg string // "" when the JWK does not restrict it
	raw any    // *rsa.PublicKey, *ecdsa.PublicKey
}

// fits reports whether k may check a signature made with alg: a key of
// the algorithm's type, restricted to no other algorithm (as Nimbus's
// JWSVerificationKeySelector matches a JWK).
func (k *publicKey) fits(alg string) bool {
	if k.alg != "" && k.alg != alg {
		return false
	}
	switch alg[:2] {
	case "RS", "PS":
		return k.kty == jwa.RSA()
	case "ES":
		return k.kty == jwa.EC() && fitsCurve(k, alg)
	}
	return false
}

// same reports whether k and o are one key: the same kid, type, algorithm
// and public key.
func (k *publicKey) same(o *publicKey) bool {
	eq, ok := k.raw.(interface{ Equal(crypto.PublicKey) bool })
	return k.kid == o.kid && k.kty == o.kty && k.alg == o.alg && ok && eq.Equal(o.raw)
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
	kid    string       // the token's
	picked []*publicKey // the keys handed over: a failure after is the signature's
	reason string       // why no key was handed over
	err    error        // the keys could not be had
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
	p.kid = kid
	keys, err := p.a.keys.lookup(p.ctx, kid)
	if err != nil {
		p.err = err
		return err
	}
	for i, k := range keys {
		if k.fits(alg.String()) {
			sink.Key(alg, k.raw)
			if len(p.picked) == 0 && i == len(keys)-1 {
				p.picked = keys[i:] // the usual one key, without a copy
			} else {
				p.picked = append(p.picked, k)
			}
		}
	}
	if len(p.picked) == 0 {
		p.reason = "Signed JWT rejected: Another algorithm expected, or no matching key(s) found"
		return errNoKey
	}
	return nil
}

// staticKey is the one RSA public key of public-key-location, used
// whatever kid a token names, as Spring's decoder built withPublicKey.
type staticKey []*publicKey

func (k staticKey) lookup(context.Context, string) ([]*publicKey, error) { return k, nil }

// readPublicKey reads the PEM file at location (file: prefix allowed): an
// RSA public key, as Spring Boot reads public-key-location.
func readPublicKey(location, algorithm string) (staticKey, error) {
	data, err := os.ReadFile(strings.TrimPrefix(location, "file:"))
	if err != nil {
		return nil, fmt.Errorf("cannot read the public key file: %w", err)
	}
	if bits := rsaBits(data); bits > 0 && bits < minRSABits {
		// Said here, as jwx refuses a short key as an unreadable one.
		return nil, fmt.Errorf("the RSA key has %d bits: want at least %d", bits, minRSABits)
	}
	key, err := jwk.ParseKey(data, jwk.WithPEM(true))
	if err != nil {
		return nil, errors.New("want a PEM file holding an RSA public key (-----BEGIN PUBLIC KEY-----)")
	}
	var raw rsa.PublicKey
	if err := jwk.Export(key, &raw); err != nil || key.KeyType() != jwa.RSA() {
		return nil, errors.New("the key is not an RSA public key")
	}
	if bits := raw.N.BitLen(); bits < minRSABits {
		return nil, fmt.Errorf("the RSA key has %d bits: want at least %d", bits, minRSABits)
	}
	return staticKey{{kty: jwa.RSA(), alg: algorithm, raw: &raw}}, nil
}

// rsaBits is the size of the RSA public key in the PEM data (X.509's
// PUBLIC KEY or PKCS #1's RSA PUBLIC KEY); 0 when it holds none.
func rsaBits(data []byte) int {
	block, _ := pem.Decode(data)
	if block == nil {
		return 0
	}
	if pub, err := x509.ParsePKCS1PublicKey(block.Bytes); err == nil {
		return pub.N.BitLen()
	}
	if pub, err := x509.ParsePKIXPublicKey(block.Bytes); err == nil {
		if pub, ok := pub.(*rsa.PublicKey); ok {
			return pub.N.BitLen()
		}
	}
	return 0
}

// remoteKeys is an issuer's JWK set, fetched over HTTP and cached. It is
// fetched again when it is older than KeysLifetime, or when a token names
// a kid it lacks, but never more than once per RefetchInterval; while
// the issuer cannot be reached, the set last fetched goes on being used.
type remoteKeys struct {
	client *http.Client
	now    func() time.Time
	uri    func(context.Context) (string, error) // the JWK set's URI: set, or discovered
	logger *slog.Logger

	current atomic.Pointer[keySet] // read without a lock by every token

	mu        sync.Mutex          // held while fetching, so that one fetch runs at a time
	lastFetch time.Time           // when the last fetch started, under mu
	logged    map[string]struct{} // the skipped keys the last fetch logged, under mu
	withdrawn error               // why the last fetch left no key to use, under mu; nil after one that did
}

// noUsableKeyError is a fetched JWK set's lack of a key that can be used:
// the issuer answered, unlike in an outage.
type noUsableKeyError string

func (e noUsableKeyError) Error() string { return string(e) }

// keySet is one fetch of the JWK set.
type keySet struct {
	keys    []*publicKey
	fetched time.Time
}

func newRemoteKeys(client *http.Client, now func() time.Time, logger *slog.Logger, uri func(context.Context) (string, error)) *remoteKeys {
	return &remoteKeys{client: client, now: now, uri: uri, logger: logger}
}

// match returns the keys of s for kid; every key for "".
func (s *keySet) match(kid string) []*publicKey {
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

func (r *remoteKeys) lookup(ctx context.Context, kid string) ([]*publicKey, error) {
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
		fetched, err := r.fetch(ctx, s)
		switch {
		case err == nil:
			fetched.fetched = now
			r.current.Store(fetched)
			r.withdrawn = nil
			s = fetched
		case errors.As(err, new(noUsableKeyError)):
			// Not an outage: the issuer answered, and no longer
			// publishes the keys fetched before, which must not go on
			// opening requests.
			r.current.Store(nil)
			r.withdrawn = err
			return nil, err
		case s == nil:
			return nil, err
		}
		// On a failed fetch, the set fetched before goes on being used
		// until the issuer answers again.
	}
	if s == nil {
		if r.withdrawn != nil {
			return nil, r.withdrawn
		}
		return nil, errors.New("the JWK set could not be fetched yet; the next try is after " + RefetchInterval.String())
	}
	return s.match(kid), nil
}

// prime fetches the JWK set once at start-up, so that a set with no
// usable key stops start-up (the error) rather than answer every token
// 503 once serving. An issuer that cannot be reached now is not an
// error: the set is fetched with the first token, as Spring resolves it
// lazily, and the outage is logged.
func (r *remoteKeys) prime(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	fetched, err := r.fetch(ctx, nil)
	switch {
	case err == nil:
		now := r.now()
		fetched.fetched, r.lastFetch = now, now
		r.current.Store(fetched)
		return nil
	case errors.As(err, new(noUsableKeyError)):
		return err
	}
	if r.logger != nil {
		r.logger.Warn("the JWK set could not be fetched at start-up: it is fetched again with the first token", "error", err)
	}
	return nil
}

// fetch gets and parses the JWK set; the keys that prev (the set fetched
// before, nil at first) holds unchanged are carried over as they are. The
// request outlives neither FetchTimeout nor, unless it is cancelled, the
// token's request: a client that goes away does not cancel a fetch other
// requests wait on.
func (r *remoteKeys) fetch(ctx context.Context, prev *keySet) (*keySet, error) {
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
	keys, skipped, err := parseKeySet(body)
	if err != nil {
		return nil, fmt.Errorf("couldn't retrieve remote JWK set: %s does not hold a JWK set: %w", uri, err)
	}
	r.logSkipped(uri, skipped)
	if len(keys) == 0 {
		why := "it holds no key"
		if len(skipped) > 0 {
			names := make([]string, len(skipped))
			for i, s := range skipped {
				names[i] = s.String()
			}
			why = "every key is skipped: " + strings.Join(names, "; ")
		}
		return nil, noUsableKeyError(fmt.Sprintf("the JWK set at %s has no usable key: %s", uri, why))
	}
	if prev != nil {
		for i, k := range keys {
			for _, old := range prev.keys {
				if k.same(old) {
					keys[i] = old
					break
				}
			}
		}
	}
	return &keySet{keys: keys}, nil
}

// logSkipped logs each key of the set that is skipped, with why, once:
// not again at the next fetch of the same set, which happens every few
// minutes. An encryption key beside the signing keys is not news.
func (r *remoteKeys) logSkipped(uri string, skipped []skippedKey) {
	logged := make(map[string]struct{}, len(skipped))
	for _, s := range skipped {
		if s.quiet {
			continue
		}
		line := s.String()
		logged[line] = struct{}{}
		if _, before := r.logged[line]; before || r.logger == nil {
			continue
		}
		r.logger.Warn("a key of the JWK set is skipped", "jwk_set_uri", uri, "key", s.kid, "reason", s.reason)
	}
	r.logged = logged
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
