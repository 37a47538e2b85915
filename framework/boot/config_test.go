package boot_test

// The settings as the framework loads and binds them: profiles, the
// layers of files, placeholders, random values, the spellings a Spring
// user brings, and the failure report for what cannot be used.

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
)

// profilesLine returns the start-up log's profile line; there must be one.
func profilesLine(t *testing.T, s *boottest.Instance) string {
	t.Helper()
	var found []string
	for l := range strings.SplitSeq(s.Stdout.String(), "\n") {
		if strings.Contains(l, "profile") && strings.Contains(l, "active") {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d profile lines in the log, want exactly 1:\n%s", len(found), s.Stdout)
	}
	return found[0]
}

// TestProfileActivation: the active profiles come from the environment or
// the arguments (which win), are logged, and choose the packaged
// profile-specific file, under the environment's variables.
func TestProfileActivation(t *testing.T) {
	t.Parallel()
	const (
		packaged = "Config resource 'embedded [application.properties]'"
		dev      = "Config resource 'embedded [application-dev.properties]'"
	)
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		line     string
		greeting string
		from     string
	}{
		{"none", nil, nil, `No active profile set, falling back to 1 default profile: \"default\"`, "Hello from the packaged file", packaged},
		{"environment", nil, map[string]string{"APP_PROFILES_ACTIVE": "dev"}, `The following 1 profile is active: \"dev\"`, "Hello from dev", dev},
		{"argument", []string{"--app.profiles.active=qa,dev"}, nil, `The following 2 profiles are active: \"qa\", \"dev\"`, "Hello from dev", dev},
		{"argument wins over environment", []string{"--app.profiles.active=qa"}, map[string]string{"APP_PROFILES_ACTIVE": "dev"}, `The following 1 profile is active: \"qa\"`, "Hello from the packaged file", packaged},
		{"spaces around names", nil, map[string]string{"APP_PROFILES_ACTIVE": " dev , qa "}, `The following 2 profiles are active: \"dev\", \"qa\"`, "Hello from dev", ""},
		{"environment over the profile's file", nil, map[string]string{"APP_PROFILES_ACTIVE": "dev", "TESTER_GREETING": "7"}, "", "7", "systemEnvironment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, slices.Concat(tt.args, exposeEnv), tt.env)
			if tt.line != "" {
				if line := profilesLine(t, s); !strings.Contains(line, tt.line) {
					t.Errorf("profile line %s\nwant it to contain %s", line, tt.line)
				}
			}
			p := s.ReadProperty(t, "tester.greeting")
			if p.Value != tt.greeting || (tt.from != "" && p.Source != tt.from) {
				t.Errorf("tester.greeting = %q from %q, want %q from %q", p.Value, p.Source, tt.greeting, tt.from)
			}
			want, _ := json.Marshal(greeting{tt.greeting})
			if status, body := get(t, s.URL+"/hello"); status != 200 || body != string(want) {
				t.Errorf("GET /hello: %d %s, want 200 %s", status, body, want)
			}
		})
	}
}

// TestExternalFiles puts settings files in ./ and ./config/ of the working
// directory: they override the packaged ones, each layer only the keys it
// sets, and profile files only when their profile is active.
func TestExternalFiles(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{
		"application.properties":            "tester.greeting=Hello from ./\ntester.layer=1\n",
		"config/application.properties":     "tester.layer=2\n",
		"config/application-dev.properties": "tester.greeting=Hello from ./config/ dev\n",
	})
	const layer = "Config resource 'file [config/application.properties]' via location 'optional:file:./config/'"

	s := start(t, exposeEnv, nil)
	if _, body := get(t, s.URL+"/hello"); body != `{"text":"Hello from ./"}` {
		t.Errorf("without dev: /hello = %s, want the ./application.properties greeting", body)
	}
	if p := s.ReadProperty(t, "tester.layer"); p.Value != "2" || p.Source != layer {
		t.Errorf("tester.layer = %q from %q, want 2 from ./config/application.properties", p.Value, p.Source)
	}

	dev := start(t, append([]string{"--app.profiles.active=dev"}, exposeEnv...), nil)
	if _, body := get(t, dev.URL+"/hello"); body != `{"text":"Hello from ./config/ dev"}` {
		t.Errorf("with dev: /hello = %s, want the dev file's greeting", body)
	}
	if p := dev.ReadProperty(t, "tester.layer"); p.Value != "2" || p.Source != layer {
		t.Errorf("with dev: tester.layer = %q from %q, want 2 from ./config/application.properties still", p.Value, p.Source)
	}
}

