package actuator

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
)

func loggersHandler(t *testing.T, loggers *logging.Registry) http.Handler {
	t.Helper()
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{Loggers}}, Loggers: loggers})...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func call(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// jsonEqual compares a body with Spring's documented JSON, whatever the
// order of keys and the spacing.
func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestLoggersShape builds the registry of Spring's documented example
// (Actuator API, "Retrieving All Loggers", "Retrieving a Single Logger"
// and "Retrieving a Single Group") and checks the answers against it.
func TestLoggersShape(t *testing.T) {
	loggers := logging.NewRegistry(slog.DiscardHandler, logging.Info)
	loggers.Group("test", "test.member1", "test.member2")
	loggers.Configure("com.example", logging.Debug)
	loggers.Configure("test", logging.Info)
	h := loggersHandler(t, loggers)

	rec := call(h, "GET", "/actuator/loggers", "")
	if rec.Code != 200 {
		t.Fatalf("GET /actuator/loggers: %d %s", rec.Code, rec.Body)
	}
	jsonEqual(t, rec.Body.Bytes(), `{
	  "levels" : [ "OFF", "ERROR", "WARN", "INFO", "DEBUG", "TRACE" ],
	  "loggers" : {
	    "ROOT" : { "configuredLevel" : "INFO", "effectiveLevel" : "INFO" },
	    "com" : { "effectiveLevel" : "INFO" },
	    "com.example" : { "configuredLevel" : "DEBUG", "effectiveLevel" : "DEBUG" },
	    "test" : { "effectiveLevel" : "INFO" },
	    "test.member1" : { "configuredLevel" : "INFO", "effectiveLevel" : "INFO" },
	    "test.member2" : { "configuredLevel" : "INFO", "effectiveLevel" : "INFO" }
	  },
	  "groups" : {
	    "test" : { "configuredLevel" : "INFO", "members" : [ "test.member1", "test.member2" ] }
	  }
	}`)
	if !strings.HasPrefix(rec.Body.String(), `{"levels":["OFF",`) || !strings.Contains(rec.Body.String(), `"loggers":{"ROOT":`) {
		t.Errorf("levels first and ROOT first among the loggers, as in Spring: %s", rec.Body)
	}

	rec = call(h, "GET", "/actuator/loggers/com.example", "")
	jsonEqual(t, rec.Body.Bytes(), `{ "configuredLevel" : "DEBUG", "effectiveLevel" : "DEBUG" }`)
	rec = call(h, "GET", "/actuator/loggers/test", "")
	jsonEqual(t, rec.Body.Bytes(), `{ "configuredLevel" : "INFO", "members" : [ "test.member1", "test.member2" ] }`)
	if rec = call(h, "GET", "/actuator/loggers/com.nothing", ""); rec.Code != 404 {
		t.Errorf("GET of an unknown logger: %d %s, want 404", rec.Code, rec.Body)
	}
}

// TestSetLogger: POST sets a level (204), null or {} resets it, a bad
// level is a 400 and an unknown name a 404; a group sets its members.
func TestSetLogger(t *testing.T) {
	loggers := logging.NewRegistry(slog.DiscardHandler, logging.Info)
	loggers.Logger("greeter.dispatch")
	loggers.Group("web", "greeter.dispatch")
	h := loggersHandler(t, loggers)
	get := func(name string) string { return call(h, "GET", "/actuator/loggers/"+name, "").Body.String() }

	steps := []struct {
		name, body string
		status     int
		after      string // GET of the logger afterwards
	}{
		{"greeter", `{"configuredLevel":"debug"}`, 204, `{"configuredLevel":"DEBUG","effectiveLevel":"DEBUG"}`},
		{"greeter", `{"configuredLevel":null}`, 204, `{"effectiveLevel":"INFO"}`},
		{"greeter", `{"configuredLevel":"TRACE"}`, 204, `{"configuredLevel":"TRACE","effectiveLevel":"TRACE"}`},
		{"greeter", `{}`, 204, `{"effectiveLevel":"INFO"}`},
		{"greeter", `{"configuredLevel":"LOUD"}`, 400, `{"effectiveLevel":"INFO"}`},
		{"root", `{"configuredLevel":"WARN"}`, 204, `{"effectiveLevel":"WARN"}`},
		{"ROOT", `{"configuredLevel":null}`, 204, `{"effectiveLevel":"INFO"}`},
		{"com.nothing", `{"configuredLevel":"DEBUG"}`, 404, `{"effectiveLevel":"INFO"}`},
	}
	for _, s := range steps {
		rec := call(h, "POST", "/actuator/loggers/"+s.name, s.body)
		if rec.Code != s.status {
			t.Errorf("POST %s %s: %d %s, want %d", s.name, s.body, rec.Code, rec.Body, s.status)
		}
		if got := get("greeter"); strings.TrimSpace(got) != s.after {
			t.Errorf("after POST %s %s: greeter is %s, want %s", s.name, s.body, got, s.after)
		}
	}
	if rec := call(h, "POST", "/actuator/loggers/web", `{"configuredLevel":"ERROR"}`); rec.Code != 204 {
		t.Fatalf("POST web: %d %s", rec.Code, rec.Body)
	}
	if got := strings.TrimSpace(get("greeter.dispatch")); got != `{"configuredLevel":"ERROR","effectiveLevel":"ERROR"}` {
		t.Errorf("greeter.dispatch after the web group was set: %s", got)
	}
}
