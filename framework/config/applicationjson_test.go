package config

import (
	"strings"
	"testing"
)

func TestApplicationJSON(t *testing.T) {
	t.Parallel()
	const doc = `{"app": {"greeting": "Hi", "n": 1.50, "on": true, "none": null}, "hosts": ["a", "b"], "shared": "json"}`
	checkSettingsCases(t, []settingsCase{
		{"from the environment, above it", loadCase{env: map[string]string{"APP_APPLICATION_JSON": doc, "SHARED": "env"}},
			[]wantSetting{{"app.greeting", "Hi", "environment variable APP_APPLICATION_JSON", "app.application.json"},
				{"app.n", "1.50", "environment variable APP_APPLICATION_JSON", ""}, {"app.on", "true", "environment variable APP_APPLICATION_JSON", ""},
				{"app.none", "", "environment variable APP_APPLICATION_JSON", ""}, {"hosts", "a,b", "environment variable APP_APPLICATION_JSON", ""},
				{"shared", "json", "environment variable APP_APPLICATION_JSON", ""}}},
		{"an argument beats it", loadCase{args: []string{"--shared=arg"}, env: map[string]string{"APP_APPLICATION_JSON": doc}},
			[]wantSetting{{"shared", "arg", "command-line argument --shared=arg", ""}}},
		{"from an argument, the origin without the value", loadCase{args: []string{"--app.application.json=" + doc}},
			[]wantSetting{{"app.greeting", "Hi", "command-line argument --app.application.json", "app.application.json"}}},
		{"it may name the locations", loadCase{env: map[string]string{"APP_APPLICATION_JSON": `{"app.config.location": "elsewhere/"}`}, files: map[string]string{"elsewhere/application.properties": "shared=elsewhere"}},
			[]wantSetting{{"shared", "elsewhere", "file [elsewhere/application.properties] line 1", ""}}},
	})
}

func TestInvalidApplicationJSON(t *testing.T) {
	t.Parallel()
	for _, text := range []string{`{"db": {"password": "hunter2"`, `["hunter2"]`, `{"a": "hunter2"} x`, `{"a": hunter2}`} {
		_, err := loadCase{env: map[string]string{"APP_APPLICATION_JSON": text}}.load(t)
		if !contains(err, "app.application.json") || !contains(err, "environment variable APP_APPLICATION_JSON") || !contains(err, "not valid JSON") {
			t.Errorf("%s: error %v, want one naming the variable and saying the JSON is invalid", text, err)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: error %q shows the value", text, err)
		}
	}
}
