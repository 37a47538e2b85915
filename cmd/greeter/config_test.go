package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// profilesLine returns the startup log's profile line; there must be one.
func profilesLine(t *testing.T, s *service) string {
	t.Helper()
	var found []string
	for _, l := range strings.Split(s.Stdout.String(), "\n") {
		if strings.Contains(l, "profile") && strings.Contains(l, "active") {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d profile lines in the log, want exactly 1:\n%s", len(found), s.Stdout)
	}
	return found[0]
}

type envProperty struct {
	Property struct {
		Source string `json:"source"`
		Value  string `json:"value"`
	} `json:"property"`
	ActiveProfiles []string `json:"activeProfiles"`
}

// readProperty reads one setting through /actuator/env/{name}.
func readProperty(t *testing.T, s *service, name string) envProperty {
	t.Helper()
	r := s.do(t, "GET", "/actuator/env/"+name, "")
	if r.status != 200 {
		t.Fatalf("GET /actuator/env/%s: %d %s", name, r.status, r.body)
	}
	return decodeJSON[envProperty](t, r)
}

var exposeEnv = []string{"--management.endpoints.web.exposure.include=health,env", "--management.endpoint.env.show-values=always"}

func TestProfileActivation(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		line  string
		propB string
		from  string
	}{
		{"none", nil, nil, `No active profile set, falling back to 1 default profile: \"default\"`, "100", "Config resource 'embedded [application.properties]'"},
		{"environment", nil, map[string]string{"APP_PROFILES_ACTIVE": "dev"}, `The following 1 profile is active: \"dev\"`, "200", "Config resource 'embedded [application-dev.properties]'"},
		{"argument", []string{"--app.profiles.active=qa,dev"}, nil, `The following 2 profiles are active: \"qa\", \"dev\"`, "200", "Config resource 'embedded [application-dev.properties]'"},
		{"argument wins over environment", []string{"--app.profiles.active=qa"}, map[string]string{"APP_PROFILES_ACTIVE": "dev"}, `The following 1 profile is active: \"qa\"`, "100", "Config resource 'embedded [application.properties]'"},
		{"spaces around names", nil, map[string]string{"APP_PROFILES_ACTIVE": " dev , qa "}, `The following 2 profiles are active: \"dev\", \"qa\"`, "200", ""},
		{"environment sets prop-b", nil, map[string]string{"APP_PROFILES_ACTIVE": "dev", "APP_EXAMPLE_PROPB": "7"}, "", "7", "systemEnvironment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, slices.Concat(tt.args, exposeEnv), tt.env)
			if tt.line != "" {
				if line := profilesLine(t, s); !strings.Contains(line, tt.line) {
					t.Errorf("profile line %s\nwant it to contain %s", line, tt.line)
				}
			}
			p := readProperty(t, s, "app.example.prop-b")
			if p.Property.Value != tt.propB || (tt.from != "" && p.Property.Source != tt.from) {
				t.Errorf("app.example.prop-b = %q from %q, want %q from %q", p.Property.Value, p.Property.Source, tt.propB, tt.from)
			}
			if a := readProperty(t, s, "app.example.prop-a"); a.Property.Value != "Hello from application.properties" {
				t.Errorf("app.example.prop-a = %q, want the default file's value", a.Property.Value)
			}
		})
	}
}