func TestStartupReport(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{[]string{"--server.port=eighty"}, nil, []string{"APPLICATION FAILED TO START", "Property: server.port", `Value: "eighty"`, "Origin: command-line argument --server.port=eighty", "Reason: want a port number"}},
		{nil, map[string]string{"TESTER_STOREDOWN": "lots"}, []string{"Property: tester.store-down", "Origin: environment variable TESTER_STOREDOWN", "Reason: want true or false"}},
		{[]string{"--app.profiles.active=dev,no way"}, nil, []string{"app.profiles.active", "no way"}},
		{[]string{"--logging.format=xml", "--server.max-request-size=big"}, nil, []string{"Property: logging.format", "Property: server.max-request-size"}},
		{[]string{"--app.profiles.active=${nobody}"}, nil, []string{"app.profiles.active", `could not resolve placeholder "nobody"`}},
	}
	for _, tt := range tests {
		args := tt.args
		if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--server.port=") }) {
			// A port given twice would be both, joined (0,eighty), as in Spring.
			args = append([]string{"--server.port=0"}, args...)
		}
		report, err := boottest.FailToStart(t, tester(), args, tt.env)
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

func TestJSONLogs(t *testing.T) {
	t.Parallel()
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

// TestMalformedSettingsFileIsNamedOnce: the report names the file that
// could not be read, once, with the line.
func TestMalformedSettingsFileIsNamedOnce(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{"application.properties": "a=\\u12\n"})
	stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0"}, nil)
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
	t.Parallel()
	tests := []struct{ arg, want string }{
		{"--server.read-header-timeout=10ns", "want at least 100ms"},
		{"--server.servlet.session.timeout=10ms", "want at least 1s"},
	}
	for _, tt := range tests {
		stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", tt.arg}, nil)
		key, _, _ := strings.Cut(strings.TrimPrefix(tt.arg, "--"), "=")
		if err == nil || !strings.Contains(stderr, "Property: "+key) || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: %v\n%s", tt.arg, err, stderr)
		}
	}
}

// withPassword is tester reading a secret of its own as well,
// tester.password, as a service reads its database's password.
func withPassword() boot.Service[testerSettings] {
	svc := tester()
	bind := svc.Bind
	svc.Bind = func(b *config.Binder) testerSettings {
		config.Bind(b, "tester.password", "", config.String)
		return bind(b)
	}
	return svc
}

// TestStartupReportMasksSecretsReachedThroughPlaceholders: a value that
// takes a secret through a placeholder, or a secret whose own placeholder
// fails, is masked in every line of the report.
func TestStartupReportMasksSecretsReachedThroughPlaceholders(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--app.config.location=${db.password}", "--db.password=hunter2"},
		{"--app.profiles.active=${db.password}", "--db.password=-hunter2"},
		// A valid profile name, but a secret: it would be logged.
		{"--app.profiles.active=${db.password}", "--db.password=hunter2"},
		{"--tester.password=abc${nope}hunter2"},
	} {
		stderr, err := boottest.FailToStart(t, withPassword(), append([]string{"--server.port=0"}, args...), nil)
		if err == nil {
			t.Errorf("%q: the service started", args)
			continue
		}
		if strings.Contains(stderr, "hunter2") || !strings.Contains(stderr, "******") {
			t.Errorf("%q: the report shows the secret:\n%s", args, stderr)
		}
	}
}

