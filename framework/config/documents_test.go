package config

import (
	"slices"
	"testing"
)

func TestMultiDocumentFiles(t *testing.T) {
	t.Parallel()
	props := "a=base\nb=base\n#---\napp.config.activate.on-profile=dev\na=dev\n#---\napp.config.activate.on-profile=!dev\nb=not-dev\n"
	yml := "a: base\n---\napp:\n  config:\n    activate:\n      on-profile: dev & cloud\na: dev-cloud\n---\na: last\n"
	checkSettingsCases(t, []settingsCase{
		{"without dev, the !dev document applies", loadCase{files: map[string]string{"application.properties": props}},
			[]wantSetting{{"a", "base", "file [application.properties] line 1", "Config resource 'file [application.properties]' via location 'optional:file:./' (document #0)"},
				{"b", "not-dev", "file [application.properties] line 8", "Config resource 'file [application.properties]' via location 'optional:file:./' (document #2)"}}},
		{"under dev, the dev document applies", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"application.properties": props}},
			[]wantSetting{{"a", "dev", "file [application.properties] line 5", ""}, {"b", "base", "file [application.properties] line 2", ""}}},
		{"a profile activated in the same file's first document", loadCase{files: map[string]string{"application.properties": "app.profiles.active=dev\n" + props}},
			[]wantSetting{{"a", "dev", "file [application.properties] line 6", ""}}},
		{"YAML: a later document overrides an earlier one", loadCase{args: []string{"--app.profiles.active=dev,cloud"}, files: map[string]string{"application.yml": yml}},
			[]wantSetting{{"a", "last", "file [application.yml] line 9 column 4", "Config resource 'file [application.yml]' via location 'optional:file:./' (document #2)"}}},
		{"YAML: dev & cloud needs both", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"application.yml": "a: base\n---\napp.config.activate.on-profile: dev & cloud\na: dev-cloud\n"}},
			[]wantSetting{{"a", "base", "file [application.yml] line 1 column 4", ""}}},
		{"a conditional document in a profile file's location keeps file order", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{
			"application.yml": "a: base\n---\napp.config.activate.on-profile: dev\na: dev-doc\n", "application-dev.properties": "a=dev-file"}},
			[]wantSetting{{"a", "dev-file", "file [application-dev.properties] line 1", ""}}},
		// As in Spring (gh-24990): a profile file's document may apply
		// under a further profile.
		{"a profile file's conditional document applies under its profile", loadCase{args: []string{"--app.profiles.active=test,other"}, files: map[string]string{
			"application-test.properties": "a=test\n#---\napp.config.activate.on-profile=other\nb=test-other\n#---\napp.config.activate.on-profile=none\na=none"}},
			[]wantSetting{{"a", "test", "file [application-test.properties] line 1", ""}, {"b", "test-other", "file [application-test.properties] line 4", ""}}},
	})
}

func TestIncludeMergesAcrossSources(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args:  []string{"--app.profiles.include=cli", "--app.profiles.active=dev"},
		env:   map[string]string{"APP_PROFILES_INCLUDE": "env,cli"},
		files: map[string]string{"application.yml": "app.profiles.include: [yml, env]\n", "config/application.properties": "app.profiles.include=props"},
	})
	if got, want := env.ActiveProfiles(), []string{"cli", "env", "props", "yml", "dev"}; !slices.Equal(got, want) {
		t.Errorf("active profiles %q, want %q", got, want)
	}
}

func TestDocumentErrors(t *testing.T) {
	t.Parallel()
	checkLoadErrors(t, []loadErrorCase{
		{"malformed on-profile expression", loadCase{files: map[string]string{"application.properties": "a=1\n#---\napp.config.activate.on-profile=dev & qa | x\n"}},
			[]string{"app.config.activate.on-profile", "file [application.properties] line 3", "dev & qa | x"}},
		{"active in a conditional document", loadCase{files: map[string]string{"application.yml": "a: 1\n---\napp.config.activate.on-profile: '!dev'\napp.profiles.active: qa\n"}},
			[]string{"app.profiles.active", "file [application.yml] line 4", "on-profile"}},
		{"include in a conditional document, as a YAML list", loadCase{files: map[string]string{"application.yml": "app.config.activate.on-profile: default\napp.profiles.include: [qa]\n"}},
			[]string{"app.profiles.include[0]", "file [application.yml] line 2"}},
		{"group in a profile file", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"application-dev.yml": "app.profiles.group.dev: qa\n"}},
			[]string{"app.profiles.group.dev", "file [application-dev.yml] line 1", "profile-specific"}},
		{"the pre-2.4 app.profiles", loadCase{files: map[string]string{"application.properties": "a=1\napp.profiles=dev\n"}},
			[]string{`app.profiles="dev"`, "file [application.properties] line 2", "replaced with app.config.activate.on-profile"}},
		{"the pre-2.4 app.profiles as a YAML list", loadCase{files: map[string]string{"application.yml": "a: 1\n---\napp:\n  profiles: [dev, qa]\n"}},
			[]string{"app.profiles[0]", "file [application.yml] line 4 column 14", "replaced with app.config.activate.on-profile"}},
		{"the pre-2.4 app.profiles in a document that does not apply", loadCase{files: map[string]string{"application.yml": "a: 1\n---\napp.config.activate.on-profile: prod\napp.profiles: dev\n"}},
			[]string{"app.profiles", "file [application.yml] line 4", "replaced with app.config.activate.on-profile"}},
		{"the pre-2.4 app.profiles in an imported file", loadCase{args: []string{"--app.config.import=extra.properties"}, files: map[string]string{"extra.properties": "app.profiles=dev\n"}},
			[]string{"app.profiles", "file [extra.properties] line 1", "replaced with app.config.activate.on-profile"}},
	})
}

func TestIsLegacyProfilesKey(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]bool{
		"app.profiles": true, "app.profiles[0]": true, "app.profiles[12]": true,
		"spring.profiles[1]": true, "App.Profiles": true, "app.profiles.0": true,
		"app.profiles[]":      true, // an empty index is no element, as in Spring
		"app.profiles.active": false, "app.profiles.include": false, "app.profiles.default": false,
		"app.profiles.group.dev": false, "app.profiles.active[0]": false,
		"app.profiles[0].x": false, "app.profiles[x]": false, "app.profilesx": false, "my.app.profiles": false,
	} {
		if got := isLegacyProfilesKey(appMatch(matchKey(k))); got != want {
			t.Errorf("isLegacyProfilesKey(%q) = %v, want %v", k, got, want)
		}
	}
}