// TestExternalFiles puts settings files in ./ and ./config/ of the working
// directory: they override the embedded ones, profile files only when their
// profile is active.
func TestExternalFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("application.properties", "app.greeting=Hello from ./\napp.example.prop-b=1\n")
	write("config/application.properties", "app.example.prop-b=2\n")
	write("config/application-dev.properties", "app.greeting=Hello from ./config/ dev\n")
	t.Chdir(dir)

	s := start(t, exposeEnv, nil)
	if got := s.do(t, "GET", "/api/hello", ""); got.body != `{"text":"Hello from ./"}` {
		t.Errorf("without dev: /api/hello = %s, want the ./application.properties greeting", got.body)
	}
	if p := readProperty(t, s, "app.example.prop-b"); p.Property.Value != "2" || p.Property.Source != "Config resource 'file [config/application.properties]' via location 'optional:./config/'" {
		t.Errorf("prop-b = %q from %q, want 2 from ./config/application.properties", p.Property.Value, p.Property.Source)
	}

	dev := start(t, append([]string{"--app.profiles.active=dev"}, exposeEnv...), nil)
	if got := dev.do(t, "GET", "/api/hello/3", ""); got.body != `{"text":"Hello from ./config/ dev 3"}` {
		t.Errorf("with dev: /api/hello/3 = %s, want the dev file's greeting", got.body)
	}
}

func TestActuatorExposure(t *testing.T) {
	s := start(t, nil, nil)
	if r := s.do(t, "GET", "/actuator/health", ""); r.status != 200 || r.body != healthUp {
		t.Errorf("health: %d %s", r.status, r.body)
	}
	if r := s.do(t, "GET", "/actuator/env", ""); r.status != 404 {
		t.Errorf("env is not exposed by default, but answered %d", r.status)
	}
	if r := s.do(t, "GET", "/actuator", ""); !strings.Contains(r.body, `"health"`) || strings.Contains(r.body, `"env"`) {
		t.Errorf("index lists %s; want health and not env", r.body)
	}

	masked := start(t, []string{"--management.endpoints.web.exposure.include=*", "--management.endpoints.web.exposure.exclude=health"}, nil)
	if r := masked.do(t, "GET", "/actuator/health", ""); r.status != 404 {
		t.Errorf("excluded health answered %d", r.status)
	}
	if p := readProperty(t, masked, "app.example.prop-b"); p.Property.Value != "******" {
		t.Errorf("values are masked by default, got %q", p.Property.Value)
	}
	if r := masked.do(t, "GET", "/actuator/env/no.such.key", ""); r.status != 404 {
		t.Errorf("unknown property: %d %s", r.status, r.body)
	}
	r := masked.do(t, "GET", "/actuator/env", "")
	all := decodeJSON[struct {
		PropertySources []struct {
			Name string `json:"name"`
		} `json:"propertySources"`
	}](t, r)
	var names []string
	for _, ps := range all.PropertySources {
		names = append(names, ps.Name)
	}
	want := []string{"commandLineArgs", "systemEnvironment", "random", "Config resource 'embedded [application.properties]'"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("property sources:\ngot  %q\nwant %q", names, want)
	}
}

func TestStartupReport(t *testing.T) {
	tests := []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{[]string{"--server.port=eighty"}, nil, []string{"APPLICATION FAILED TO START", "Property: server.port", `Value: "eighty"`, "Origin: command-line argument --server.port=eighty", "Reason: want a port number"}},
		{nil, map[string]string{"APP_EXAMPLE_PROPB": "lots"}, []string{"Property: app.example.prop-b", "Origin: environment variable APP_EXAMPLE_PROPB", "Reason: want an integer"}},
		{[]string{"--app.profiles.active=dev,no way"}, nil, []string{"app.profiles.active", "no way"}},
		{[]string{"--logging.format=xml", "--server.max-request-size=big"}, nil, []string{"Property: logging.format", "Property: server.max-request-size"}},
		{[]string{"--app.greeting=${nobody}"}, nil, []string{"app.greeting", "nobody"}},
	}
	for _, tt := range tests {
		report, err := failToStart(t, append([]string{"--server.port=0"}, tt.args...), tt.env)
		if err == nil {
			t.Errorf("%v %v: run started", tt.args, tt.env)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(report, w) {
				t.Errorf("%v %v: report lacks %q:\n%s", tt.args, tt.env, w, report)
			}
		}
	}
}

