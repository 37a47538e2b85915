package boot_test

// Relaxed binding through run: a setting written in any of the forms
// Spring's binder takes (camelCase, kebab-case, underscore_case, any case),
// in every kind of source, takes effect and is read; maps keep their keys
// as written; the listings show each key as written or canonical.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestRelaxedBindingInEverySource sets server.compression.min-response-size
// to 10 bytes in another form in each kind of source: the 16-byte answer of
// /small is then gzipped (under the default 2KB it is not), and nothing is
// warned about as not read.
func TestRelaxedBindingInEverySource(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		env   map[string]string
	}{
		{name: ".properties, camelCase", files: map[string]string{"application.properties": "server.compression.enabled=true\nserver.compression.minResponseSize=10\n"}},
		{name: ".properties, underscores", files: map[string]string{"application.properties": "server.compression.enabled=true\nserver.compression.min_response_size=10\n"}},
		{name: "YAML, camelCase", files: map[string]string{"config/application.yml": "server:\n  compression:\n    enabled: true\n    minResponseSize: 10\n"}},
		{name: "APP_APPLICATION_JSON, camelCase", env: map[string]string{"APP_APPLICATION_JSON": `{"server":{"compression":{"enabled":true,"minResponseSize":10}}}`}},
		{name: "SPRING_APPLICATION_JSON, upper case", env: map[string]string{"SPRING_APPLICATION_JSON": `{"SERVER":{"Compression":{"Enabled":true,"MIN_RESPONSE_SIZE":10}}}`}},
		{name: "command line, underscores", args: []string{"--server.compression.enabled=true", "--server.compression.min_response_size=10"}},
		{name: "config tree, camelCase", args: []string{"--app.config.import=configtree:tree/"},
			files: map[string]string{"tree/server/compression/enabled": "true", "tree/server/compression/minResponseSize": "10\n"}},
		{name: "environment, as before", env: map[string]string{"SERVER_COMPRESSION_ENABLED": "true", "SERVER_COMPRESSION_MINRESPONSESIZE": "10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			workIn(t, tt.files)
			s := boottest.Start(t, zipper(), tt.args, tt.env)
			r := send(t, nil, "GET", s.URL+"/small", "", "Accept-Encoding: gzip")
			if r.header.Get("Content-Encoding") != "gzip" || gunzip(t, r.body) != `{"text":"Hello"}` {
				t.Errorf("GET /small: Content-Encoding %q, want it gzipped with min-response-size 10", r.header.Get("Content-Encoding"))
			}
			if w := warnings(s.Stdout.String()); len(w) > 0 {
				t.Errorf("warned about:\n%s", strings.Join(w, "\n"))
			}
		})
	}
}

// TestRelaxedFormsInOneSource: of two forms of one key in one file, the
// canonical one wins wherever it is, as Spring asks a source for it first;
// of two other forms the one set last. An argument outranks the file
// whatever its form.
func TestRelaxedFormsInOneSource(t *testing.T) {
	gzipped := func(t *testing.T, s *boottest.Instance) bool {
		t.Helper()
		return send(t, nil, "GET", s.URL+"/small", "", "Accept-Encoding: gzip").header.Get("Content-Encoding") == "gzip"
	}
	for _, tt := range []struct {
		name, file string
		args       []string
		gzipped    bool
	}{
		{"canonical after", "server.compression.minResponseSize=10\nserver.compression.min-response-size=2KB\n", nil, false},
		{"canonical before", "server.compression.min-response-size=2KB\nserver.compression.minResponseSize=10\n", nil, false},
		{"the last of two others", "server.compression.minResponseSize=2KB\nserver.compression.min_response_size=10\n", nil, true},
		{"an argument over the file", "server.compression.min-response-size=2KB\n", []string{"--server.compression.MIN_RESPONSE_SIZE=10"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			workIn(t, map[string]string{"application.properties": "server.compression.enabled=true\n" + tt.file})
			if got := gzipped(t, boottest.Start(t, zipper(), tt.args, nil)); got != tt.gzipped {
				t.Errorf("the 16-byte answer gzipped: %v, want %v", got, tt.gzipped)
			}
		})
	}
}

// TestRelaxedHealthDetails: management.endpoint.health.showDetails and
// show_details take effect as show-details does; a health group named in
// camelCase keeps its name, its include in any case.
func TestRelaxedHealthDetails(t *testing.T) {
	for _, arg := range []string{"--management.endpoint.health.showDetails=always", "--management.endpoint.health.show_details=always", "--MANAGEMENT.ENDPOINT.HEALTH.SHOW-DETAILS=always"} {
		s := start(t, []string{arg, "--management.endpoint.health.group.myGroup.Include=ping"}, nil)
		r := send(t, nil, "GET", s.URL+"/actuator/health", "")
		h := decode[struct {
			Components map[string]struct{ Details map[string]any }
			Groups     []string
		}](t, r)
		if h.Components["diskSpace"].Details["threshold"] == nil {
			t.Errorf("%s: no details in %s", arg, r.body)
		}
		if got := strings.Join(h.Groups, ","); got != "liveness,myGroup,readiness" {
			t.Errorf("%s: groups %s, want liveness,myGroup,readiness", arg, got)
		}
		if r := send(t, nil, "GET", s.URL+"/actuator/health/myGroup", ""); r.status != 200 {
			t.Errorf("GET /actuator/health/myGroup: %d %s", r.status, r.body)
		}
		if w := warnings(s.Stdout.String()); len(w) > 0 {
			t.Errorf("%s: warned about:\n%s", arg, strings.Join(w, "\n"))
		}
	}
}

