package password_test

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/security/password"
)

// Spring Security's reference documentation encodes "password" with
// BCryptPasswordEncoder as this (DelegatingPasswordEncoder's example).
const springBcrypt = "{bcrypt}$2a$10$dXJ3SW6G7P50lGmMkkmwe.20cQQubK3.HZWzG3YB1tlRy.fqvM/BG"

func TestSpringBcryptExample(t *testing.T) {
	h, err := password.Parse(springBcrypt)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Matches("password") || h.Matches("Password") || h.ID() != "bcrypt" {
		t.Errorf("Spring's {bcrypt} example: matches password %v, Password %v", h.Matches("password"), h.Matches("Password"))
	}
}

// TestEncodings: each encoding matches the password it encoded and no
// other, and has the shape Spring's encoder writes.
func TestEncodings(t *testing.T) {
	salt := []byte("0123456789abcdef")
	shapes := map[string]string{
		"bcrypt": "{bcrypt}$2a$10$",
		"argon2": "{argon2}$argon2id$v=19$m=16384,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$",
		"pbkdf2": "{pbkdf2}30313233343536373839616263646566",
		"noop":   "{noop}pässword",
	}
	for id, shape := range shapes {
		stored, err := password.Encode(id, "pässword", salt)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(stored, shape) {
			t.Errorf("{%s}: %s, want it to start %s", id, stored, shape)
		}
		if id == "pbkdf2" && len(stored) != len("{pbkdf2}")+96 {
			t.Errorf("{pbkdf2}: %d hex digits, want 96 (16-byte salt, 32-byte hash)", len(stored)-len("{pbkdf2}"))
		}
		h, err := password.Parse(stored)
		if err != nil {
			t.Fatalf("{%s}: %v", id, err)
		}
		if !h.Matches("pässword") || h.Matches("password") || h.Matches("") || h.ID() != id {
			t.Errorf("{%s}: does not tell the password from others", id)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, stored := range []string{
		"secret", "{}secret", "{md5}x", "{bcrypt}$2a$10$short",
		"{argon2}$argon2d$v=19$m=16384,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$aGFzaGhhc2g",
		"{argon2}$argon2id$v=19$m=99999999,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$aGFzaGhhc2g",
		"{argon2}$argon2id$v=16$m=16384,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$aGFzaGhhc2g",
		"{pbkdf2}zz", "{pbkdf2}0011",
	} {
		if _, err := password.Parse(stored); err == nil {
			t.Errorf("Parse(%q) accepted it", stored)
		}
	}
	if password.HasID("secret") || !password.HasID("{noop}secret") {
		t.Error("HasID does not tell {id} from none")
	}
}
