package jwt

// The memory of verified tokens from inside: its bounds, and how long a
// token without exp is kept.

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jws"

	"github.com/springport/greeter/framework/security"
)

// staticAuthenticator checks tokens with a new RSA key, given as a public
// key file, at the time now; sign signs claims with the key.
func staticAuthenticator(t testing.TB, now time.Time) (a *Authenticator, sign func(map[string]any) string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.pub")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err = New(context.Background(), Options{PublicKeyLocation: path, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return a, func(claims map[string]any) string {
		payload, err := json.Marshal(claims)
		if err != nil {
			t.Fatal(err)
		}
		out, err := jws.Sign(payload, jws.WithKey(jwa.RS256(), key))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
}

func TestVerifiedTokenWithoutExpIsKeptBriefly(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	a, sign := staticAuthenticator(t, now)
	token := sign(map[string]any{"sub": "alice"})
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	if p, err := a.Authenticate(r); err != nil || p == nil {
		t.Fatalf("a token without exp: %v, %v; want it accepted, as Spring does", p, err)
	}
	e := a.verified.entries[keyOf(token)]
	if e == nil || !e.until.Equal(now.Add(unexpiringFor)) {
		t.Fatalf("a token without exp is remembered until %v; want %v", e, now.Add(unexpiringFor))
	}
}

func TestVerifiedTokensAreBounded(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	c := newVerifiedTokens()
	keys := staticKey{{kty: jwa.RSA()}}
	p := &security.Principal{Name: "alice", Authorities: []string{"SCOPE_read"}}
	for i := range 3 * maxVerified {
		c.add(keyOf(fmt.Sprintf("token-%d", i)), "", keys, p, now.Add(time.Hour), now)
		if n := c.count(); n > maxVerified {
			t.Fatalf("after %d tokens, %d are remembered; want at most %d", i+1, n, maxVerified)
		}
	}
	// The latest is always kept.
	if c.principal(context.Background(), keyOf(fmt.Sprintf("token-%d", 3*maxVerified-1)), now, keys) != p {
		t.Error("the token added last was evicted")
	}
	// Expired tokens go first: a sweep leaves every good one.
	c = newVerifiedTokens()
	for i := range maxVerified {
		c.add(keyOf(fmt.Sprintf("old-%d", i)), "", keys, p, now.Add(time.Minute), now)
	}
	later := now.Add(2 * time.Minute)
	c.add(keyOf("new"), "", keys, p, later.Add(time.Hour), later)
	if n := c.count(); n != 1 {
		t.Errorf("after the expired were swept, %d remembered; want 1", n)
	}

	// Large principals (a token's claims of many scopes) are bounded by
	// their bytes too; the token itself is not kept, only its digest.
	c = newVerifiedTokens()
	big := &security.Principal{Name: "alice", Authorities: []string{strings.Repeat("x", 64<<10)}}
	for i := range 1000 {
		c.add(keyOf(fmt.Sprint(i)), "", keys, big, now.Add(time.Hour), now)
		if c.bytes > maxVerifiedBytes {
			t.Fatalf("after %d principals of 64 KiB, %d bytes are remembered; want at most %d", i+1, c.bytes, maxVerifiedBytes)
		}
	}
	huge := &security.Principal{Name: "alice", Authorities: []string{strings.Repeat("y", 1<<20)}}
	c.add(keyOf("huge"), "", keys, huge, now.Add(time.Hour), now)
	if c.principal(context.Background(), keyOf("huge"), now, keys) != nil {
		t.Error("a principal of 1 MiB was remembered")
	}
}

// BenchmarkAuthenticate measures a request with a valid RS256 token seen
// for the first time, the keys at hand: what a client's first request
// costs (its next ones: BenchmarkAuthenticateVerified).
func BenchmarkAuthenticate(b *testing.B) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	a, sign := staticAuthenticator(b, now)
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+sign(map[string]any{"sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "read write"}))
	b.ReportAllocs()
	for b.Loop() {
		clear(a.verified.entries)
		a.verified.bytes = 0
		if p, err := a.Authenticate(r); err != nil || p == nil {
			b.Fatal(err)
		}
	}
}