// TestRandomValues: ${random.int(10)} in a settings file gives a digit,
// the same on every request, and /actuator/env lists the random source
// without entries, as Spring does; random.int(0) stops start-up.
func TestRandomValues(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{"application.properties": "tester.greeting=Lucky ${random.int(10)}\n"})
	s := start(t, exposeEnv, nil)
	_, first := get(t, s.URL+"/hello")
	if !regexp.MustCompile(`^\{"text":"Lucky [0-9]"\}$`).MatchString(first) {
		t.Fatalf("/hello = %s, want Lucky and a digit", first)
	}
	for range 5 {
		if _, again := get(t, s.URL+"/hello"); again != first {
			t.Fatalf("/hello = %s, then %s: the random value should hold for the whole run", first, again)
		}
	}
	if _, body := get(t, s.URL+"/actuator/env"); !strings.Contains(body, `{"name":"random","properties":{}}`) {
		t.Errorf("/actuator/env should list the random source without entries:\n%s", body)
	}
	if p := s.ReadProperty(t, "tester.greeting"); "{\"text\":\""+p.Value+"\"}" != first {
		t.Errorf("/actuator/env shows tester.greeting = %q, the service %s", p.Value, first)
	}
	stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--tester.greeting=${random.int(0)}"}, nil)
	for _, w := range []string{"Property: tester.greeting", "Origin: command-line argument --tester.greeting=${random.int(0)}", "random.int(0)", "max > 0"} {
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
	// Not parallel: it changes the working directory (workIn, below).
	s := start(t, append([]string{"--some.other.key=${NOT_SET}", "--some.other.thing=a ${NOT_SET}"}, exposeEnv...), nil)
	if status, body := get(t, s.URL+"/hello"); status != 200 {
		t.Errorf("/hello: %d %s", status, body)
	}
	if p := s.ReadProperty(t, "some.other.thing"); p.Value != "a ${NOT_SET}" {
		t.Errorf("/actuator/env/some.other.thing = %q, want the value as written", p.Value)
	}
	if status, body := get(t, s.URL+"/actuator/env"); status != 200 || !strings.Contains(body, `"value":"a ${NOT_SET}"`) {
		t.Errorf("/actuator/env: %d %s", status, body)
	}

	// Read by a binding, it is kept as written, as Spring's binder keeps
	// it, and the log says so once, naming the setting as written, where
	// it was set and the placeholder.
	workIn(t, map[string]string{"application.properties": "# copied\ntester.greeting=Hi ${NOT_SET}\n"})
	kept := start(t, []string{"--server.port=0"}, nil)
	if _, body := get(t, kept.URL+"/hello"); body != `{"text":"Hi ${NOT_SET}"}` {
		t.Errorf("/hello = %s, want the greeting with its placeholder kept", body)
	}
	kept.WaitForLog(t, regexp.MustCompile(`level=WARN msg="could not resolve placeholder; the setting keeps it as written, as Spring's binder does" `+
		`key=tester.greeting origin="file \[application.properties\] line 2" placeholder="\\"NOT_SET\\""`))
	if n := strings.Count(kept.Stdout.String(), "could not resolve placeholder"); n != 1 {
		t.Errorf("%d warnings, want one:\n%s", n, kept.Stdout)
	}
	// Where the loader reads it, it stops start-up, naming the setting,
	// the placeholder and where it was written.
	stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--app.config.additional-location=${NOT_SET}/"}, nil)
	for _, w := range []string{"Property: app.config.additional-location", `Value: "${NOT_SET}/"`, "Origin: command-line argument --app.config.additional-location=${NOT_SET}/",
		`could not resolve placeholder "NOT_SET" in value "${NOT_SET}/"`} {
		if err == nil || !strings.Contains(stderr, w) {
			t.Errorf("the report lacks %s:\n%s", w, stderr)
		}
	}
}

// TestRelaxedValues: a Spring user's spellings of durations, sizes and
// choices start the service and take effect; a bad one is refused with
// the accepted forms.
func TestRelaxedValues(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.read-timeout=PT45S", "--server.idle-timeout=1m30s", "--server.shutdown-delay=0ms",
		"--server.max-request-size=16b", "--management.endpoints.web.exposure.include=health,env",
		"--management.endpoint.env.show-values=ALWAYS", "--logging.format=JSON",
		"--server.access-log.enabled=Yes"}, map[string]string{"APP_SESSION_STORETYPE": "Memory"})
	if p := s.ReadProperty(t, "server.read-timeout"); p.Value != "PT45S" {
		t.Errorf("show-values=ALWAYS should show values: server.read-timeout = %q", p.Value)
	}
	if r := send(t, nil, "POST", s.URL+"/notes", `{"text":"0123456789"}`, "Content-Type: application/json"); r.status != 413 {
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
		stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", tt.arg}, nil)
		key, _, _ := strings.Cut(strings.TrimPrefix(tt.arg, "--"), "=")
		if err == nil || !strings.Contains(stderr, "Property: "+key) || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: the report should name %s and say %q:\n%s", tt.arg, key, tt.want, stderr)
		}
	}
}
