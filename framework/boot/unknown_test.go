package boot_test

// Keys that nothing reads, and Spring's spring. keys, as start-up reports
// them.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// warnings returns the lines of out about settings that nothing reads.
func warnings(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, `msg="setting not read by anything, ignored"`) {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestUnknownKeysWarned: a key under the framework's roots or the
// service's own that nothing reads gets one warning line, with its origin
// and the nearest key read when one is close; Spring's settings that mean
// nothing here are summed up in one line; family members, Kubernetes'
// service links and variables that images set for themselves are not
// warned about; no value is shown.
func TestUnknownKeysWarned(t *testing.T) {
	workIn(t, map[string]string{"application.properties": strings.Join([]string{
		"server.prot=9000",
		"spring.jpa.show-sql=true",
		"spring.jpa.open-in-view=false",
		"app.jpa.hibernate.ddl-auto=none",
		"server.tomcat.accept-count=10",
		"logging.level.com.example=DEBUG",
		"management.metrics.tags.region=eu",
		"spring.redis.host=cache",
		"tester.greetng=hunter2",
		"other.thing=not ours",
		"app.base=Hi",
		"tester.greeting=${app.base} there",
	}, "\n")})
	s := start(t, []string{"--management.endpoint.health.group.custom.include=ping", "--spring.foo.bar=hunter2"}, map[string]string{
		"SERVER_PROT":                   "1",
		"APP_HOME":                      "/opt/app",
		"SERVER_SERVICE_HOST":           "10.0.0.1",
		"SERVER_PORT_8080_TCP_ADDR":     "10.0.0.1",
		"SPRING_JPA_HIBERNATE_DDL_AUTO": "none",
		"LOGGING_LEVEL_COM_EXAMPLE":     "DEBUG",
		"HOME":                          "/root",
	})
	out := s.Stdout.String()
	want := []string{
		`key=server.prot origin="file [application.properties] line 1" hint="did you mean server.port?"`,
		`key=spring.redis.host origin="file [application.properties] line 8" hint="Spring Boot 2's name, not read; Spring Boot 3 names it spring.data.redis.host"`,
		`key=tester.greetng origin="file [application.properties] line 9" hint="did you mean tester.greeting?"`,
		`key=spring.foo.bar origin="command-line argument --spring.foo.bar"`,
		`key=SERVER_PROT origin="environment variable SERVER_PROT" hint="did you mean SERVER_PORT (server.port)?"`,
	}
	got := warnings(out)
	if len(got) != len(want) {
		t.Errorf("%d warnings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		if n := strings.Count(out, w); n != 1 {
			t.Errorf("%d lines with %s, want 1:\n%s", n, w, strings.Join(got, "\n"))
		}
	}
	summary := `msg="Spring Boot settings that mean nothing here, ignored" families="app.jpa.* (1), server.tomcat.* (1), spring.jpa.* (3)"`
	if n := strings.Count(out, "mean nothing here"); n != 1 || !strings.Contains(out, summary) {
		t.Errorf("want one line %s; got:\n%s", summary, out)
	}
	if strings.Contains(out, "hunter2") {
		t.Errorf("a value is shown:\n%s", out)
	}
	// The placeholder's key is read through tester.greeting.
	if _, body := get(t, s.URL+"/hello"); !strings.Contains(body, "Hi there") {
		t.Errorf("GET /hello = %s, want the greeting through ${app.base}", body)
	}
}

// TestFailOnUnknown: with app.config.fail-on-unknown=true a key nothing
// reads stops start-up, the report naming each, its origin and the
// nearest key read, never a value; Spring's settings that mean nothing
// here, and spring. keys read as app. keys, do not.
func TestFailOnUnknown(t *testing.T) {
	t.Parallel()
	report, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--app.config.fail-on-unknown=true", "--server.prot=9000",
		"--management.endpoints.web.exposure.inclde=hunter2"}, map[string]string{"SPRING_REDIS_PASSWORD": "hunter2"})
	if err == nil {
		t.Fatal("started with unknown keys")
	}
	for _, w := range []string{
		"APPLICATION FAILED TO START",
		"Settings that nothing reads, refused by app.config.fail-on-unknown=true:",
		"server.prot (command-line argument --server.prot): did you mean server.port?",
		"management.endpoints.web.exposure.inclde (command-line argument --management.endpoints.web.exposure.inclde): did you mean management.endpoints.web.exposure.include?",
		"SPRING_REDIS_PASSWORD (environment variable SPRING_REDIS_PASSWORD): Spring Boot 2's name, not read; Spring Boot 3 names it SPRING_DATA_REDIS_PASSWORD",
	} {
		if !strings.Contains(report, w) {
			t.Errorf("the report lacks %q:\n%s", w, report)
		}
	}
	if strings.Contains(report, "hunter2") || strings.Contains(report, "9000") {
		t.Errorf("the report shows a value:\n%s", report)
	}
	start(t, []string{"--app.config.fail-on-unknown=true", "--spring.jpa.open-in-view=false", "--spring.application.name=shop"},
		map[string]string{"SPRING_MAIN_BANNER_MODE": "off"})
}