// TestRelaxedKeysListed: /actuator/env lists a key as written, and finds
// it by its canonical name; /actuator/configprops shows it under its
// canonical name, with the origin of the form that set it.
func TestRelaxedKeysListed(t *testing.T) {
	workIn(t, map[string]string{"application.properties": "server.compression.minResponseSize=1KB\n"})
	s := start(t, append([]string{"--management.endpoints.web.exposure.include=env,configprops", "--management.endpoint.configprops.show-values=always"}, exposeEnv[1:]...), nil)
	if _, body := get(t, s.URL+"/actuator/env"); !strings.Contains(body, `"server.compression.minResponseSize":{"value":"1KB","origin":"file [application.properties] line 1"}`) {
		t.Errorf("/actuator/env does not list the key as written: %.2000s", body)
	}
	r := send(t, nil, "GET", s.URL+"/actuator/env/server.compression.min-response-size", "")
	if r.status != 200 || !strings.Contains(r.body, `"property":{"source":"Config resource 'file [application.properties]' via location 'optional:file:./'","value":"1KB"}`) ||
		!strings.Contains(r.body, `"property":{"value":"1KB","origin":"file [application.properties] line 1"}`) {
		t.Errorf("/actuator/env/server.compression.min-response-size: %d %s", r.status, r.body)
	}
	compression := configProps(t, s.URL+"/actuator/configprops").Contexts["tester"].Beans["server"]
	if got := at(compression.Properties, "compression", "min-response-size"); got != "1KB" {
		t.Errorf("configprops' server.compression.min-response-size: %v", got)
	}
	if input := at(compression.Inputs, "compression", "min-response-size"); at(input, "origin") != "file [application.properties] line 1" {
		t.Errorf("configprops' input of server.compression.min-response-size: %v", input)
	}
	if _, body := get(t, s.URL+"/actuator/configprops"); strings.Contains(body, "minResponseSize") {
		t.Errorf("configprops shows the key as written, not canonical: %.2000s", body)
	}
}

// TestRelaxedUnknownKeys: a misspelt key in another form is warned about
// with the canonical key it may have meant; a spring. key in another form
// is read as its app. twin; Spring's settings that mean nothing here are
// summed up by their canonical family.
func TestRelaxedUnknownKeys(t *testing.T) {
	workIn(t, map[string]string{"application.yml": strings.Join([]string{
		"server:",
		"  compression:",
		"    minResponseSiz: 1KB",
		"spring:",
		"  application:",
		"    Name: relaxed",
		"  jpa:",
		"    showSql: true",
		"tester:",
		"  Greeting: Hi",
	}, "\n")})
	s := start(t, nil, nil)
	out := s.Stdout.String()
	want := `key=server.compression.minResponseSiz origin="file [application.yml] line 3 column 21" hint="did you mean server.compression.min-response-size?"`
	if got := warnings(out); len(got) != 1 || !strings.Contains(got[0], want) {
		t.Errorf("warnings:\n%s\nwant one with %s", strings.Join(got, "\n"), want)
	}
	if !strings.Contains(out, `msg="spring. keys read as their app. twins" keys=spring.application.Name`) {
		t.Errorf("spring.application.Name is not read as app.application.name:\n%s", out)
	}
	if !strings.Contains(out, `families="spring.jpa.* (1)"`) {
		t.Errorf("spring.jpa.showSql is not summed up under spring.jpa.*:\n%s", out)
	}
	if _, body := get(t, s.URL+"/hello"); !strings.Contains(body, "Hi") {
		t.Errorf("tester.Greeting is not read as tester.greeting: %s", body)
	}
}

// TestRelaxedMapKeys: a map's keys keep their case, and in brackets their
// dots and every character, as Spring's bracket rule says: metric tags and
// logger names.
func TestRelaxedMapKeys(t *testing.T) {
	s := start(t, []string{exposeAll, "--management.metrics.tags.[Region]=eu", "--management.metrics.tags.Zone=z1",
		"--logging.level.[com.Example$Inner]=DEBUG", "--Logging.Level.com.Other=WARN"}, nil)
	if _, body := get(t, s.URL+"/actuator/prometheus"); !strings.Contains(body, `Region="eu"`) || !strings.Contains(body, `Zone="z1"`) {
		t.Errorf("the tags are not labels Region and Zone:\n%.1500s", body)
	}
	for name, want := range map[string]string{"com.Example$Inner": "DEBUG", "com.Other": "WARN"} {
		if r := send(t, nil, "GET", s.URL+"/actuator/loggers/"+name, ""); r.status != 200 || !strings.Contains(r.body, `"configuredLevel":"`+want+`"`) {
			t.Errorf("GET /actuator/loggers/%s: %d %s, want configured %s", name, r.status, r.body, want)
		}
	}
	// configprops nests a name in brackets whole, as Spring shows a map's key.
	logging := configProps(t, s.URL+"/actuator/configprops").Contexts["tester"].Beans["logging"]
	if at(logging.Properties, "level", "com.Example$Inner") == nil || at(logging.Inputs, "level", "com.Example$Inner", "origin") != "command-line argument --logging.level.[com.Example$Inner]" {
		t.Errorf("configprops' logging: %+v", logging)
	}
	if w := warnings(s.Stdout.String()); len(w) > 0 {
		t.Errorf("warned about:\n%s", strings.Join(w, "\n"))
	}
}
