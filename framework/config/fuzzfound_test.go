package config

// Regressions from the differential fuzzing of settings against Spring
// Boot 4.1.2 (conformance/settingsfuzz, issue 36): each test is a case
// the fuzzer found and minimized, where the framework resolved otherwise
// than Spring, and asserts what Spring does.

import (
	"slices"
	"testing"
	"testing/fstest"
)

// A key written twice in one YAML map is refused, as Spring's loader
// (SnakeYAML with duplicate keys disallowed) refuses it; the same key in
// two documents, or once flat and once nested, is not a duplicate.
func TestFuzzFoundYAMLDuplicateKey(t *testing.T) {
	_, err := loadCase{embedded: fstest.MapFS{}, files: map[string]string{
		"application.yaml": "k.d: one\nk.d: two\n",
	}}.load(t)
	if !contains(err, `the key "k.d" is already in this map (line 1)`) || !contains(err, "application.yaml") {
		t.Fatalf("Load: %v, want the duplicate key refused, naming the file and both lines", err)
	}
	_, err = loadCase{embedded: fstest.MapFS{}, files: map[string]string{
		"application.yml": "k:\n  a: 1\n  b:\n    c: 2\n  a: 3\n",
	}}.load(t)
	if !contains(err, `the key "k.a" is already in this map`) {
		t.Fatalf("Load: %v, want the nested duplicate refused under its full key", err)
	}
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{}, files: map[string]string{
		"application.yml": "k.a: 1\nk:\n  a: 2\n---\nk.a: 3\n",
	}})
	if v := get(t, env, "k.a"); v.Resolved != "3" {
		t.Fatalf("k.a = %q, want 3 (the later document)", v.Resolved)
	}
}

// A document with app.config.activate.on-profile may not set the keys
// that decide profiles even when its condition does not hold, as Spring
// refuses spring.profiles.include there (InactiveConfigDataAccessException).
func TestFuzzFoundProfileKeyInInactiveConditionalDocument(t *testing.T) {
	for _, key := range []string{"spring.profiles.include", "spring.profiles.active", "app.profiles.default", "spring.profiles.group.g"} {
		_, err := loadCase{embedded: fstest.MapFS{}, files: map[string]string{
			"application.yaml": "spring.config.activate.on-profile: c\n" + key + ": c,a\n",
		}}.load(t)
		if !contains(err, "profiles can only be set on the command line") || !contains(err, key) {
			t.Errorf("%s: Load: %v, want it refused though profile c is not active", key, err)
		}
	}
}

// A config tree's value is read as written: Spring's binder resolves
// placeholders only in values that are strings. A placeholder elsewhere
// that names the tree's key resolves the value it finds.
func TestFuzzFoundConfigTreeValueIsLiteral(t *testing.T) {
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{}, files: map[string]string{
		"tree/k/b":               "${k.a:td}",
		"application.properties": "app.config.import=configtree:tree/\nk.c=<${k.b}>\n",
	}})
	if v := get(t, env, "k.b"); v.Resolved != "${k.a:td}" {
		t.Errorf("k.b = %q, want ${k.a:td} as written", v.Resolved)
	}
	if v := get(t, env, "k.c"); v.Resolved != "<td>" {
		t.Errorf("k.c = %q, want <td>: a placeholder naming the tree's key resolves what it holds", v.Resolved)
	}
}

// SPRING_APPLICATION_JSON is parsed as written: a placeholder in one of
// its values resolves when the value is read, against the settings files
// too, not against what was known before any file was read.
func TestFuzzFoundApplicationJSONPlaceholdersResolveWhenRead(t *testing.T) {
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{},
		env:   map[string]string{"SPRING_APPLICATION_JSON": `{"k":{"b":"${k.a:jd}"}}`},
		files: map[string]string{"application.yaml": "k.a: v8\n"},
	})
	if v := get(t, env, "k.b"); v.Resolved != "v8" {
		t.Errorf("k.b = %q, want v8 (k.a from application.yaml)", v.Resolved)
	}
	// A placeholder that nothing resolves in the JSON no longer stops
	// start-up: it is kept as written when read, as any other value's.
	env = mustLoad(t, loadCase{embedded: fstest.MapFS{},
		env: map[string]string{"APP_APPLICATION_JSON": `{"k":{"c":"${nowhere}"}}`},
	})
	if v := get(t, env, "k.c"); v.Resolved != "${nowhere}" {
		t.Errorf("k.c = %q, want ${nowhere} kept", v.Resolved)
	}
}

