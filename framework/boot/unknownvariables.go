package boot

// The environment variables among the keys that nothing reads
// (unknown.go): which of the process's variables are looked at, which
// key each sets, and the hint for one that is misspelt. A process's
// environment holds much that is not meant for the service (a
// container's APP_HOME, Kubernetes' service links), so a variable counts
// only where it is unlikely to be anything but a setting.

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// indexVariables fills in variables and parents, the first time a
// variable is checked: most start-ups check none under the framework's
// roots, and a family of 100,000s of keys is not named twice for nothing.
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
	names := config.EnvNames(key)
	if twin, ok := config.SpringTwin(key); ok {
		names = append(names, config.EnvNames(twin)...)
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
		for _, p := range config.EnvNames(strings.TrimSuffix(f, ".")) {
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
// is close to nothing read, is still meant as a setting. Under SERVER_,
// MANAGEMENT_, LOGGING_ and SPRING_ every variable is: those roots are
// Spring Boot's. APP_ and a service's own root are words that images set
// for themselves (APP_HOME, APP_VERSION), so there a variable counts only
// under a group of settings the service reads (APP_DATASOURCE_...).
func (idx *keyIndex) takesVariable(name string) bool {
	for _, root := range []string{"SERVER_", "MANAGEMENT_", "LOGGING_", "SPRING_"} {
		if strings.HasPrefix(name, root) {
			return true
		}
	}
	return hasAnyPrefix(name, idx.parents)
}

// ignoredVariableFamily is ignoredFamily for an environment variable:
// SPRING_JPA_OPEN_IN_VIEW is of spring.jpa.*.
func ignoredVariableFamily(name string) (string, bool) {
	for _, f := range ignoredFamilies {
		forms := []string{f}
		if twin, ok := config.SpringTwin(f); ok {
			forms = append(forms, twin)
		}
		for _, form := range forms {
			for _, p := range config.EnvNames(strings.TrimSuffix(form, ".")) {
				if name == p || strings.HasPrefix(name, p+"_") {
					return form + "*", true
				}
			}
		}
	}
	return "", false
}

// variableHint is keyHint for an environment variable.
func (idx *keyIndex) variableHint(name string) string {
	if rest, ok := strings.CutPrefix(name, "SPRING_REDIS_"); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it SPRING_DATA_REDIS_" + rest
	}
	if rest, ok := strings.CutPrefix(name, "APP_REDIS_"); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it APP_DATA_REDIS_" + rest
	}
	near, ok := nearest(name, slices.Collect(maps.Keys(idx.variables)))
	if !ok {
		return ""
	}
	return "did you mean " + near + " (" + idx.variables[near] + ")?"
}

// processVariableNames are the names of the process's environment
// variables.
func processVariableNames(environ []string) func() []string {
	return func() []string {
		names := make([]string, 0, len(environ))
		for _, kv := range environ {
			if name, _, ok := strings.Cut(kv, "="); ok && name != "" {
				names = append(names, name)
			}
		}
		return names
	}
}
