package config

import "testing"

// wantSetting is what a key should resolve to after Load, and from where.
type wantSetting struct {
	key, value, origin, source string // source "" is not checked
}

// settingsCase is a Load whose settings must be as want says.
type settingsCase struct {
	name string
	c    loadCase
	want []wantSetting
}

func checkSettingsCases(t *testing.T, tests []settingsCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustLoad(t, tt.c)
			for _, w := range tt.want {
				v := get(t, env, w.key)
				if v.Resolved != w.value || v.Origin != w.origin || (w.source != "" && v.Source != w.source) {
					t.Errorf("%s:\ngot  %q from %q in %q\nwant %q from %q in %q", w.key, v.Resolved, v.Origin, v.Source, w.value, w.origin, w.source)
				}
			}
		})
	}
}

func TestSettingsFileForms(t *testing.T) {
	t.Parallel()
	checkSettingsCases(t, []settingsCase{
		{"application.yml in ./config/", loadCase{files: map[string]string{"config/application.yml": "shared: yaml\napp:\n  example:\n    prop-b: 5\n"}},
			[]wantSetting{{"shared", "yaml", "file [config/application.yml] line 1 column 9", "Config resource 'file [config/application.yml]' via location 'optional:file:./config/'"},
				{"app.example.prop-b", "5", "file [config/application.yml] line 4 column 13", ""}}},
		{".properties beats .yml beats .yaml at one location", loadCase{files: map[string]string{
			"application.properties": "a=properties", "application.yml": "a: yml\nb: yml", "application.yaml": "a: yaml\nb: yaml\nc: yaml"}},
			[]wantSetting{{"a", "properties", "file [application.properties] line 1", ""}, {"b", "yml", "file [application.yml] line 2 column 4", ""}, {"c", "yaml", "file [application.yaml] line 3 column 4", ""}}},
		{"a later location's .yaml beats an earlier location's .properties", loadCase{files: map[string]string{"application.properties": "a=dot", "config/application.yaml": "a: config"}},
			[]wantSetting{{"a", "config", "file [config/application.yaml] line 1 column 4", ""}}},
		{"YAML profile file", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"application.properties": "a=base", "config/application-dev.yaml": "a: dev"}},
			[]wantSetting{{"a", "dev", "file [config/application-dev.yaml] line 1 column 4", ""}}},
		{"embedded YAML is not read when absent; embedded properties still are", loadCase{},
			[]wantSetting{{"shared", "embedded", "embedded [application.properties] line 3", ""}}},
		{"./config/*/ after ./config/, subdirectories in lexical order", loadCase{files: map[string]string{
			"config/application.properties": "a=config\nb=config\nc=config", "config/b/application.properties": "a=b\nb=b", "config/a/application.yml": "a: a"}},
			[]wantSetting{{"a", "b", "file [config/b/application.properties] line 1", "Config resource 'file [config/b/application.properties]' via location 'optional:file:./config/*/'"},
				{"b", "b", "file [config/b/application.properties] line 2", ""}, {"c", "config", "file [config/application.properties] line 3", ""}}},
		{"./config/*/ profile files", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"config/application-dev.properties": "a=config-dev", "config/x/application-dev.yml": "a: x-dev"}},
			[]wantSetting{{"a", "x-dev", "file [config/x/application-dev.yml] line 1 column 4", ""}}},
		{"hidden subdirectories of ./config/ are skipped", loadCase{files: map[string]string{"config/application.properties": "a=config", "config/..data/application.properties": "a=hidden"}},
			[]wantSetting{{"a", "config", "file [config/application.properties] line 1", ""}}},
		{"a YAML list binds as a comma-separated one", loadCase{files: map[string]string{"application.yml": "hosts:\n  - a\n  - b\n"}},
			[]wantSetting{{"hosts", "a,b", "file [application.yml] line 2 column 5", ""}}},
		{"a higher source's list replaces a lower one's whole", loadCase{files: map[string]string{"application.yml": "hosts: [a, b, c]", "config/application.properties": "hosts[0]=x"}},
			[]wantSetting{{"hosts", "x", "file [config/application.properties] line 1", ""}}},
		{"an empty environment variable is set", loadCase{env: map[string]string{"SHARED": ""}},
			[]wantSetting{{"shared", "", "environment variable SHARED", "systemEnvironment"}}},
	})
}

func TestMalformedYAMLStopsLoad(t *testing.T) {
	t.Parallel()
	checkLoadErrors(t, []loadErrorCase{
		{"unclosed list", loadCase{files: map[string]string{"config/application.yml": "a: 1\nb: [\n"}}, []string{"file [config/application.yml]", "line 3"}},
		{"a tag that names a type", loadCase{files: map[string]string{"application.yaml": "a: 1\nb: !!java.net.URL x\n"}}, []string{"file [application.yaml]", "line 2 column 4", "!!java.net.URL"}},
	})
}
