package boot_test

// Settings files as Spring Boot's readers read them, seen from outside:
// what /actuator/env shows of the .properties list shorthand, of a value
// continued on the next line and of an empty YAML map, and the report for
// the key Spring Boot 2.4 retired.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

func TestSettingsFilesReadAsSpring(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{
		"application.properties": "tester.greeting=\\\nHello from line 2\nhosts[]=a,\\\n  b\n",
		"application.yml":        "extra: {}\n",
	})
	s := start(t, exposeEnv, nil)
	if _, body := get(t, s.URL+"/hello"); body != `{"text":"Hello from line 2"}` {
		t.Errorf("/hello = %s, want the greeting continued on line 2", body)
	}
	for _, want := range []struct{ key, value, origin string }{
		{"tester.greeting", "Hello from line 2", "file [application.properties] line 2"},
		{"hosts[0]", "a", "file [application.properties] line 3"},
		{"hosts[1]", "b", "file [application.properties] line 4"},
		{"extra", "", "file [application.yml] line 1 column 8"},
	} {
		if p := s.ReadProperty(t, want.key); p.Value != want.value || p.Origin != want.origin {
			t.Errorf("%s = %q from %q, want %q from %q", want.key, p.Value, p.Origin, want.value, want.origin)
		}
	}
}

func TestLegacyProfilesKeyStopsStartup(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{"application.yml": "tester.greeting: Hi\n---\napp:\n  profiles: dev\n  greeting: Hi, dev\n"})
	report, err := boottest.FailToStart(t, tester(), []string{"--server.port=0"}, nil)
	if err == nil {
		t.Fatal("the service started with app.profiles in a settings file")
	}
	for _, w := range []string{"Property: app.profiles", `Value: "dev"`, "Origin: file [application.yml] line 4 column 13", "replaced with app.config.activate.on-profile"} {
		if !strings.Contains(report, w) {
			t.Errorf("the report lacks %q:\n%s", w, report)
		}
	}
}
