// Package password checks a password against a stored one in the forms
// Spring Security's DelegatingPasswordEncoder reads: an {id} prefix that
// names the encoding, then the encoded password. It is the framework's
// adapter of golang.org/x/crypto (bcrypt, argon2); PBKDF2 is the standard
// library's.
//
//	{bcrypt}$2a$10$...                  BCryptPasswordEncoder ($2a$, $2b$, $2y$)
//	{argon2}$argon2id$v=19$m=16384,t=2,p=1$<salt>$<hash>
//	                                    Argon2PasswordEncoder (argon2id or argon2i;
//	                                    salt and hash in base64 without padding)
//	{pbkdf2}<hex of salt and hash>      Pbkdf2PasswordEncoder's 5.8 defaults: a
//	                                    16-byte salt, HMAC-SHA-256, 310,000 rounds
//	{noop}secret                        NoOpPasswordEncoder: the password itself
package password

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

// Hash is a stored password, parsed.
type Hash interface {
	// Matches reports whether raw is the password. Its time does not
	// depend on how much of raw is right.
	Matches(raw string) bool
	// ID is the encoding's id: bcrypt, argon2, pbkdf2 or noop.
	ID() string
}

// Parse reads a stored password of the form {id}encoded. It refuses an
// unknown id, and an encoded password its encoder could not have written,
// so that a mistake is found at start-up rather than at the first
// request, which Spring would fail with a 500.
func Parse(stored string) (Hash, error) {
	id, encoded, ok := cutID(stored)
	if !ok {
		return nil, errors.New("want {id} then the encoded password, as {bcrypt}$2a$10$..., {argon2}$argon2id$..., {pbkdf2}<hex> or {noop}<password>")
	}
	switch id {
	case "noop":
		return noop(sha256.Sum256([]byte(encoded))), nil
	case "bcrypt":
		return parseBcrypt(encoded)
	case "argon2":
		return parseArgon2(encoded)
	case "pbkdf2":
		return parsePbkdf2(encoded)
	}
	return nil, fmt.Errorf("no password encoder has the id {%s}: want bcrypt, argon2, pbkdf2 or noop", id)
}

// HasID reports whether stored starts with an {id}, as Spring Boot asks
// before it reads a password without one as {noop}.
func HasID(stored string) bool {
	_, _, ok := cutID(stored)
	return ok
}

func cutID(stored string) (id, encoded string, ok bool) {
	rest, ok := strings.CutPrefix(stored, "{")
	if !ok {
		return "", "", false
	}
	id, encoded, ok = strings.Cut(rest, "}")
	return id, encoded, ok && id != ""
}

// noop is a password kept as it is, held as its SHA-256 so that the
// comparison takes the same time whatever the lengths.
type noop [sha256.Size]byte

func (n noop) Matches(raw string) bool {
	sum := sha256.Sum256([]byte(raw))
	return subtle.ConstantTimeCompare(n[:], sum[:]) == 1
}

func (noop) ID() string { return "noop" }

type bcryptHash []byte

func parseBcrypt(encoded string) (Hash, error) {
	if _, err := bcrypt.Cost([]byte(encoded)); err != nil {
		return nil, fmt.Errorf("want a BCrypt hash ($2a$10$ then 53 characters): %v", err)
	}
	return bcryptHash(encoded), nil
}

// Matches compares in constant time (bcrypt's own). A password of more
// than 72 bytes never matches, as in Spring Security 6.3 and later.
func (h bcryptHash) Matches(raw string) bool {
	return bcrypt.CompareHashAndPassword(h, []byte(raw)) == nil
}

func (bcryptHash) ID() string { return "bcrypt" }

// Bounds of the encodings' costs, so that a stored password cannot make
// each check take minutes or gigabytes: far above Spring's defaults.
const (
	maxArgon2Memory = 1 << 20 // KiB: 1 GiB
	maxRounds       = 100
	maxPbkdf2Rounds = 10_000_000
)

type argon2Hash struct {
	id           bool // argon2id; argon2i otherwise
	memory, time uint32
	threads      uint8
	salt, hash   []byte
}