// TestSpringTwins: spring. keys are read as their app. twins, in files
// (profile activation and on-profile documents included), arguments and
// variables; app. wins within a source, precedence across sources; one
// line names the spring. keys read; /actuator/env shows them as written.
func TestSpringTwins(t *testing.T) {
	workIn(t, map[string]string{
		"application.properties": strings.Join([]string{
			"spring.profiles.active=dev",
			"spring.application.name=from-spring",
			"app.application.name=from-app",
			"tester.greeting=${spring.config.import:none}",
			"#---",
			"spring.config.activate.on-profile=dev",
			"tester.store-down=true",
		}, "\n"),
		"config/application-dev.properties": "spring.lifecycle.timeout-per-shutdown-phase=1s\n",
	})
	s := start(t, exposeEnv, nil)
	out := s.Stdout.String()
	if !strings.Contains(out, `The following 1 profile is active: \"dev\"`) {
		t.Errorf("spring.profiles.active in application.properties did not activate dev:\n%s", out)
	}
	if status, _ := get(t, s.URL+"/store"); status != 503 {
		t.Errorf("GET /store = %d, want the 503 of the document under spring.config.activate.on-profile=dev", status)
	}
	if p := s.ReadProperty(t, "app.application.name"); p.Value != "from-app" {
		t.Errorf("app.application.name = %+v, want from-app: app. wins over spring. in one file", p)
	}
	if p := s.ReadProperty(t, "spring.profiles.active"); p.Value != "dev" || p.Origin != "file [application.properties] line 1" {
		t.Errorf("/actuator/env/spring.profiles.active = %+v, want dev as written in the file", p)
	}
	line := regexp.MustCompile(`msg="spring. keys read as their app. twins" keys=(\S+)`).FindStringSubmatch(out)
	if line == nil || line[1] != "spring.application.name,spring.config.activate.on-profile,spring.lifecycle.timeout-per-shutdown-phase,spring.profiles.active" {
		t.Errorf("want one line naming the spring. keys read; got %q in:\n%s", line, out)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Stdout.String(), `timeout_ms=1000 `) {
		t.Errorf("spring.lifecycle.timeout-per-shutdown-phase=1s did not set the shutdown timeout:\n%s", s.Stdout)
	}
}

// TestSpringTwinPrecedence: within one source app.X wins over spring.X;
// across sources the usual order decides, the environment's
// SPRING_PROFILES_ACTIVE included.
func TestSpringTwinPrecedence(t *testing.T) {
	t.Parallel()
	s := start(t, append([]string{"--spring.application.name=arg-spring", "--app.application.name=arg-app",
		"--spring.endpoints.web.base-path=x", "--spring.openapi.ui.enabled=true"}, exposeEnv...),
		map[string]string{"SPRING_PROFILES_ACTIVE": "dev", "APP_OPENAPI_UI_ENABLED": "false", "SPRING_APPLICATION_JSON": `{"spring":{"profiles":{"include":"extra"}}}`})
	if _, body := get(t, s.URL+"/hello"); !strings.Contains(body, "Hello from dev") {
		t.Errorf("GET /hello = %s, want the dev profile's greeting from SPRING_PROFILES_ACTIVE", body)
	}
	if !strings.Contains(s.Stdout.String(), `The following 2 profiles are active: \"extra\", \"dev\"`) {
		t.Errorf("want the profiles extra (SPRING_APPLICATION_JSON) and dev (SPRING_PROFILES_ACTIVE):\n%s", s.Stdout)
	}
	if p := s.ReadProperty(t, "app.application.name"); p.Value != "arg-app" {
		t.Errorf("app.application.name = %+v, want arg-app: app. wins in its source", p)
	}
	if status, _ := get(t, s.URL+"/swagger-ui.html"); status != 200 {
		t.Errorf("GET /swagger-ui.html = %d, want 200: --spring.openapi.ui.enabled=true outranks APP_OPENAPI_UI_ENABLED=false", status)
	}
	// spring.endpoints.* has no app. twin read: it is unknown.
	if !strings.Contains(s.Stdout.String(), `key=spring.endpoints.web.base-path`) {
		t.Errorf("spring.endpoints.web.base-path is not warned about:\n%s", s.Stdout)
	}
}

// TestUnknownKeysBounded: however many keys nothing reads, start-up
// writes 100 lines about them, and one that counts the rest.
func TestUnknownKeysBounded(t *testing.T) {
	t.Parallel()
	var args []string
	for i := range 150 {
		args = append(args, fmt.Sprintf("--server.unknown-%03d=x", i))
	}
	s := start(t, args, nil)
	out := s.Stdout.String()
	if n := len(warnings(out)); n != 100 {
		t.Errorf("%d lines about unknown keys, want 100", n)
	}
	if !strings.Contains(out, `msg="more settings not read by anything, ignored and not listed" count=50`) {
		t.Errorf("no line counts the other 50:\n%s", boottest.Tail(out, 5))
	}
}