func TestServerSettings(t *testing.T) {
	s := start(t, []string{"--server.max-request-size=16B"}, nil)
	if r := s.do(t, "POST", "/api/messages", `{"text":"0123456789"}`, "Content-Type: application/json"); r.status != 413 || !strings.Contains(r.body, "limit of 16 bytes") {
		t.Errorf("a 21-byte body over a 16-byte limit: %d %s", r.status, r.body)
	}
	if r := s.do(t, "POST", "/api/messages", `{"text":"0"}`, "Content-Type: application/json"); r.status != 201 {
		t.Errorf("a 12-byte body under a 16-byte limit: %d %s", r.status, r.body)
	}

	greet := start(t, []string{"--app.greeting=Ahoy"}, nil)
	if r := greet.do(t, "GET", "/api/hello/1", ""); r.body != `{"text":"Ahoy 1"}` {
		t.Errorf("app.greeting=Ahoy: /api/hello/1 = %s", r.body)
	}
}

func TestJSONLogs(t *testing.T) {
	s := start(t, []string{"--logging.format=json"}, nil)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(s.Stdout.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("too few log lines:\n%s", s.Stdout)
	}
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec["msg"] == nil || rec["level"] == nil {
			t.Errorf("log line is not a JSON record with msg and level: %s", l)
		}
	}
}

// TestEnvListingIsStable checks that /actuator/env lists the environment
// variables that set a setting the service reads, and that looking a
// property up does not add to the listing.
func TestEnvListingIsStable(t *testing.T) {
	s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--greeting.copy=${app.greeting}"},
		map[string]string{"APP_EXAMPLE_PROPA": "from env", "HOME_OF_SOMETHING_ELSE": "x"})
	listing := func() string { return s.do(t, "GET", "/actuator/env", "").body }
	before := listing()
	if !strings.Contains(before, `"APP_EXAMPLE_PROPA"`) {
		t.Errorf("the variable that sets app.example.prop-a is not listed:\n%s", before)
	}
	if strings.Contains(before, "HOME_OF_SOMETHING_ELSE") {
		t.Errorf("a variable the service does not read is listed:\n%s", before)
	}
	s.do(t, "GET", "/actuator/env/home.of.something.else", "")
	if after := listing(); after != before {
		t.Errorf("a lookup changed the listing:\nbefore %s\nafter  %s", before, after)
	}
}

// TestEnvPropertyAgreesWithListing checks that /actuator/env/{name} answers
// only what /actuator/env lists: a variable that sets nothing the service
// reads answers 404 exactly as a name set nowhere, masked or not, so that
// the endpoint neither reads the process's environment nor tells what is
// in it.
func TestEnvPropertyAgreesWithListing(t *testing.T) {
	env := map[string]string{"SECRET_THING": "x", "APP_EXAMPLE_PROPA": "y", "PATH": "/usr/bin:/bin", "HOME": "/root"}
	// notFound is r's answer with the name it was asked for replaced by a
	// fixed one, and without the request ID, which differs per request.
	requestID := regexp.MustCompile(`,"requestId":"[^"]*"`)
	notFound := func(r response, name string) string {
		return fmt.Sprintf("%d %s %s", r.status, r.header.Get("Content-Type"),
			strings.ReplaceAll(requestID.ReplaceAllString(r.body, ""), name, "NAME"))
	}
	for _, show := range []string{"never", "always"} {
		s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--management.endpoint.env.show-values=" + show}, env)
		want := notFound(s.do(t, "GET", "/actuator/env/no.such.key", ""), "no.such.key")
		if !strings.HasPrefix(want, "404 ") {
			t.Fatalf("show-values=%s: a name set nowhere: %s", show, want)
		}
		for _, name := range []string{"secret_thing", "SECRET_THING", "path", "PATH", "home", "HOME"} {
			if got := notFound(s.do(t, "GET", "/actuator/env/"+name, ""), name); got != want {
				t.Errorf("show-values=%s: /actuator/env/%s:\ngot  %s\nwant %s", show, name, got, want)
			}
		}
		if r := s.do(t, "GET", "/actuator/env", ""); strings.Contains(r.body, "SECRET_THING") || !strings.Contains(r.body, `"APP_EXAMPLE_PROPA"`) {
			t.Errorf("show-values=%s: the listing:\n%s", show, r.body)
		}
		p := readProperty(t, s, "app.example.prop-a")
		if wantValue := map[string]string{"never": "******", "always": "y"}[show]; p.Property.Value != wantValue || p.Property.Source != "systemEnvironment" {
			t.Errorf("show-values=%s: app.example.prop-a = %+v, want %q from systemEnvironment", show, p.Property, wantValue)
		}
	}
}

