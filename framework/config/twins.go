package config

import "strings"

// Spring Boot names its own settings spring.*; here they are app.*
// (spring.datasource.url is app.datasource.url), so that a service's
// settings and Spring's share one root. A Spring user's files, arguments
// and variables still say spring.*, so a source that does not set app.X
// answers for it with its spring.X, when it sets that: spring.X is read
// as app.X, its twin, wherever app.X is read (a binding, a placeholder,
// the loader's own keys, profile activation included), in any of the
// forms relaxed binding takes (relaxed.go). Within one source app.X, in
// any form, wins over spring.X; across sources the usual precedence
// decides, so spring.X on the command line wins over app.X in a file.
// Listings show the key as it was written.
const (
	appPrefix    = "app."
	springPrefix = "spring."
)

// SpringTwin returns spring.X for the key app.X, and whether key is an
// app. key.
func SpringTwin(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, appPrefix)
	if !ok || rest == "" {
		return "", false
	}
	return springPrefix + rest, true
}

// AppTwin returns app.X for the key spring.X, and whether key is a
// spring. key.
func AppTwin(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, springPrefix)
	if !ok || rest == "" {
		return "", false
	}
	return appPrefix + rest, true
}

// asApp returns key as the app. key it is read as: app.X for spring.X,
// key itself otherwise.
func asApp(key string) string {
	if app, ok := AppTwin(key); ok {
		return app
	}
	return key
}

// namesOf returns the keys a source may set key under, in the order a
// source is searched: key, then its spring. twin.
func namesOf(key string) []string {
	if twin, ok := SpringTwin(key); ok {
		return []string{key, twin}
	}
	return []string{key}
}