// The default profiles are expanded by their groups, as Spring's Profiles
// expands them, and stand in as the active ones.
func TestFuzzFoundDefaultProfilesExpandGroups(t *testing.T) {
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{}, files: map[string]string{
		"config/application.yml":   "spring.profiles.default: g\n---\nspring.profiles.group.g: a,b\n",
		"config/application-b.yml": "k.a: from b\n",
	}})
	if got := env.DefaultProfiles(); !slices.Equal(got, []string{"g", "a", "b"}) {
		t.Errorf("DefaultProfiles() = %v, want [g a b]", got)
	}
	if got := env.ActiveProfiles(); !slices.Equal(got, []string{"g", "a", "b"}) {
		t.Errorf("ActiveProfiles() = %v, want [g a b]", got)
	}
	if v := get(t, env, "k.a"); v.Resolved != "from b" {
		t.Errorf("k.a = %q, want from b: the group's member's file is read", v.Resolved)
	}
}

// An argument given twice takes both values, joined by a comma, as
// Spring's command-line source joins an option's values; so two
// --app.profiles.active activate the profiles of both.
func TestFuzzFoundRepeatedArgumentsJoin(t *testing.T) {
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{},
		args: []string{"--k.a=${k.b:v10}", "--k.a=p", "--k.c=3", "--k.c=", "--spring.profiles.active=a,b", "--spring.profiles.active=g"},
	})
	if v := get(t, env, "k.a"); v.Resolved != "v10,p" {
		t.Errorf("k.a = %q, want v10,p", v.Resolved)
	}
	if v := get(t, env, "k.c"); v.Resolved != "3," {
		t.Errorf("k.c = %q, want \"3,\"", v.Resolved)
	}
	if got := env.ActiveProfiles(); !slices.Equal(got, []string{"a", "b", "g"}) {
		t.Errorf("ActiveProfiles() = %v, want [a b g]", got)
	}
}

// An escaped placeholder, \${name}, is the text ${name}, as Spring Boot 4
// resolves with Spring Framework's escape character.
func TestFuzzFoundEscapedPlaceholder(t *testing.T) {
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{},
		env:   map[string]string{"K_B": `\${k.c}`},
		args:  []string{`--k.c=\${k.c}`},
		files: map[string]string{"application.yaml": "k.a: 'x-\\${k.d}'\nk.d: ${k.b}\n"},
	})
	for key, want := range map[string]string{"k.a": "x-${k.d}", "k.b": "${k.c}", "k.c": "${k.c}", "k.d": "${k.c}"} {
		if v := get(t, env, key); v.Resolved != want {
			t.Errorf("%s = %q, want %q", key, v.Resolved, want)
		}
	}
}

// A placeholder does not find a list held element by element (YAML's
// [b, c], or key[0]=b): Spring looks the property up by its name.
// Binding the key still reads the list.
func TestFuzzFoundPlaceholderDoesNotFindList(t *testing.T) {
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{}, files: map[string]string{
		"config/application.yaml": "spring.profiles.active: [b, c]\n",
		"application-c.yml":       "k.c: ${spring.profiles.active:none}\n",
	}})
	if got := env.ActiveProfiles(); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("ActiveProfiles() = %v, want [b c]", got)
	}
	if v := get(t, env, "k.c"); v.Resolved != "none" {
		t.Errorf("k.c = %q, want none", v.Resolved)
	}
}

// An empty entry in a list of profiles is refused, as Spring Boot 4's
// profile validation refuses it; an empty value is no profile.
func TestFuzzFoundEmptyProfileRefused(t *testing.T) {
	for _, c := range []loadCase{
		{args: []string{"--spring.profiles.active=a,,b"}},
		{env: map[string]string{"SPRING_PROFILES_DEFAULT": "a,"}},
		{args: []string{"--spring.profiles.include= "}},
		{args: []string{"--spring.profiles.group.g=a,,b", "--spring.profiles.active=g"}},
	} {
		c.embedded = fstest.MapFS{}
		if _, err := c.load(t); !contains(err, "invalid empty profile") {
			t.Errorf("%v %v: Load: %v, want an empty profile refused", c.args, c.env, err)
		}
	}
	env := mustLoad(t, loadCase{embedded: fstest.MapFS{}, args: []string{"--spring.profiles.active="}})
	if got := env.ExplicitProfiles(); len(got) != 0 {
		t.Errorf("ExplicitProfiles() = %v, want none", got)
	}
}