// TestMaskedValuesDoNotLeak puts a secret in an argument, the environment
// and a settings file: with values masked it appears nowhere in
// /actuator/env, origins included.
func TestMaskedValuesDoNotLeak(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "application.properties"), []byte("file.secret=s3cret-file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--arg.secret=s3cret-arg"},
		map[string]string{"APP_EXAMPLE_PROPA": "s3cret-env"})
	for _, path := range []string{"/actuator/env", "/actuator/env/arg.secret", "/actuator/env/file.secret", "/actuator/env/app.example.prop-a"} {
		r := s.do(t, "GET", path, "")
		if r.status != 200 || strings.Contains(r.body, "s3cret") {
			t.Errorf("%s: %d, and the body shows a masked value:\n%s", path, r.status, r.body)
		}
	}
	if r := s.do(t, "GET", "/actuator/env/arg.secret", ""); !strings.Contains(r.body, `"origin":"command-line argument --arg.secret"`) {
		t.Errorf("the argument's origin should still name it: %s", r.body)
	}
}

// TestSecretsStayMaskedWhenValuesAreShown: with show-values=always, a
// password setting, in an argument or the environment, and the password
// in a URL's user-info are still masked, values and origins alike.
func TestSecretsStayMaskedWhenValuesAreShown(t *testing.T) {
	s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--management.endpoint.env.show-values=always",
		"--app.datasource.password=hunter2", "--app.data.redis.url=redis://:hunter2@127.0.0.1:6379/0"},
		map[string]string{"APP_DATASOURCE_USERNAME": "app", "API_TOKEN": "hunter2"})
	for _, path := range []string{"/actuator/env", "/actuator/env/app.datasource.password", "/actuator/env/app.data.redis.url"} {
		r := s.do(t, "GET", path, "")
		if r.status != 200 || strings.Contains(r.body, "hunter2") {
			t.Errorf("%s: %d, and the body shows a secret:\n%s", path, r.status, r.body)
		}
	}
	if r := s.do(t, "GET", "/actuator/env/app.data.redis.url", ""); !strings.Contains(r.body, `"value":"redis://:******@127.0.0.1:6379/0"`) {
		t.Errorf("the URL should be shown with its password masked: %s", r.body)
	}
	if r := s.do(t, "GET", "/actuator/env/app.datasource.username", ""); !strings.Contains(r.body, `"value":"app"`) {
		t.Errorf("a setting that is not a secret is shown: %s", r.body)
	}
}

// TestMalformedSettingsFileIsNamedOnce: the report names the file that
// could not be read, once, with the line.
func TestMalformedSettingsFileIsNamedOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "application.properties"), []byte("a=\\u12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	stderr, err := failToStart(t, []string{"--server.port=0"}, nil)
	if err == nil {
		t.Fatal("the service started with a malformed settings file")
	}
	if want := "reading file [application.properties]: line 1: malformed \\uXXXX escape"; !strings.Contains(stderr, want) || strings.Contains(stderr, "file file") {
		t.Errorf("the report should say %q:\n%s", want, stderr)
	}
}

