package config

// The environment variables among the keys that nothing reads
// (keycheck.go): which of the process's variables are looked at, which
// key each sets, and the hint for one that is misspelt. A process's
// environment holds much that is not meant for the service (a
// container's APP_HOME, Kubernetes' service links), so a variable counts
// only where it is unlikely to be anything but a setting.

import (
	"maps"
	"regexp"
	"slices"
	"strings"
)

// indexVariables fills in variables and parents, the first time a
// variable is checked: most start-ups check none under the roots, and a
// family of 100,000s of keys is not named twice for nothing.
func (idx *keyIndex) indexVariables() {
	if idx.variables != nil {
		return
	}
	idx.variables = map[string]string{}
	for _, k := range idx.keys {
		for _, name := range variableNames(k) {
			idx.variables[name] = k
		}
		if i := strings.LastIndex(k, "."); strings.Contains(k[:max(i, 0)], ".") {
			for _, p := range variableNames(k[:i]) {
				idx.parents = append(idx.parents, p+"_")
			}
		}
	}
}

// variableNames are the environment variables that set key: its own and
// its spring. twin's.
func variableNames(key string) []string {
	names := EnvNames(key)
	if twin, ok := SpringTwin(key); ok {
		names = append(names, EnvNames(twin)...)
	}
	return names
}

// ignoresVariable reports whether the variable name is none of the
// service's business, or read as a member of a family: the environment
// holds much that is not meant for the service. Variables count only
// under the roots' names (SERVER_, APP_, the service's own), and not
// those Kubernetes sets for a Service of the same name (a Service named
// server gives SERVER_PORT=tcp://..., SERVER_SERVICE_HOST...).
func (idx *keyIndex) ignoresVariable(name string) bool {
	root, _, _ := strings.Cut(name, "_")
	if !slices.Contains(idx.prefixes, strings.ToLower(root)+".") || kubernetesLink.MatchString(name) {
		return true
	}
	for _, f := range idx.families {
		for _, p := range EnvNames(strings.TrimSuffix(f, ".")) {
			if strings.HasPrefix(name, p+"_") {
				return true
			}
		}
	}
	return false
}

// kubernetesLink matches the variables Kubernetes sets for each Service
// of the namespace (its "service links"): <NAME>_SERVICE_HOST,
// <NAME>_SERVICE_PORT[_<port>], <NAME>_PORT and
// <NAME>_PORT_<number>_<protocol>[_ADDR|_PORT|_PROTO].
var kubernetesLink = regexp.MustCompile(`^[A-Z0-9_]+_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT|PORT_\d+_(TCP|UDP|SCTP)(_ADDR|_PORT|_PROTO)?)$`)

// takesVariable reports whether a variable that nothing reads, and that
// is close to nothing read, is still meant as a setting: under a prefix
// that holds nothing but settings every variable is; elsewhere only one
// under a group of settings the service reads (APP_DATASOURCE_...).
func (idx *keyIndex) takesVariable(name string) bool {
	return hasAnyPrefix(name, idx.check.SettingsOnlyVariables) || hasAnyPrefix(name, idx.parents)
}

// ignoredVariableFamily is ignoredFamily for an environment variable:
// SPRING_JPA_OPEN_IN_VIEW is of spring.jpa.*.
func (idx *keyIndex) ignoredVariableFamily(name string) (string, bool) {
	for _, f := range idx.check.IgnoredFamilies {
		if form, ok := VariableUnder(name, f); ok {
			return form + "*", true
		}
	}
	return "", false
}

// VariableUnder reports whether the environment variable name sets a key
// of the family prefix (app.security.user.), or of its spring. twin, and
// returns that form of the prefix: APP_SECURITY_USER_PASSWORD and
// SPRING_SECURITY_USER_PASSWORD are both under app.security.user.
func VariableUnder(name, prefix string) (form string, ok bool) {
	forms := []string{prefix}
	if twin, ok := SpringTwin(prefix); ok {
		forms = append(forms, twin)
	}
	for _, form := range forms {
		for _, p := range EnvNames(strings.TrimSuffix(form, ".")) {
			if name == p || strings.HasPrefix(name, p+"_") {
				return form, true
			}
		}
	}
	return "", false
}

// variableHint is keyHint for an environment variable.
func (idx *keyIndex) variableHint(name string) string {
	if idx.check.VariableHint != nil {
		if hint := idx.check.VariableHint(name); hint != "" {
			return hint
		}
	}
	near, ok := nearest(name, slices.Collect(maps.Keys(idx.variables)))
	if !ok {
		return ""
	}
	return "did you mean " + near + " (" + idx.variables[near] + ")?"
}
