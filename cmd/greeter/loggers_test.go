package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/internal/logtest"
)

var exposeLoggers = "--management.endpoints.web.exposure.include=health,loggers"

// setLevel does what an operator's curl -X POST does.
func setLevel(t *testing.T, s *service, name, body string) {
	t.Helper()
	if r := s.do(t, "POST", "/actuator/loggers/"+name, body, "Content-Type: application/json"); r.status != 204 {
		t.Fatalf("POST /actuator/loggers/%s %s: %d %s", name, body, r.status, r.body)
	}
}

// refused matches the dispatcher's DEBUG line for a refused request to
// path.
func refused(path string) *regexp.Regexp {
	return regexp.MustCompile(`level=DEBUG msg="request refused" method=GET path=` + regexp.QuoteMeta(path) + ` route="GET /api/hello/\{id\}" status=400 detail=`)
}

// accessLine matches the access log's line for path.
func accessLine(path string) *regexp.Regexp {
	return regexp.MustCompile(`level=INFO msg=request method=GET path=` + regexp.QuoteMeta(path) + ` route=`)
}

// TestLoggersAtRunTime: a level set at start-up applies; levels changed
// through /actuator/loggers apply to the next line, without a restart;
// OFF silences a logger.
func TestLoggersAtRunTime(t *testing.T) {
	s := start(t, []string{exposeLoggers, "--server.access-log.enabled=true", "--logging.level.greeter.dispatch=debug"}, nil)

	s.do(t, "GET", "/api/hello/one", "")
	s.WaitForLog(t, refused("/api/hello/one"))

	// Reset: greeter.dispatch inherits INFO from ROOT again.
	setLevel(t, s, "greeter.dispatch", `{"configuredLevel":null}`)
	s.do(t, "GET", "/api/hello/two", "")
	s.WaitForLog(t, accessLine("/api/hello/two"))
	if refused("/api/hello/two").MatchString(s.Stdout.String()) {
		t.Errorf("a refusal logged at INFO:\n%s", tail(s.Stdout.String(), 5))
	}

	// DEBUG on the ancestor reaches the dispatcher.
	setLevel(t, s, "greeter", `{"configuredLevel":"DEBUG"}`)
	s.do(t, "GET", "/api/hello/three", "")
	s.WaitForLog(t, refused("/api/hello/three"))

	// OFF silences the access log, and only it.
	setLevel(t, s, "greeter.accesslog", `{"configuredLevel":"OFF"}`)
	s.do(t, "GET", "/api/hello", "")
	s.do(t, "GET", "/api/hello/four", "")
	s.WaitForLog(t, refused("/api/hello/four"))
	if accessLine("/api/hello").MatchString(s.Stdout.String()) || accessLine("/api/hello/four").MatchString(s.Stdout.String()) {
		t.Errorf("the access log wrote a line while OFF:\n%s", tail(s.Stdout.String(), 5))
	}

	r := s.do(t, "GET", "/actuator/loggers", "")
	type levels struct{ ConfiguredLevel, EffectiveLevel string }
	got := decodeJSON[struct {
		Levels  []string
		Loggers map[string]levels
		Groups  map[string]struct{ Members []string }
	}](t, r)
	want := map[string]levels{
		"ROOT":               {"INFO", "INFO"},
		"greeter":            {"DEBUG", "DEBUG"},
		"greeter.dispatch":   {"", "DEBUG"},
		"greeter.accesslog":  {"OFF", "OFF"},
		"greeter.postgres":   {"", "DEBUG"},
		"greeter.redis":      {"", "DEBUG"},
		"greeter.sessions":   {"", "DEBUG"},
		"greeter.components": {"", "DEBUG"},
		"greeter.server":     {"", "DEBUG"},
		"greeter.tracing":    {"", "DEBUG"},
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
	s := start(t, []string{"--server.access-log.enabled=true"}, map[string]string{"LOGGING_LEVEL_GREETER_ACCESSLOG": "off", "LOGGING_LEVEL_WEB": "debug"})
	s.do(t, "GET", "/api/hello", "")
	s.do(t, "GET", "/api/hello/x", "")
	s.WaitForLog(t, refused("/api/hello/x")) // the web group's DEBUG reaches the dispatcher
	if strings.Contains(s.Stdout.String(), "msg=request ") {
		t.Errorf("the access log wrote a line while OFF:\n%s", s.Stdout)
	}

	for _, args := range [][]string{{"--logging.level.greeter.dispatch=LOUD"}, {"--logging.level.root=verbose"}} {
		var out, errOut logtest.Buffer
		err := run(context.Background(), args, mapLookup(nil), &out, &errOut)
		key, _, _ := strings.Cut(strings.TrimPrefix(args[0], "--"), "=")
		if err == nil || strings.Count(errOut.String(), "Property: "+key+"\n") != 1 || !strings.Contains(errOut.String(), "want one of TRACE, DEBUG") {
			t.Errorf("%q: %v\n%s", args, err, errOut.String())
		}
	}
}