// TestDurationsHaveLowerBounds: a timeout that parses but leaves no time
// for the work it bounds stops start-up, naming the setting and the bound.
func TestDurationsHaveLowerBounds(t *testing.T) {
	tests := []struct{ arg, want string }{
		{"--server.read-header-timeout=10ns", "want at least 100ms"},
		{"--server.servlet.session.timeout=10ms", "want at least 1s"},
		{"--app.datasource.hikari.connection-timeout=100ms", "want at least 250ms"},
	}
	for _, tt := range tests {
		stderr, err := failToStart(t, []string{"--server.port=0", tt.arg}, nil)
		key, _, _ := strings.Cut(strings.TrimPrefix(tt.arg, "--"), "=")
		if err == nil || !strings.Contains(stderr, "Property: "+key) || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: %v\n%s", tt.arg, err, stderr)
		}
	}
}

// TestStartupReportMasksSecretsReachedThroughPlaceholders: a value that
// takes a secret through a placeholder, or a secret whose own placeholder
// fails, is masked in every line of the report.
func TestStartupReportMasksSecretsReachedThroughPlaceholders(t *testing.T) {
	for _, args := range [][]string{
		{"--app.config.location=${db.password}", "--db.password=hunter2"},
		{"--app.profiles.active=${db.password}", "--db.password=-hunter2"},
		// A valid profile name, but a secret: it would be logged.
		{"--app.profiles.active=${db.password}", "--db.password=hunter2"},
		{"--app.datasource.password=abc${nope}hunter2"},
	} {
		stderr, err := failToStart(t, append([]string{"--server.port=0"}, args...), nil)
		if err == nil {
			t.Errorf("%q: the service started", args)
			continue
		}
		if strings.Contains(stderr, "hunter2") || !strings.Contains(stderr, "******") {
			t.Errorf("%q: the report shows the secret:\n%s", args, stderr)
		}
	}
}

// TestRandomGreeting: ${random.int(10)} in a settings file gives a digit,
// the same on every request, and /actuator/env lists the random source
// without entries, as Spring does.
func TestRandomGreeting(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "application.properties"), []byte("app.greeting=Lucky ${random.int(10)}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	s := start(t, exposeEnv, nil)
	first := s.do(t, "GET", "/api/hello", "").body
	if !regexp.MustCompile(`^\{"text":"Lucky [0-9]"\}$`).MatchString(first) {
		t.Fatalf("/api/hello = %s, want Lucky and a digit", first)
	}
	for range 5 {
		if again := s.do(t, "GET", "/api/hello", "").body; again != first {
			t.Fatalf("/api/hello = %s, then %s: the random value should hold for the whole run", first, again)
		}
	}
	if r := s.do(t, "GET", "/actuator/env", ""); !strings.Contains(r.body, `{"name":"random","properties":{}}`) {
		t.Errorf("/actuator/env should list the random source without entries:\n%s", r.body)
	}
	if p := readProperty(t, s, "app.greeting"); "{\"text\":\""+p.Property.Value+"\"}" != first {
		t.Errorf("/actuator/env shows app.greeting = %q, the service %s", p.Property.Value, first)
	}
	stderr, err := failToStart(t, []string{"--server.port=0", "--app.greeting=${random.int(0)}"}, nil)
	for _, w := range []string{"Property: app.greeting", "Origin: command-line argument --app.greeting=${random.int(0)}", "random.int(0)", "max > 0"} {
		if err == nil || !strings.Contains(stderr, w) {
			t.Errorf("random.int(0): the report lacks %q:\n%s", w, stderr)
		}
	}
}

