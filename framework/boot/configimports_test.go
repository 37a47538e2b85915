package boot_test

// Imports through a running service: what /actuator/env says of an
// imported setting, and how start-up treats location types it cannot read.

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestImportedSettings: a setting read from an imported file names, beside
// its own origin, the import that read it (Spring's originParents); the
// import's placeholder resolves against the importing file; an optional
// location of a type that is not read is skipped with a warning.
func TestImportedSettings(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{
		"application.properties": "extra.name=imported\napp.config.import=file:${extra.name}.properties\n",
		"imported.properties":    "tester.greeting=Hello from an import\n",
	})
	s := start(t, append([]string{"--app.config.additional-location=optional:configserver:http://localhost:8888/"}, exposeEnv...), nil)
	if _, body := get(t, s.URL+"/hello"); body != `{"text":"Hello from an import"}` {
		t.Errorf("/hello = %s, want the imported greeting", body)
	}

	r := send(t, nil, "GET", s.URL+"/actuator/env/tester.greeting", "")
	type sourceProperty struct {
		Name     string
		Property *struct {
			Origin        string
			OriginParents []string
		}
	}
	var d struct {
		Property        struct{ Source string }
		PropertySources []sourceProperty
	}
	if err := json.Unmarshal([]byte(r.body), &d); r.status != 200 || err != nil {
		t.Fatalf("GET /actuator/env/tester.greeting: %d %s", r.status, r.body)
	}
	i := slices.IndexFunc(d.PropertySources, func(p sourceProperty) bool { return p.Name == d.Property.Source })
	if i < 0 || d.PropertySources[i].Property == nil {
		t.Fatalf("the winning source is not listed: %s", r.body)
	}
	p := d.PropertySources[i].Property
	if p.Origin != "file [imported.properties] line 1" || !slices.Equal(p.OriginParents, []string{"file [application.properties] line 2"}) {
		t.Errorf("origin %q, parents %q; want file [imported.properties] line 1 imported at file [application.properties] line 2", p.Origin, p.OriginParents)
	}
	s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="skipping \\"optional:configserver:http://localhost:8888/\\": the location type configserver: is not supported.*" key=app.config.additional-location origin="command-line argument --app.config.additional-location"`))
}

// TestUnsupportedLocationType: a location type the framework does not
// read stops start-up, naming the setting, its value, its origin and the
// types it reads.
func TestUnsupportedLocationType(t *testing.T) {
	t.Parallel()
	stderr, err := boottest.FailToStart(t, tester(), []string{"--app.config.import=vault://secret/greeter"}, nil)
	if err == nil {
		t.Fatal("started with a vault: import")
	}
	for _, want := range []string{"Property: app.config.import", `Value: "vault://secret/greeter"`, "Origin: command-line argument", "vault: is not supported", "configtree:"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("report does not contain %q:\n%s", want, stderr)
		}
	}
}

// TestUnsupportedLocationTypeAsSpringKey: a Spring user's file imports
// from a config server under Spring's own key; the report names the key
// as the file has it.
func TestUnsupportedLocationTypeAsSpringKey(t *testing.T) {
	workIn(t, map[string]string{"application.properties": "a=1\nspring.config.import=configserver:http://cfg:8888\n"})
	stderr, err := boottest.FailToStart(t, tester(), nil, nil)
	if err == nil {
		t.Fatal("started with a configserver: import")
	}
	for _, want := range []string{"Property: spring.config.import", `Value: "configserver:http://cfg:8888"`, "Origin: file [application.properties] line 2", "configserver: is not supported"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("report does not contain %q:\n%s", want, stderr)
		}
	}
}
