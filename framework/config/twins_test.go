package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSpringTwins loads spring. keys from every kind of source and reads
// them as their app. twins: within a source app. wins, across sources the
// usual precedence does.
func TestSpringTwins(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTwinFile(t, dir, "application.properties", "spring.profiles.active=dev\nspring.greeting=file\napp.both=app\nspring.both=spring\nspring.list[0]=a\nspring.list[1]=b\nspring.tags.region=eu\n")
	writeTwinFile(t, dir, "application-dev.properties", "app.dev=on\n")
	env, err := Load(Options{Dir: dir, Args: []string{"--spring.arg=from-arg"},
		LookupEnv: mapEnv(map[string]string{"SPRING_FROM_ENV": "v", "SPRING_GREETING": "env"})})
	if err != nil {
		t.Fatal(err)
	}
	if got := env.ActiveProfiles(); !reflect.DeepEqual(got, []string{"dev"}) {
		t.Errorf("profiles %v, want [dev] from spring.profiles.active", got)
	}
	for key, want := range map[string]string{
		"app.dev":      "on",
		"app.greeting": "env", // SPRING_GREETING outranks the file
		"app.both":     "app",
		"app.arg":      "from-arg",
		"app.from-env": "v",
		"app.list":     "a,b",
	} {
		if v, ok, err := env.Lookup(key); !ok || err != nil || v.Resolved != want {
			t.Errorf("%s = %q (%v, %v), want %q", key, v.Resolved, ok, err, want)
		}
	}
	if got := env.KeysWithPrefix("app.tags."); !reflect.DeepEqual(got, []string{"app.tags.region"}) {
		t.Errorf("KeysWithPrefix(app.tags.) = %v, want the twin of spring.tags.region", got)
	}
}

// TestSpringOnProfile makes a document conditional with
// spring.config.activate.on-profile, and refuses spring.profiles.active
// inside it as app.profiles.active is.
func TestSpringOnProfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTwinFile(t, dir, "application.properties", "app.x=base\n#---\nspring.config.activate.on-profile=dev\napp.x=dev\n")
	for _, tt := range []struct {
		profiles, want string
	}{{"dev", "dev"}, {"qa", "base"}} {
		env, err := Load(Options{Dir: dir, LookupEnv: mapEnv(map[string]string{"SPRING_PROFILES_ACTIVE": tt.profiles})})
		if err != nil {
			t.Fatal(err)
		}
		if v, _, _ := env.Lookup("app.x"); v.Resolved != tt.want {
			t.Errorf("profile %s: app.x = %q, want %q", tt.profiles, v.Resolved, tt.want)
		}
	}
	writeTwinFile(t, dir, "application.properties", "app.x=base\n#---\nspring.config.activate.on-profile=dev\nspring.profiles.active=qa\n")
	if _, err := Load(Options{Dir: dir, Args: []string{"--app.profiles.active=dev"}}); err == nil {
		t.Error("spring.profiles.active in a conditional document was accepted")
	}
}

// TestSpringConfigKeys: spring.config.import in a file and
// spring.config.additional-location on the command line find files as
// their app. twins do.
func TestSpringConfigKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTwinFile(t, dir, "application.properties", "spring.config.import=extra.properties\n")
	writeTwinFile(t, dir, "extra.properties", "app.imported=yes\n")
	if err := os.Mkdir(filepath.Join(dir, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTwinFile(t, dir, "more/application.properties", "app.located=yes\n")
	env, err := Load(Options{Dir: dir, Args: []string{"--spring.config.additional-location=more/"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"app.imported", "app.located"} {
		if v, ok, err := env.Lookup(key); !ok || err != nil || v.Resolved != "yes" {
			t.Errorf("%s = %q (%v, %v), want yes", key, v.Resolved, ok, err)
		}
	}
}

func writeTwinFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mapEnv(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}
