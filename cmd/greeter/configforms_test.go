package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes files (path under dir → content) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// winner returns the value of a setting as /actuator/env/{name} shows it,
// with the name and origin of the source that sets it.
func winner(t *testing.T, s *service, name string) (value, source, origin string) {
	t.Helper()
	r := s.do(t, "GET", "/actuator/env/"+name, "")
	var d struct {
		Property struct {
			Source string `json:"source"`
			Value  string `json:"value"`
		} `json:"property"`
		PropertySources []struct {
			Name     string `json:"name"`
			Property *struct {
				Origin string `json:"origin"`
			} `json:"property"`
		} `json:"propertySources"`
	}
	if err := json.Unmarshal([]byte(r.body), &d); r.status != 200 || err != nil {
		t.Fatalf("GET /actuator/env/%s: %d %s", name, r.status, r.body)
	}
	i := slices.IndexFunc(d.PropertySources, func(p struct {
		Name     string `json:"name"`
		Property *struct {
			Origin string `json:"origin"`
		} `json:"property"`
	}) bool {
		return p.Property != nil
	})
	if i < 0 {
		t.Fatalf("/actuator/env/%s names no source: %s", name, r.body)
	}
	return d.Property.Value, d.Property.Source, d.PropertySources[i].Property.Origin
}

// TestSpringConfigurationForms starts the program with the forms of
// configuration Spring users bring: a YAML file with a profile document,
// an import, a config tree and APP_APPLICATION_JSON, each taking effect
// and shown with its origin.
func TestSpringConfigurationForms(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"application.properties": "app.config.import=optional:missing.properties,extra.properties,configtree:tree/\napp.example.prop-b=1\n",
		"extra.properties":       "app.greeting=Hello from extra.properties\n",
		"tree/app/greeting":      "Hello from a tree\n",
		"tree/tree/password":     "tree-s3cret\n",
		"config/application.yml": "app:\n  example:\n    prop-a: from YAML\n---\napp.config.activate.on-profile: dev\napp:\n  greeting: Hello from the dev document\n",
	})
	t.Chdir(dir)
	json := map[string]string{"APP_APPLICATION_JSON": `{"app": {"example": {"prop-b": 7}}, "json": {"hosts": ["a", "b"], "password": "json-s3cret"}}`}

	s := start(t, exposeEnv, json)
	if got := s.do(t, "GET", "/api/hello", ""); got.body != `{"text":"Hello from a tree"}` {
		t.Errorf("/api/hello = %s, want the config tree's greeting (imported after extra.properties)", got.body)
	}
	tests := []struct{ key, value, source, origin string }{
		{"app.example.prop-a", "from YAML", "Config resource 'file [config/application.yml]' via location 'optional:./config/' (document #0)", "file [config/application.yml] line 3 column 13"},
		{"app.greeting", "Hello from a tree", "Config resource 'config tree [tree]' via location 'configtree:tree/'", "file [tree/app/greeting]"},
		{"tree.password", "******", "Config resource 'config tree [tree]' via location 'configtree:tree/'", "file [tree/tree/password]"},
		{"app.example.prop-b", "7", "app.application.json", "environment variable APP_APPLICATION_JSON"},
		{"json.hosts[1]", "b", "app.application.json", "environment variable APP_APPLICATION_JSON"},
	}
	for _, tt := range tests {
		value, source, origin := winner(t, s, tt.key)
		if value != tt.value || source != tt.source || origin != tt.origin {
			t.Errorf("%s:\ngot  %q from %q at %q\nwant %q from %q at %q", tt.key, value, source, origin, tt.value, tt.source, tt.origin)
		}
	}
	if r := s.do(t, "GET", "/actuator/env", ""); strings.Contains(r.body, "s3cret") || !strings.Contains(r.body, "extra.properties") {
		t.Errorf("/actuator/env should list extra.properties and mask the passwords of the tree and the JSON:\n%s", r.body)
	}

	dev := start(t, append([]string{"--app.profiles.active=dev"}, exposeEnv...), json)
	if got := dev.do(t, "GET", "/api/hello", ""); got.body != `{"text":"Hello from the dev document"}` {
		t.Errorf("with dev: /api/hello = %s, want the dev document's greeting", got.body)
	}
	if _, source, origin := winner(t, dev, "app.greeting"); source != "Config resource 'file [config/application.yml]' via location 'optional:./config/' (document #1)" || origin != "file [config/application.yml] line 7 column 13" {
		t.Errorf("with dev: app.greeting from %q at %q, want the dev document", source, origin)
	}
}

// TestBadConfigurationFormsStopStartup: each bad form stops start-up with
// a report naming the setting or file and the line, and no secret.
func TestBadConfigurationFormsStopStartup(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		env   map[string]string
		want  []string
	}{
		{"malformed YAML", map[string]string{"config/application.yml": "app:\n  greeting: [unclosed\n"},
			nil, []string{"reading file [config/application.yml]", "line 3"}},
		{"malformed on-profile expression", map[string]string{"application.properties": "a=1\n#---\napp.config.activate.on-profile=dev & qa | cloud\n"},
			nil, []string{"Property: app.config.activate.on-profile", "Origin: file [application.properties] line 3", "Reason: "}},
		{"missing import", map[string]string{"application.yml": "app:\n  config:\n    import: secrets.properties\n"},
			nil, []string{"Property: app.config.import", `Value: "secrets.properties"`, "Origin: file [application.yml] line 3 column 13", "optional:"}},
		{"profile activated in a profile document", map[string]string{"application.yml": "app.config.activate.on-profile: default\napp.profiles.active: dev\n"},
			nil, []string{"Property: app.profiles.active", "Origin: file [application.yml] line 2 column 22"}},
		{"invalid APP_APPLICATION_JSON", nil, map[string]string{"APP_APPLICATION_JSON": `{"app": {"datasource": {"password": "hunter2"}`},
			[]string{"Property: app.application.json", "Origin: environment variable APP_APPLICATION_JSON", "not valid JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			t.Chdir(dir)
			report, err := failToStart(t, []string{"--server.port=0"}, tt.env)
			if err == nil {
				t.Fatal("the service started")
			}
			for _, w := range tt.want {
				if !strings.Contains(report, w) {
					t.Errorf("the report lacks %q:\n%s", w, report)
				}
			}
			if strings.Contains(report, "hunter2") {
				t.Errorf("the report shows a secret:\n%s", report)
			}
		})
	}
}

// TestEmptyVariableIsSet: a variable set to "" overrides the files, as in
// Spring, rather than counting as unset.
func TestEmptyVariableIsSet(t *testing.T) {
	s := start(t, exposeEnv, map[string]string{"APP_EXAMPLE_PROPA": ""})
	if value, source, _ := winner(t, s, "app.example.prop-a"); value != "" || source != "systemEnvironment" {
		t.Errorf("app.example.prop-a = %q from %q, want the empty variable", value, source)
	}
}
