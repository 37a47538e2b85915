package security

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// BasicChallenge is Spring Security's WWW-Authenticate for HTTP Basic:
// BasicAuthenticationEntryPoint's realm is "Realm" unless set, and since
// Spring Security 7.1 (Boot 4.1) it names the charset the credentials are
// read in, UTF-8, as RFC 7617 §2.1 has a server say (Security 6.5, Boot
// 3.5, wrote the realm alone).
const BasicChallenge = `Basic realm="Realm", charset="UTF-8"`

// User is Spring Boot's one configured user (app.security.user.*): a
// name, a stored password and the authorities it holds ("ROLE_ACTUATOR"
// for the role ACTUATOR).
type User struct {
	Name        string
	Password    Password
	Authorities []string
}

// Password is a stored password that a raw one is checked against: a
// password.Hash ({bcrypt}..., {argon2}..., see package password). An
// interface, so that the guard links no password encoding, which only
// the starter of a user (framework/starter/securitybasic) brings in.
type Password interface {
	Matches(raw string) bool
}

// Basic authenticates HTTP Basic credentials (RFC 7617) against a user.
//
// A slow password encoding (bcrypt, argon2, pbkdf2 take tens of
// milliseconds each, by design) is bounded two ways, which Spring does
// not do: at most GOMAXPROCS checks run at once, so that a flood of wrong
// passwords takes no more than the processors and leaves the scheduler
// to other requests; and a right name and password are remembered, as a
// SHA-256 of the two, for VerifiedFor, so that a client that sends them
// with every request pays for the encoding once a while rather than per
// request. A changed password takes effect at restart only, so the
// memory never says yes to a password that is no longer right.
type Basic struct {
	user      User
	principal *Principal
	nameSum   [sha256.Size]byte // of user.Name
	checks    chan struct{}     // a slot per check that may run at once
	verified  *verifiedCache
}

// VerifiedFor is how long a right name and password are remembered.
const VerifiedFor = time.Minute

// maxVerified bounds the remembered credentials: one user, but a client
// may rotate among a few spellings of nothing; past it, the oldest go.
const maxVerified = 64

// maxCredentials bounds the decoded credentials: what a client may make
// the encoding hash is no more than this.
const maxCredentials = 4096

// NewBasic returns an authenticator of user's credentials.
func NewBasic(user User) *Basic {
	return &Basic{
		user:      user,
		principal: &Principal{Name: user.Name, Authorities: user.Authorities},
		nameSum:   sha256.Sum256([]byte(user.Name)),
		checks:    make(chan struct{}, max(1, runtime.GOMAXPROCS(0))),
		verified:  &verifiedCache{entries: map[[sha256.Size]byte]time.Time{}},
	}
}

// Challenge is Spring's for Basic.
func (b *Basic) Challenge(*http.Request) string { return BasicChallenge }

// Authenticate reads an Authorization: Basic header. It returns (nil,
// nil) with none (or another scheme), and a *Failure for credentials that
// cannot be decoded or are wrong, with the same reason whether the name
// or the password is wrong, so that neither the answer nor its time says
// which users exist: a wrong name still costs one check of the password.
func (b *Basic) Authenticate(r *http.Request) (*Principal, error) {
	header := Authorization(r)
	scheme, token, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Basic") {
		return nil, nil
	}
	name, pass, err := decodeBasic(strings.TrimLeft(token, " "))
	if err != nil {
		return nil, err
	}
	key := credentialsKey(name, pass)
	if b.verified.has(key, time.Now()) {
		return b.principal, nil
	}
	if err := b.acquire(r.Context()); err != nil {
		return nil, &Failure{Challenge: BasicChallenge, Reason: "the request ended while its credentials waited to be checked"}
	}
	matches := b.user.Password.Matches(pass)
	<-b.checks
	// Compared as SHA-256s, so that the time does not depend on the
	// lengths either.
	nameSum := sha256.Sum256([]byte(name))
	nameMatches := subtle.ConstantTimeCompare(nameSum[:], b.nameSum[:]) == 1
	if !matches || !nameMatches {
		return nil, &Failure{Challenge: BasicChallenge, Reason: "bad credentials"}
	}
	b.verified.add(key, time.Now())
	return b.principal, nil
}

func (b *Basic) acquire(ctx context.Context) error {
	select {
	case b.checks <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decodeBasic decodes RFC 7617's token68: base64 of the UTF-8 user-id,
// a colon, and the password (which may hold colons), as Spring's
// BasicAuthenticationConverter does.
func decodeBasic(token string) (name, pass string, err error) {
	if token == "" || base64.StdEncoding.DecodedLen(len(token)) > maxCredentials {
		return "", "", &Failure{Challenge: BasicChallenge, Reason: "the basic authentication token is empty or too long"}
	}
	decoded, decodeErr := base64.StdEncoding.DecodeString(token)
	if decodeErr != nil {
		return "", "", &Failure{Challenge: BasicChallenge, Reason: "failed to decode the basic authentication token"}
	}
	if !utf8.Valid(decoded) {
		return "", "", &Failure{Challenge: BasicChallenge, Reason: "the basic authentication token is not UTF-8"}
	}
	name, pass, ok := strings.Cut(string(decoded), ":")
	if !ok {
		return "", "", &Failure{Challenge: BasicChallenge, Reason: "the basic authentication token has no colon between name and password"}
	}
	return name, pass, nil
}

// credentialsKey is what the memory of right credentials keeps: not the
// password, a SHA-256 of the name and the password together.
func credentialsKey(name, pass string) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write([]byte(pass))
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// verifiedCache remembers right credentials until they expire.
type verifiedCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]time.Time // when each expires
}

func (c *verifiedCache) has(key [sha256.Size]byte, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	expires, ok := c.entries[key]
	if ok && now.After(expires) {
		delete(c.entries, key)
		return false
	}
	return ok
}

func (c *verifiedCache) add(key [sha256.Size]byte, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxVerified {
		for k, expires := range c.entries {
			if now.After(expires) || len(c.entries) >= maxVerified {
				delete(c.entries, k)
			}
		}
	}
	c.entries[key] = now.Add(VerifiedFor)
}
