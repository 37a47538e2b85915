package config

import (
	"fmt"
	"slices"
	"strings"
)

// SettingError reports a setting that cannot be used: its key, its value,
// where the value came from and why it is wrong.
type SettingError struct {
	Value  Value
	Reason string
	// positional says that Reason has its secrets masked already, where
	// they stand: the placeholder resolver's messages, which know which of
	// their text is a secret's. Shown masks nothing more in them.
	positional bool
}

func (e *SettingError) Error() string {
	value, origin, reason := e.Shown()
	return fmt.Sprintf("setting %s=%q from %s is invalid: %s", e.Value.Key, value, origin, reason)
}

// Shown returns the setting's value, origin and reason as they may be
// printed, every secret masked (as Mask), by position wherever the
// structure of the text says where it is:
//
//   - the value: whole when the key holds a secret; otherwise the
//     passwords of a connection string in it and the defaults of its
//     placeholders that name secrets (see Sanitize);
//   - the origin: without the value it quotes (a command-line argument's),
//     when the value has a secret in it;
//   - the reason: where it quotes the value, raw or resolved (a parser's
//     "cannot parse ..."), the value as the Value line shows it.
//
// A reason may also quote a secret where no structure marks it: a
// parser or driver that prints its input back ("cannot parse ..."). Only
// there is text replaced: each secret the setting holds or took from
// another (x=${db.password}) is masked wherever the reason holds it,
// except one that the printed value or origin shows anyway: a password
// that is also the user or database name (postgres) would otherwise
// mask that name everywhere, hiding nothing that is not already shown.
func (e *SettingError) Shown() (value, origin, reason string) {
	value, origin, reason = Sanitize(e.Value.Key, e.Value.Raw), e.Value.Origin, e.Reason
	masked := value != e.Value.Raw || len(e.Value.secrets) > 0 || len(Passwords(e.Value.Resolved)) > 0
	if masked {
		origin = OriginWithoutValue(origin)
	}
	if e.positional {
		return value, origin, reason
	}
	reason = quotedMasked(reason, e.Value.Raw, value)
	resolved := MaskPasswords(e.Value.Resolved)
	if Sensitive(e.Value.Key) {
		resolved = Mask
	}
	reason = quotedMasked(reason, e.Value.Resolved, resolved)
	secrets := slices.Concat(e.Value.secrets, Passwords(e.Value.Raw), Passwords(e.Value.Resolved))
	return value, origin, maskQuoted(reason, secrets, value+"\n"+origin)
}

// quotedMasked returns text with each occurrence of value, which it
// quotes, replaced by masked, value as it may be shown.
func quotedMasked(text, value, masked string) string {
	if value == "" || value == masked {
		return text
	}
	return strings.ReplaceAll(text, value, masked)
}

// maskQuoted masks each of secrets wherever text holds it, longest first,
// except those that shown, text printed beside it in clear, holds: see
// SettingError.Shown for when this is the only way.
func maskQuoted(text string, secrets []string, shown string) string {
	secrets = slices.Clone(secrets)
	slices.SortStableFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, secret := range secrets {
		if secret == "" || secret == Mask || containsWord(shown, secret) {
			continue
		}
		text = strings.ReplaceAll(text, secret, Mask)
	}
	return text
}

// containsWord reports whether s holds word as a whole: not inside a
// longer run of letters and digits, as a user or a database name stands
// in a connection string. A secret that is merely part of other text
// (the password "a" in "argument") is not shown by it.
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		if (start == 0 || !isAlnum(s[start-1]) || !isAlnum(word[0])) &&
			(end == len(s) || !isAlnum(s[end]) || !isAlnum(word[len(word)-1])) {
			return true
		}
		i = start + 1
	}
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// MaskQuoted returns text, an error message about a connection string
// (a driver's), with its secrets masked: by position, the passwords of
// the connection strings it quotes (MaskPasswords); then, as a driver
// may print its input back where nothing marks the password, each of
// secrets wherever text holds it, except one that shown (text printed
// in clear beside it, such as the connection string with its password
// masked) holds anyway: a password that is also the user's or the
// database's name would otherwise mask that name, and hide nothing.
func MaskQuoted(text string, secrets []string, shown string) string {
	return maskQuoted(MaskPasswords(text), secrets, shown)
}