// parseArgon2 reads Argon2PasswordEncoder's form,
// $argon2id$v=19$m=16384,t=2,p=1$salt$hash, salt and hash in standard
// base64 without padding. argon2d, which x/crypto does not compute, is
// refused.
func parseArgon2(encoded string) (Hash, error) {
	bad := func(why string) error {
		return fmt.Errorf("want an Argon2 hash as $argon2id$v=19$m=16384,t=2,p=1$<salt>$<hash>: %s", why)
	}
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" {
		return nil, bad("it has not six $-separated parts")
	}
	h := argon2Hash{}
	switch parts[1] {
	case "argon2id":
		h.id = true
	case "argon2i":
	default:
		return nil, bad("the type " + strconv.Quote(parts[1]) + " is not argon2id or argon2i")
	}
	if parts[2] != "v=19" {
		return nil, bad("the version is not v=19")
	}
	var m, t, p uint64
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return nil, bad("the parameter " + strconv.Quote(kv) + " is not a number")
		}
		switch k {
		case "m":
			m = n
		case "t":
			t = n
		case "p":
			p = n
		default:
			return nil, bad("the parameter " + strconv.Quote(k) + " is not m, t or p")
		}
	}
	if m < 8*p || m > maxArgon2Memory || t < 1 || t > maxRounds || p < 1 || p > 255 {
		return nil, bad(fmt.Sprintf("m=%d,t=%d,p=%d is out of bounds (p 1 to 255, m 8p to %d KiB, t 1 to %d)", m, t, p, maxArgon2Memory, maxRounds))
	}
	var err error
	if h.salt, err = base64.RawStdEncoding.DecodeString(parts[4]); err != nil || len(h.salt) < 8 {
		return nil, bad("the salt is not base64 of at least 8 bytes")
	}
	if h.hash, err = base64.RawStdEncoding.DecodeString(parts[5]); err != nil || len(h.hash) < 4 || len(h.hash) > 1024 {
		return nil, bad("the hash is not base64 of 4 to 1024 bytes")
	}
	h.memory, h.time, h.threads = uint32(m), uint32(t), uint8(p)
	return h, nil
}

func (h argon2Hash) Matches(raw string) bool {
	n := uint32(len(h.hash))
	var got []byte
	if h.id {
		got = argon2.IDKey([]byte(raw), h.salt, h.time, h.memory, h.threads, n)
	} else {
		got = argon2.Key([]byte(raw), h.salt, h.time, h.memory, h.threads, n)
	}
	return subtle.ConstantTimeCompare(got, h.hash) == 1
}

func (argon2Hash) ID() string { return "argon2" }

// Pbkdf2PasswordEncoder.defaultsForSpringSecurity_v5_8(), which
// DelegatingPasswordEncoder uses for {pbkdf2}: no secret.
const (
	pbkdf2SaltBytes = 16
	pbkdf2Rounds    = 310_000
)

type pbkdf2Hash struct{ salt, hash []byte }

// parsePbkdf2 reads the hex of the salt followed by the hash, as
// Pbkdf2PasswordEncoder writes it unless told to use base64.
func parsePbkdf2(encoded string) (Hash, error) {
	b, err := hex.DecodeString(encoded)
	if err != nil || len(b) <= pbkdf2SaltBytes || len(b) > pbkdf2SaltBytes+1024 {
		return nil, errors.New("want the hex of a 16-byte salt and the hash (Pbkdf2PasswordEncoder's defaults for Spring Security 5.8: HMAC-SHA-256, 310000 rounds, 96 hex digits)")
	}
	return pbkdf2Hash{salt: b[:pbkdf2SaltBytes], hash: b[pbkdf2SaltBytes:]}, nil
}

func (h pbkdf2Hash) Matches(raw string) bool {
	got, err := pbkdf2.Key(sha256.New, raw, h.salt, pbkdf2Rounds, len(h.hash))
	return err == nil && subtle.ConstantTimeCompare(got, h.hash) == 1
}

func (pbkdf2Hash) ID() string { return "pbkdf2" }

// Encode encodes raw with the encoding id, as Spring's encoders do with
// their defaults: for tests, and for an operator's tool. salt is the salt
// to use (16 random bytes in Spring); it is ignored by bcrypt and noop.
func Encode(id, raw string, salt []byte) (string, error) {
	switch id {
	case "noop":
		return "{noop}" + raw, nil
	case "bcrypt":
		b, err := bcrypt.GenerateFromPassword([]byte(raw), bcrypt.DefaultCost)
		return "{bcrypt}" + string(b), err
	case "argon2":
		// Argon2PasswordEncoder.defaultsForSpringSecurity_v5_8().
		hash := argon2.IDKey([]byte(raw), salt, 2, 1<<14, 1, 32)
		return fmt.Sprintf("{argon2}$argon2id$v=19$m=16384,t=2,p=1$%s$%s",
			base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(hash)), nil
	case "pbkdf2":
		if len(salt) != pbkdf2SaltBytes {
			return "", errors.New("want a 16-byte salt")
		}
		hash, err := pbkdf2.Key(sha256.New, raw, salt, pbkdf2Rounds, 32)
		return "{pbkdf2}" + hex.EncodeToString(append(slices.Clone(salt), hash...)), err
	}
	return "", fmt.Errorf("no password encoder has the id {%s}", id)
}