// TestPlaceholdersResolveWhenRead: an unresolvable placeholder in a
// setting nothing reads starts (and /actuator/env shows it as written);
// one in a setting that is read stops start-up naming the setting, the
// placeholder and where it was written.
func TestPlaceholdersResolveWhenRead(t *testing.T) {
	s := start(t, append([]string{"--some.other.key=${NOT_SET}", "--some.other.thing=a ${NOT_SET}"}, exposeEnv...), nil)
	if r := s.do(t, "GET", "/api/hello", ""); r.status != 200 {
		t.Errorf("/api/hello: %d %s", r.status, r.body)
	}
	if p := readProperty(t, s, "some.other.thing"); p.Property.Value != "a ${NOT_SET}" {
		t.Errorf("/actuator/env/some.other.thing = %q, want the value as written", p.Property.Value)
	}
	if r := s.do(t, "GET", "/actuator/env", ""); r.status != 200 || !strings.Contains(r.body, `"value":"a ${NOT_SET}"`) {
		t.Errorf("/actuator/env: %d %s", r.status, r.body)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "application.properties"), []byte("# copied\napp.greeting=Hi ${NOT_SET}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--app.greeting=${NOT_SET}"}, []string{"Property: app.greeting", `Value: "${NOT_SET}"`, "Origin: command-line argument --app.greeting=${NOT_SET}", `could not resolve placeholder "${NOT_SET}"`}},
		{nil, []string{"Property: app.greeting", `Value: "Hi ${NOT_SET}"`, "Origin: file [application.properties] line 2", `could not resolve placeholder "${NOT_SET}"`}},
	} {
		stderr, err := failToStart(t, append([]string{"--server.port=0"}, tt.args...), nil)
		for _, w := range tt.want {
			if err == nil || !strings.Contains(stderr, w) {
				t.Errorf("%q: the report lacks %s:\n%s", tt.args, w, stderr)
			}
		}
	}
}

// TestRelaxedValues: a Spring user's spellings of durations, sizes and
// choices start the service and take effect; a bad one is refused with
// the accepted forms.
func TestRelaxedValues(t *testing.T) {
	s := start(t, []string{"--server.read-timeout=PT45S", "--server.idle-timeout=1m30s", "--server.shutdown-delay=0ms",
		"--server.max-request-size=16b", "--management.endpoints.web.exposure.include=health,env",
		"--management.endpoint.env.show-values=ALWAYS", "--app.number.scope=Singleton", "--logging.format=JSON",
		"--server.access-log.enabled=Yes"}, map[string]string{"APP_SESSION_STORETYPE": "Memory"})
	if p := readProperty(t, s, "server.read-timeout"); p.Property.Value != "PT45S" {
		t.Errorf("show-values=ALWAYS should show values: server.read-timeout = %q", p.Property.Value)
	}
	if a, b := s.do(t, "GET", "/api/number/val-a", "").body, s.do(t, "GET", "/api/number/val-b", "").body; a != b {
		t.Errorf("app.number.scope=Singleton: val-a %s, val-b %s; want one instance", a, b)
	}
	if r := s.do(t, "POST", "/api/messages", `{"text":"0123456789"}`, "Content-Type: application/json"); r.status != 413 {
		t.Errorf("server.max-request-size=16b: a 21-byte body answered %d", r.status)
	}
	if !strings.HasPrefix(strings.TrimSpace(s.Stdout.String()), "{") {
		t.Errorf("logging.format=JSON: the log is not JSON:\n%s", s.Stdout)
	}

	for _, tt := range []struct{ arg, want string }{
		{"--server.read-timeout=-PT5M", "PT30S"},
		{"--server.read-timeout=soon", "bare number of milliseconds"},
		{"--server.max-request-size=1.5MB", "B, KB, MB, GB or TB"},
		{"--management.endpoint.env.show-values=sometimes", "want one of never, when-authorized, always (in any case)"},
	} {
		stderr, err := failToStart(t, []string{"--server.port=0", tt.arg}, nil)
		key, _, _ := strings.Cut(strings.TrimPrefix(tt.arg, "--"), "=")
		if err == nil || !strings.Contains(stderr, "Property: "+key) || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: the report should name %s and say %q:\n%s", tt.arg, key, tt.want, stderr)
		}
	}
}
