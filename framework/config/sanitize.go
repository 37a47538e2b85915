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
// (management.otlp.tracing.headers.authorization,
// MANAGEMENT_OTLP_TRACING_HEADERS_AUTHORIZATION, OTEL_EXPORTER_OTLP_HEADERS),
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
	for _, s := range sensitiveSuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// Sanitize returns value as it may be shown for key: Mask for a
// sensitive key, and otherwise the value with the password of a URL's
// user-info masked (postgres://app:******@db/shop), so that a
// connection URL can be shown without what unlocks it.
func Sanitize(key, value string) string {
	if Sensitive(key) {
		return Mask
	}
	return sanitizeURL(value)
}

// sanitizeURL masks the password in value when value is a URL that has
// one: in its user-info, and in a query parameter whose name is
// Sensitive (postgres://db/shop?password=..., as pgx and JDBC drivers
// take it). It splits by hand rather than with url.Parse, which refuses
// values that drivers take (a password with an unescaped '/' or '#') and
// would then let the password through. Everything up to the last '@' is
// taken as the user-info: where a '@' appears later, in the path or the
// query, more is masked than needed, never less.
func sanitizeURL(value string) string {
	scheme, rest, ok := strings.Cut(value, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/?#@ ") {
		return value
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		if user, _, hasPassword := strings.Cut(rest[:at], ":"); hasPassword {
			rest = user + ":" + Mask + rest[at:]
		}
	}
	return scheme + "://" + sanitizeQuery(rest)
}

// sanitizeQuery masks the values of the parameters of rest (a URL after
// its scheme) whose names are Sensitive: those of the query, after '?'
// and between '&', and those that JDBC drivers take between ';'
// (jdbc:sqlserver://db;user=app;password=...). What comes before the
// first of these separators, the host and the path, is left as it is.
func sanitizeQuery(rest string) string {
	rest, fragment, hasFragment := strings.Cut(rest, "#")
	var b strings.Builder
	start := 0
	for i := 0; i <= len(rest); i++ {
		if i < len(rest) && rest[i] != '?' && rest[i] != '&' && rest[i] != ';' {
			continue
		}
		param := rest[start:i]
		if name, _, hasValue := strings.Cut(param, "="); start > 0 && hasValue && Sensitive(name) {
			param = name + "=" + Mask
		}
		b.WriteString(param)
		if i < len(rest) {
			b.WriteByte(rest[i])
		}
		start = i + 1
	}
	if hasFragment {
		b.WriteString("#" + fragment)
	}
	return b.String()
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
