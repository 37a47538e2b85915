package jwt

import (
	"context"
	"slices"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/crypto/blake2b"

	"github.com/springport/greeter/framework/security"
)

// Checking a token costs about 46 µs and 181 allocations (RS256): jwx's
// parsing of its header and claims (JSON, token by token) and the RSA
// verification. A client sends the same token with every request until
// it expires, so a token once verified is remembered with its principal,
// and the next request that carries it costs a hash of it, a map look-up
// and a look at the key set: no JSON, no signature, no allocation.
//
// A remembered token is as good as one checked again, never better:
//   - it is forgotten at its exp (plus the clock skew the check allows);
//     one without exp, which the check accepts as Spring does, at most
//     unexpiringFor after it was verified;
//   - it is forgotten when a key it may have been verified by is no longer
//     in the key set: the set is looked up at every hit, as at every
//     check, so it is fetched again as often, and a key the issuer
//     withdraws stops opening requests as soon as the set no longer holds
//     it;
//   - iss, aud and nbf were checked once and cannot change: the token is
//     the same string, and the settings are fixed for the authenticator.
//
// The memory is keyed by a BLAKE2b-256 of the token, never the token
// itself: a heap dump (/actuator/heapdump) would otherwise hold every
// client's live token. BLAKE2b rather than SHA-256 for its cost: under
// callgrind, which decodes no SHA extensions, SHA-256 of a token of 700
// bytes takes about 24,500 instructions, half an open request, where
// BLAKE2b takes about 4,400; on hardware both take about a microsecond
// (SHA-256 a little less where the processor has SHA extensions). A
// token is remembered only once verified, and only while it could open a
// request anyway: what a client sends that is not a valid token never
// enters.

// Bounds of the memory. A token's principal is small (a name and a few
// scopes); the bytes bound one whose claims are not (a token with
// thousands of scopes).
const (
	maxVerified      = 10_000
	maxVerifiedBytes = 16 << 20
	// entryOverhead is what an entry costs beyond its strings: the map's
	// slot (the digest and a pointer), the entry, the principal and their
	// headers.
	entryOverhead = 200
	// unexpiringFor is how long a token without exp is remembered.
	unexpiringFor = time.Minute
)

// verifiedTokens remembers the tokens that were verified. Safe for
// concurrent use.
type verifiedTokens struct {
	mu      sync.RWMutex
	entries map[tokenKey]*verifiedToken
	bytes   int // the sizes of the entries
}

// verifiedToken is a token that was verified, its principal (shared by
// every request that carries it: no one changes a Principal), and how
// long it is good for.
type verifiedToken struct {
	principal *security.Principal
	kid       string       // the token's, to look its keys up again
	keys      []*publicKey // the keys it may have been verified by
	until     time.Time    // good while the time, truncated to seconds, is before it
	size      int
}

// tokenKey is what the memory knows a token by: its BLAKE2b-256.
type tokenKey [blake2b.Size256]byte

// keyOf is token's key in the memory. The token's bytes are hashed in
// place: []byte(token) would copy them to the heap (the compiler cannot
// tell that the hash's assembly only reads them), an allocation per
// request, and blake2b neither writes to nor keeps what it is given.
func keyOf(token string) tokenKey {
	return blake2b.Sum256(unsafe.Slice(unsafe.StringData(token), len(token)))
}

func newVerifiedTokens() *verifiedTokens {
	return &verifiedTokens{entries: map[tokenKey]*verifiedToken{}}
}

// principal returns the principal of the token whose key is key if it
// was verified and is still good at now with the keys that ks holds; nil
// if not.
func (c *verifiedTokens) principal(ctx context.Context, key tokenKey, now time.Time, ks keySource) *security.Principal {
	c.mu.RLock()
	e := c.entries[key]
	c.mu.RUnlock()
	if e == nil {
		return nil
	}
	if !now.Truncate(time.Second).Before(e.until) {
		c.forget(key, e)
		return nil
	}
	keys, err := ks.lookup(ctx, e.kid)
	if err != nil {
		return nil
	}
	for _, k := range e.keys {
		if !slices.Contains(keys, k) {
			c.forget(key, e)
			return nil
		}
	}
	return e.principal
}

// add remembers the token whose key is key, verified by one of keys, as
// p's until until.
func (c *verifiedTokens) add(key tokenKey, kid string, keys []*publicKey, p *security.Principal, until time.Time, now time.Time) {
	size := entryOverhead + len(kid) + len(p.Name)
	for _, a := range p.Authorities {
		size += len(a) + 16
	}
	if size > maxVerifiedBytes/100 {
		return // a principal of over 160 KiB: checked each time, not kept
	}
	e := &verifiedToken{principal: p, kid: kid, keys: keys, until: until, size: size}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[key]; old != nil {
		c.bytes -= old.size
	}
	if len(c.entries) >= maxVerified || c.bytes+size > maxVerifiedBytes {
		c.evict(now)
	}
	c.entries[key] = e
	c.bytes += size
}

// evict makes room, under mu: the expired entries go, then, if the memory
// is still over nine tenths full, as many others as it takes, in the
// map's (random) order. Clearing a tenth at a time keeps the cost of a
// sweep to one in a thousand additions at the most.
func (c *verifiedTokens) evict(now time.Time) {
	now = now.Truncate(time.Second)
	for key, e := range c.entries {
		if !now.Before(e.until) {
			delete(c.entries, key)
			c.bytes -= e.size
		}
	}
	for key, e := range c.entries {
		if len(c.entries) < maxVerified*9/10 && c.bytes <= maxVerifiedBytes*9/10 {
			break
		}
		delete(c.entries, key)
		c.bytes -= e.size
	}
}

// forget drops the token whose key is key if it is still remembered as
// e.
func (c *verifiedTokens) forget(key tokenKey, e *verifiedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[key] == e {
		delete(c.entries, key)
		c.bytes -= e.size
	}
}

// count is how many tokens are remembered.
func (c *verifiedTokens) count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
