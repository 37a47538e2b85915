package boot_test

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestSpringConfigurationForms starts the service with the forms of
// configuration Spring users bring: a YAML file with a profile document,
// an import, a config tree and APP_APPLICATION_JSON, each taking effect
// and shown with its origin.
func TestSpringConfigurationForms(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{
		"application.properties": "app.config.import=optional:missing.properties,extra.properties,configtree:tree/\ntester.layer=1\n",
		"extra.properties":       "tester.greeting=Hello from extra.properties\n",
		"tree/tester/greeting":   "Hello from a tree\n",
		"tree/tree/password":     "tree-s3cret\n",
		"config/application.yml": "tester:\n  example:\n    note: from YAML\n---\napp.config.activate.on-profile: dev\ntester:\n  greeting: Hello from the dev document\n",
	})
	json := map[string]string{"APP_APPLICATION_JSON": `{"tester": {"layer": 7}, "json": {"hosts": ["a", "b"], "password": "json-s3cret"}}`}

	s := start(t, exposeEnv, json)
	if _, body := get(t, s.URL+"/hello"); body != `{"text":"Hello from a tree"}` {
		t.Errorf("/hello = %s, want the config tree's greeting (imported after extra.properties)", body)
	}
	tests := []struct{ key, value, source, origin string }{
		{"tester.example.note", "from YAML", "Config resource 'file [config/application.yml]' via location 'optional:file:./config/' (document #0)", "file [config/application.yml] line 3 column 11"},
		{"tester.greeting", "Hello from a tree", "Config resource 'config tree [tree]' via location 'configtree:tree/'", "file [tree/tester/greeting]"},
		{"tree.password", "******", "Config resource 'config tree [tree]' via location 'configtree:tree/'", "file [tree/tree/password]"},
		{"tester.layer", "7", "app.application.json", "environment variable APP_APPLICATION_JSON"},
		{"json.hosts[1]", "b", "app.application.json", "environment variable APP_APPLICATION_JSON"},
	}
	for _, tt := range tests {
		if p := s.ReadProperty(t, tt.key); p.Value != tt.value || p.Source != tt.source || p.Origin != tt.origin {
			t.Errorf("%s:\ngot  %q from %q at %q\nwant %q from %q at %q", tt.key, p.Value, p.Source, p.Origin, tt.value, tt.source, tt.origin)
		}
	}
	if _, body := get(t, s.URL+"/actuator/env"); strings.Contains(body, "s3cret") || !strings.Contains(body, "extra.properties") {
		t.Errorf("/actuator/env should list extra.properties and mask the passwords of the tree and the JSON:\n%s", body)
	}

	dev := start(t, append([]string{"--app.profiles.active=dev"}, exposeEnv...), json)
	if _, body := get(t, dev.URL+"/hello"); body != `{"text":"Hello from the dev document"}` {
		t.Errorf("with dev: /hello = %s, want the dev document's greeting", body)
	}
	if p := dev.ReadProperty(t, "tester.greeting"); p.Source != "Config resource 'file [config/application.yml]' via location 'optional:file:./config/' (document #1)" || p.Origin != "file [config/application.yml] line 7 column 13" {
		t.Errorf("with dev: tester.greeting from %q at %q, want the dev document", p.Source, p.Origin)
	}
}

// TestBadConfigurationFormsStopStartup: each bad form stops start-up with
// a report naming the setting or file and the line, and no secret.
func TestBadConfigurationFormsStopStartup(t *testing.T) {
	// Not parallel: its subtests change the working directory.
	tests := []struct {
		name  string
		files map[string]string
		env   map[string]string
		want  []string
	}{
		{"malformed YAML", map[string]string{"config/application.yml": "tester:\n  greeting: [unclosed\n"},
			nil, []string{"reading file [config/application.yml]", "line 3"}},
		{"malformed on-profile expression", map[string]string{"application.properties": "a=1\n#---\napp.config.activate.on-profile=dev & qa | cloud\n"},
			nil, []string{"Property: app.config.activate.on-profile", "Origin: file [application.properties] line 3", "Reason: "}},
		{"missing import", map[string]string{"application.yml": "app:\n  config:\n    import: secrets.properties\n"},
			nil, []string{"Property: app.config.import", `Value: "secrets.properties"`, "Origin: file [application.yml] line 3 column 13", "optional:"}},
		{"profile activated in a profile document", map[string]string{"application.yml": "app.config.activate.on-profile: default\napp.profiles.active: dev\n"},
			nil, []string{"Property: app.profiles.active", "Origin: file [application.yml] line 2 column 22"}},
		{"invalid APP_APPLICATION_JSON", nil, map[string]string{"APP_APPLICATION_JSON": `{"tester": {"password": "hunter2"}`},
			[]string{"Property: app.application.json", "Origin: environment variable APP_APPLICATION_JSON", "not valid JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			workIn(t, tt.files)
			report, err := boottest.FailToStart(t, tester(), []string{"--server.port=0"}, tt.env)
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
	t.Parallel()
	s := start(t, exposeEnv, map[string]string{"TESTER_GREETING": ""})
	if p := s.ReadProperty(t, "tester.greeting"); p.Value != "" || p.Source != "systemEnvironment" {
		t.Errorf("tester.greeting = %q from %q, want the empty variable", p.Value, p.Source)
	}
	if _, body := get(t, s.URL+"/hello"); body != `{"text":""}` {
		t.Errorf("/hello = %s, want the empty greeting", body)
	}
}
