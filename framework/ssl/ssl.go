// Package ssl reads what Spring Boot's org.springframework.boot.ssl
// reads: SSL bundles, a named key store and trust store
// (app.ssl.bundle.pem.<name>.* from PEM files, app.ssl.bundle.jks.<name>.*
// from a PKCS#12 or JKS key store) that a setting names
// (server.ssl.bundle=<name>, app.data.redis.ssl.bundle=<name>) instead of
// repeating them, and the files that TLS settings name (server.ssl.*'s
// certificate or key-store). Every subsystem that speaks TLS (the server,
// the Redis client) reads its stores through it, so that a store that
// cannot be read is refused the same way, naming the setting, its origin
// and why, and a password is never shown.
package ssl

import (
	"errors"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// A Setting is one setting of a store: its key, for the refusal that
// names it, and its value ("" when unset).
type Setting struct{ Key, Value string }

// Set reports whether the setting has a value.
func (s Setting) Set() bool { return s.Value != "" }

// BindSetting binds key as a string, with its meaning.
func BindSetting(b *config.Binder, key, meaning string) Setting {
	return Setting{Key: key, Value: config.Bind(b, key, "", config.String, meaning)}
}

// A Fault is a setting that cannot be served, and why. Reading a store
// returns its faults; at start-up each is refused (Refuse), later, when a
// changed file is read again, they only keep what was served in place.
type Fault struct{ Key, Reason string }

func (f *Fault) Error() string { return f.Key + ": " + f.Reason }

func fault(s Setting, reason string) error { return &Fault{Key: s.Key, Reason: reason} }

// Refuse records every fault in err (errors.Join's, nested too) with
// b, each under its setting. An error that is not a fault is not
// expected; it is refused under key.
func Refuse(b *config.Binder, key string, err error) {
	if err == nil {
		return
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			Refuse(b, key, e)
		}
		return
	}
	if f, ok := errors.AsType[*Fault](err); ok {
		b.Refuse(f.Key, f.Reason)
	} else {
		b.Refuse(key, err.Error())
	}
}

// scrub removes the passwords from a library's message, should it ever
// quote one: the reasons of refusals are shown, and a password that the
// key's name does not mark (a store's password is, by its key) must not
// leak through them. Passwords of fewer than four characters are left,
// since replacing them would garble the message more than hide them.
func scrub(msg string, passwords ...string) string {
	for _, p := range passwords {
		if len(p) >= 4 {
			msg = strings.ReplaceAll(msg, p, config.Mask)
		}
	}
	return msg
}
