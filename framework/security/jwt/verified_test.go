package jwt_test

// A token verified once is remembered until it expires or its key leaves
// the set, and a request that carries it again costs no parsing and no
// signature check (issue 37: 46 µs and 181 allocations at every request).

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"

	"github.com/springport/greeter/framework/security/jwt"
)

// TestVerifiedTokenCostsNoAllocation: a token verified before is
// accepted again without an allocation (a check parses its JSON and
// allocates about 180 times), with the same principal.
func TestVerifiedTokenCostsNoAllocation(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	r := bearer(k.sign(t, jwa.RS256(), claims(c, "scope", "read write")))
	mustAccept(t, a, r)
	if allocs := testing.AllocsPerRun(100, func() {
		if p, err := a.Authenticate(r); err != nil || p == nil || p.Name != "alice" || len(p.Authorities) != 2 {
			t.Fatalf("got %v, %v; want alice [SCOPE_read SCOPE_write]", p, err)
		}
	}); allocs > 0 {
		t.Errorf("a verified token again: %.0f allocations; want none", allocs)
	}
	// Another token of the same subject is another entry.
	other := mustAccept(t, a, bearer(k.sign(t, jwa.RS256(), claims(c, "scope", "read"))))
	if len(other.Authorities) != 1 {
		t.Errorf("another token got the first one's principal: %+v", other)
	}
}

// TestVerifiedTokenExpires: a remembered token is refused once past its
// exp and the clock skew, as a checked one is.
func TestVerifiedTokenExpires(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	r := bearer(k.sign(t, jwa.RS256(), claims(c, "exp", c.unix(time.Minute))))
	mustAccept(t, a, r)
	c.Advance(time.Minute + 59*time.Second)
	mustAccept(t, a, r)
	c.Advance(time.Second)
	mustRefuse(t, a, r, "Jwt expired at")
}

// TestVerifiedTokenForgottenWithItsKey: when the set no longer holds the
// key a token was verified by, the token is refused at the next look at
// the set, though it was remembered; a token that names no kid, verified
// by one of two keys, goes on with the one that signed it.
func TestVerifiedTokenForgottenWithItsKey(t *testing.T) {
	c := newClock()
	k1, k2 := rsaKey(t, "k1"), rsaKey(t, "k2")
	is := newIssuer(t, k1, k2)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	long := func(k signingKey) map[string]any { return claims(c, "exp", c.unix(time.Hour)) }
	byK1 := bearer(k1.sign(t, jwa.RS256(), long(k1)))
	noKid := bearer(signingKey{private: k1.private}.sign(t, jwa.RS256(), long(k1)))
	mustAccept(t, a, byK1)
	mustAccept(t, a, noKid)

	// The set fetched again, unchanged: both still good.
	c.Advance(jwt.KeysLifetime)
	mustAccept(t, a, byK1)
	mustAccept(t, a, noKid)

	// k2 withdrawn: the token without kid is checked again, and k1
	// still verifies it.
	is.publish(k1)
	c.Advance(jwt.KeysLifetime)
	mustAccept(t, a, noKid)
	mustAccept(t, a, byK1)

	// k1 withdrawn: both refused as soon as the set is fetched again.
	is.publish(k2)
	c.Advance(jwt.KeysLifetime)
	mustRefuse(t, a, byK1, "no matching key")
	mustRefuse(t, a, noKid, "Invalid signature")
}

// TestVerifiedTokensConcurrently: many requests with the same tokens at
// once (run with -race).
func TestVerifiedTokensConcurrently(t *testing.T) {
	c := newClock()
	k := rsaKey(t, "k")
	is := newIssuer(t, k)
	a := newAuthenticator(t, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	tokens := make([]string, 4)
	for i := range tokens {
		tokens[i] = k.sign(t, jwa.RS256(), claims(c, "sub", fmt.Sprint("user", i)))
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 50 {
				n := (w + i) % len(tokens)
				p, err := a.Authenticate(bearer(tokens[n]))
				if err != nil || p == nil || p.Name != fmt.Sprint("user", n) {
					t.Errorf("token %d: got %v, %v", n, p, err)
					return
				}
				if i%10 == 0 {
					c.Advance(time.Second)
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkAuthenticateVerified measures a request whose token was
// verified before: what each request of a client after its first costs.
func BenchmarkAuthenticateVerified(b *testing.B) {
	c := newClock()
	k := rsaKey(b, "k")
	is := newIssuer(b, k)
	a := newAuthenticator(b, jwt.Options{JWKSetURI: is.srv.URL + "/jwks", Now: c.Now})
	r := bearer(k.sign(b, jwa.RS256(), map[string]any{"sub": "alice", "exp": c.unix(time.Hour), "scope": "read write"}))
	b.ReportAllocs()
	for b.Loop() {
		if p, err := a.Authenticate(r); err != nil || p == nil {
			b.Fatal(err)
		}
	}
}
