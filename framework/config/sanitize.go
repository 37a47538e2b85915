package config

import "strings"

// Mask is what a secret is shown as.
const Mask = "******"

// sensitiveSuffixes are the endings of keys that hold secrets, as Spring
// Boot's sanitiser has long listed them: a key ending in one of these is
// never shown, whoever asks.
var sensitiveSuffixes = []string{"password", "secret", "key", "token"}

// Sensitive reports whether key holds a secret: its name ends in
// password, secret, key or token, or mentions credentials, in any case
// and in either spelling (app.datasource.password, APP_DATASOURCE_PASSWORD),
// or it is app.application.json (APP_APPLICATION_JSON, or their spring.
// twins), a JSON document of
// settings that may hold any of these. The HTTP headers a service is told
// to send are secrets too, whatever their names: a key that ends in
// headers, or one of a map of headers
// (management.opentelemetry.tracing.export.otlp.headers.authorization,
// MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_HEADERS_AUTHORIZATION,
// OTEL_EXPORTER_OTLP_HEADERS),
// since such headers carry the credentials of the system they go to
// (Authorization, an API key) under any name.
func Sensitive(key string) bool {
	k := strings.ToLower(key)
	if asApp(k) == keyApplicationJSON || k == "app_application_json" || k == "spring_application_json" {
		// A whole settings document, which may hold secrets under keys of
		// its own; those keys are masked by these rules once it is read.
		return true
	}
	if strings.Contains(k, "credentials") || strings.HasSuffix(k, "headers") ||
		strings.Contains(k, ".headers.") || strings.Contains(k, "_headers_") {
		return true
	}
	// Without - and _, as a key may be written in any of its relaxed forms
	// (app.datasource.pass-word is app.datasource.password; relaxed.go).
	k = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return -1
		}
		return r
	}, k)
	for _, s := range sensitiveSuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// Sanitize returns value as it may be shown for key: Mask for a
// sensitive key, and otherwise the value with every password it holds
// masked (see MaskPasswords), so that a connection URL or DSN can be
// shown without what unlocks it, and the default of each placeholder
// that names a secret (${db.password:******}).
func Sanitize(key, value string) string {
	if Sensitive(key) {
		return Mask
	}
	return showValue(value, false)
}

// MaskPasswords returns s with every password it may hold replaced by
// Mask, whatever key it is the value of: the password of a URL's
// user-info (postgres://app:******@db/shop), the value of a query
// parameter whose name is Sensitive (?password=******, ?sslpassword=,
// ;password= as JDBC drivers take it) and the value of a Sensitive
// keyword of a libpq key/value DSN (host=db password='******'). Log
// lines and reports pass connection strings through it.
//
// A value that does not parse as a URL is where a password leaks most
// easily (postgres//app:pw@db, a typo, is printed back in the report that
// refuses it), so nothing here parses: see passwordSpans.
func MaskPasswords(s string) string {
	spans := passwordSpans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString(Mask)
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// Passwords returns the passwords that MaskPasswords masks in s, so that
// a report can also mask them where an error message quotes them.
func Passwords(s string) []string {
	var out []string
	for _, sp := range passwordSpans(s) {
		out = append(out, s[sp.start:sp.end])
	}
	return out
}

// OriginWithoutValue returns origin without the value it may quote: a
// command-line argument's origin is the whole argument, value and all.
func OriginWithoutValue(origin string) string {
	if arg, ok := strings.CutPrefix(origin, commandLineOrigin); ok {
		key, _, _ := strings.Cut(arg, "=")
		return commandLineOrigin + key
	}
	return origin
}

const commandLineOrigin = "command-line argument "
