package jwt

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/springport/greeter/framework/security"
)

// Checking a token costs about 46 µs and 181 allocations (RS256): jwx's
// parsing of its header and claims (JSON, token by token) and the RSA
// verification. A client sends the same token with every request until
// it expires, so a token once verified is remembered with its principal,
// and the next request that carries it costs a map look-up and a look at
// the key set: no JSON, no signature, no allocation.
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
// The memory is keyed by the token itself, compared whole. A SHA-256 of
// it, as the memory of Basic credentials keeps, would keep the token out
// of memory, but hashing a token of 800 bytes takes about 26,000
// instructions under callgrind (valgrind has no SHA extensions, so Go
// runs its AVX2 code), half an open request; the map's own hash
// (AES-based) and the comparison take about 1,000. A token is remembered
// only once verified, and only while it could open a request anyway: what
// a client sends that is not a valid token never enters.

// Bounds of the memory. A token's principal is small (a name and a few
// scopes); ten thousand clients each with a token of a kilobyte fit in
// the bytes.
const (
	maxVerified      = 10_000
	maxVerifiedBytes = 16 << 20
	// entryOverhead is what an entry costs beyond its strings: the map's
	// slot, the entry, the principal and their headers.
	entryOverhead = 200
	// unexpiringFor is how long a token without exp is remembered.
	unexpiringFor = time.Minute
)

// verifiedTokens remembers the tokens that were verified. Safe for
// concurrent use.
type verifiedTokens struct {
	mu      sync.RWMutex
	entries map[string]*verifiedToken
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

func newVerifiedTokens() *verifiedTokens {
	return &verifiedTokens{entries: map[string]*verifiedToken{}}
}

// principal returns the principal of token if it was verified and is
// still good at now with the keys that ks holds; nil if not.
func (c *verifiedTokens) principal(ctx context.Context, token string, now time.Time, ks keySource) *security.Principal {
	c.mu.RLock()
	e := c.entries[token]
	c.mu.RUnlock()
	if e == nil {
		return nil
	}
	if !now.Truncate(time.Second).Before(e.until) {
		c.forget(token, e)
		return nil
	}
	keys, err := ks.lookup(ctx, e.kid)
	if err != nil {
		return nil
	}
	for _, k := range e.keys {
		if !slices.Contains(keys, k) {
			c.forget(token, e)
			return nil
		}
	}
	return e.principal
}

// add remembers token, verified by one of keys, as p's until until.
func (c *verifiedTokens) add(token, kid string, keys []*publicKey, p *security.Principal, until time.Time, now time.Time) {
	size := entryOverhead + len(token) + len(kid) + len(p.Name)
	for _, a := range p.Authorities {
		size += len(a) + 16
	}
	if size > maxVerifiedBytes/100 {
		return // a token of over 160 KiB: checked each time, not kept
	}
	e := &verifiedToken{principal: p, kid: kid, keys: keys, until: until, size: size}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[token]; old != nil {
		c.bytes -= old.size
	}
	if len(c.entries) >= maxVerified || c.bytes+size > maxVerifiedBytes {
		c.evict(now)
	}
	c.entries[token] = e
	c.bytes += size
}

// evict makes room, under mu: the expired entries go, then, if the memory
// is still over nine tenths full, as many others as it takes, in the
// map's (random) order. Clearing a tenth at a time keeps the cost of a
// sweep to one in a thousand additions at the most.
func (c *verifiedTokens) evict(now time.Time) {
	now = now.Truncate(time.Second)
	for token, e := range c.entries {
		if !now.Before(e.until) {
			delete(c.entries, token)
			c.bytes -= e.size
		}
	}
	for token, e := range c.entries {
		if len(c.entries) < maxVerified*9/10 && c.bytes <= maxVerifiedBytes*9/10 {
			break
		}
		delete(c.entries, token)
		c.bytes -= e.size
	}
}

// forget drops token if it is still remembered as e.
func (c *verifiedTokens) forget(token string, e *verifiedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[token] == e {
		delete(c.entries, token)
		c.bytes -= e.size
	}
}

// count is how many tokens are remembered.
func (c *verifiedTokens) count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
