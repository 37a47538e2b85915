package boot_test

// End-to-end tests of the loggers: levels from the settings, and changed
// at run time through /actuator/loggers, under the service's name.

import (
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

const exposeLoggers = "--management.endpoints.web.exposure.include=health,loggers"

// setLevel does what an operator's curl -X POST does.
func setLevel(t *testing.T, s *boottest.Instance, name, body string) {
	t.Helper()
	if r := send(t, nil, "POST", s.URL+"/actuator/loggers/"+name, body, "Content-Type: application/json"); r.status != 204 {
		t.Fatalf("POST /actuator/loggers/%s %s: %d %s", name, body, r.status, r.body)
	}
}

// refused matches the dispatcher's DEBUG line for a refused request to
// path.
func refused(path string) *regexp.Regexp {
	return regexp.MustCompile(`level=DEBUG msg="request refused" method=GET path=` + regexp.QuoteMeta(path) + ` route="GET /hello/\{n\}" status=400 detail=`)
}

// accessLine matches the access log's line for path.
func accessLine(path string) *regexp.Regexp {
	return regexp.MustCompile(`level=INFO msg=request method=GET path=` + regexp.QuoteMeta(path) + ` route=`)
}

// TestLoggersAtRunTime: a level set at start-up applies; levels changed
// through /actuator/loggers apply to the next line, without a restart;
// OFF silences a logger.
func TestLoggersAtRunTime(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeLoggers, "--server.access-log.enabled=true", "--logging.level.tester.dispatch=debug"}, nil)

	send(t, nil, "GET", s.URL+"/hello/one", "")
	s.WaitForLog(t, refused("/hello/one"))

	// Reset: tester.dispatch inherits INFO from ROOT again.
	setLevel(t, s, "tester.dispatch", `{"configuredLevel":null}`)
	send(t, nil, "GET", s.URL+"/hello/two", "")
	s.WaitForLog(t, accessLine("/hello/two"))
	if refused("/hello/two").MatchString(s.Stdout.String()) {
		t.Errorf("a refusal logged at INFO:\n%s", boottest.Tail(s.Stdout.String(), 5))
	}

	// DEBUG on the ancestor reaches the dispatcher.
	setLevel(t, s, "tester", `{"configuredLevel":"DEBUG"}`)
	send(t, nil, "GET", s.URL+"/hello/three", "")
	s.WaitForLog(t, refused("/hello/three"))

	// OFF silences the access log, and only it.
	setLevel(t, s, "tester.accesslog", `{"configuredLevel":"OFF"}`)
	send(t, nil, "GET", s.URL+"/hello", "")
	send(t, nil, "GET", s.URL+"/hello/four", "")
	s.WaitForLog(t, refused("/hello/four"))
	if accessLine("/hello").MatchString(s.Stdout.String()) || accessLine("/hello/four").MatchString(s.Stdout.String()) {
		t.Errorf("the access log wrote a line while OFF:\n%s", boottest.Tail(s.Stdout.String(), 5))
	}

	r := send(t, nil, "GET", s.URL+"/actuator/loggers", "")
	type levels struct{ ConfiguredLevel, EffectiveLevel string }
	got := decode[struct {
		Levels  []string
		Loggers map[string]levels
		Groups  map[string]struct{ Members []string }
	}](t, r)
	want := map[string]levels{
		"ROOT":              {"INFO", "INFO"},
		"tester":            {"DEBUG", "DEBUG"},
		"tester.dispatch":   {"", "DEBUG"},
		"tester.accesslog":  {"OFF", "OFF"},
		"tester.store":      {"", "DEBUG"},
		"tester.redis":      {"", "DEBUG"},
		"tester.datasource": {"", "DEBUG"},
		"tester.sessions":   {"", "DEBUG"},
		"tester.components": {"", "DEBUG"},
		"tester.server":     {"", "DEBUG"},
		"tester.tracing":    {"", "DEBUG"},
		"tester.metrics":    {"", "DEBUG"},
		"tester.security":   {"", "DEBUG"},
	}
	for name, w := range want {
		if got.Loggers[name] != w {
			t.Errorf("logger %s: %+v, want %+v", name, got.Loggers[name], w)
		}
	}
	if len(got.Loggers) != len(want) || strings.Join(got.Levels, ",") != "OFF,ERROR,WARN,INFO,DEBUG,TRACE" || len(got.Groups["web"].Members) == 0 {
		t.Errorf("GET /actuator/loggers: %s", r.body)
	}
}

// TestLogLevelSettings: the environment sets a known logger's level, and
// a bad level stops start-up with a report that names its setting.
func TestLogLevelSettings(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.access-log.enabled=true"}, map[string]string{"LOGGING_LEVEL_TESTER_ACCESSLOG": "off", "LOGGING_LEVEL_WEB": "debug"})
	send(t, nil, "GET", s.URL+"/hello", "")
	send(t, nil, "GET", s.URL+"/hello/x", "")
	s.WaitForLog(t, refused("/hello/x")) // the web group's DEBUG reaches the dispatcher
	if strings.Contains(s.Stdout.String(), "msg=request ") {
		t.Errorf("the access log wrote a line while OFF:\n%s", s.Stdout)
	}

	for _, args := range [][]string{{"--logging.level.tester.dispatch=LOUD"}, {"--logging.level.root=verbose"}} {
		report, err := boottest.FailToStart(t, tester(), args, nil)
		key, _, _ := strings.Cut(strings.TrimPrefix(args[0], "--"), "=")
		if err == nil || strings.Count(report, "Property: "+key+"\n") != 1 || !strings.Contains(report, "want one of TRACE, DEBUG") {
			t.Errorf("%q: %v\n%s", args, err, report)
		}
	}
}
