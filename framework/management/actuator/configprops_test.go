package actuator

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// configPropsHandler binds a few settings as a service would, from args
// and one environment variable, and serves /actuator/configprops over
// them with show-values set to showValues.
func configPropsHandler(t *testing.T, showValues string, args ...string) *dispatch.Dispatcher {
	t.Helper()
	env, err := config.Load(config.Options{Args: args, LookupEnv: func(name string) (string, bool) {
		if name == "SERVER_READ_TIMEOUT" {
			return "45s", true
		}
		return "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := config.NewBinder(env)
	config.Bind(b, "server.port", 8080, config.Port)
	config.Bind(b, "server.read-timeout", 30*time.Second, config.Duration)
	config.Bind(b, "server.servlet.session.timeout", 30*time.Minute, config.Duration)
	config.Bind(b, "app.data.redis.host", "localhost", config.String)
	config.Bind(b, "app.data.redis.password", "", config.String)
	config.Bind(b, "management.endpoint.health.show-details", "never", config.String)
	config.Bind(b, "app.greeting", "Hello", config.String)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{
		Exposure: Exposure{Include: []string{ConfigProps}}, Env: env, Bound: b.Keys(),
		Context:     "greeter",
		ConfigProps: ConfigPropsOptions{Default: b.Default, ShowValues: showValues},
	})...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func getJSON(t *testing.T, h *dispatch.Dispatcher, path string) any {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != 200 {
		t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	var v any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, rec.Body)
	}
	return v
}

// want decodes the JSON document doc, for comparison with an answer.
func want(t *testing.T, doc string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return v
}

// TestConfigPropsShowsValues checks the whole report with show-values
// always: each bound key under its prefix, nested, with its bound value
// or default; inputs for the keys set, with their origins; a password
// masked even so, and its origin without the value the argument quotes.
func TestConfigPropsShowsValues(t *testing.T) {
	h := configPropsHandler(t, "always", "--server.port=9000", "--app.data.redis.password=s3cret", "--app.greeting=Hi")
	got := getJSON(t, h, "/actuator/configprops")
	w := want(t, `{"contexts":{"greeter":{"beans":{
		"server":{"prefix":"server",
			"properties":{"port":"9000","read-timeout":"45s","servlet":{"session":{"timeout":"30m"}}},
			"inputs":{"port":{"value":"9000","origin":"command-line argument --server.port=9000"},
				"read-timeout":{"value":"45s","origin":"environment variable SERVER_READ_TIMEOUT"}}},
		"app.data.redis":{"prefix":"app.data.redis",
			"properties":{"host":"localhost","password":"******"},
			"inputs":{"password":{"value":"******","origin":"command-line argument --app.data.redis.password"}}},
		"management.endpoint.health":{"prefix":"management.endpoint.health",
			"properties":{"show-details":"never"},"inputs":{}},
		"app":{"prefix":"app",
			"properties":{"greeting":"Hi"},
			"inputs":{"greeting":{"value":"Hi","origin":"command-line argument --app.greeting=Hi"}}}}}}}`)
	if !reflect.DeepEqual(got, w) {
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(w)
		t.Errorf("configprops:\ngot  %s\nwant %s", gotJSON, wantJSON)
	}
}

// TestConfigPropsMasksByDefault checks that with show-values never (the
// default) or when-authorized, every value, set or not, is masked, and
// origins keep the key but not the value.
func TestConfigPropsMasksByDefault(t *testing.T) {
	for _, showValues := range []string{"never", "when-authorized", ""} {
		h := configPropsHandler(t, showValues, "--server.port=9000")
		got := getJSON(t, h, "/actuator/configprops/server")
		w := want(t, `{"contexts":{"greeter":{"beans":{
			"server":{"prefix":"server",
				"properties":{"port":"******","read-timeout":"******","servlet":{"session":{"timeout":"******"}}},
				"inputs":{"port":{"value":"******","origin":"command-line argument --server.port"},
					"read-timeout":{"value":"******","origin":"environment variable SERVER_READ_TIMEOUT"}}}}}}}`)
		if !reflect.DeepEqual(got, w) {
			gotJSON, _ := json.Marshal(got)
			t.Errorf("show-values %q: %s", showValues, gotJSON)
		}
	}
}

// TestConfigPropsPrefix checks that configprops/{prefix} keeps the beans
// whose prefix starts with it, as Spring's does, and none when none does.
func TestConfigPropsPrefix(t *testing.T) {
	h := configPropsHandler(t, "always")
	beans := func(path string) []string {
		var names []string
		for name := range getJSON(t, h, path).(map[string]any)["contexts"].(map[string]any)["greeter"].(map[string]any)["beans"].(map[string]any) {
			names = append(names, name)
		}
		return names
	}
	if got := beans("/actuator/configprops/app.data"); !reflect.DeepEqual(got, []string{"app.data.redis"}) {
		t.Errorf("app.data: %v", got)
	}
	if got := beans("/actuator/configprops/management.endpoint.health"); !reflect.DeepEqual(got, []string{"management.endpoint.health"}) {
		t.Errorf("management.endpoint.health: %v", got)
	}
	if got := beans("/actuator/configprops/spring"); len(got) != 0 {
		t.Errorf("spring: %v", got)
	}
}

func TestConfigPropsPrefixOf(t *testing.T) {
	for key, want := range map[string]string{
		"server.port":                               "server",
		"server.servlet.session.cookie.name":        "server",
		"management.endpoints.web.exposure.include": "management.endpoints.web",
		"management.endpoint.env.show-values":       "management.endpoint.env",
		"management.metrics.tags.region":            "management.metrics",
		"management.server.port":                    "management.server",
		"app.data.redis.sentinel.master":            "app.data.redis",
		"app.datasource.hikari.maximum-pool-size":   "app.datasource",
		"app.greeting":                              "app",
		"logging.level.root":                        "logging",
		"mode":                                      "mode",
	} {
		if got := configPropsPrefixOf(key); got != want {
			t.Errorf("%s: got %q, want %q", key, got, want)
		}
	}
}

// TestNestKeepsClashingKeys checks that a key that is both a value and a
// parent keeps both, in either order.
func TestNestKeepsClashingKeys(t *testing.T) {
	node := map[string]any{}
	for _, k := range []string{"a.b", "a.b.c", "x.y.z", "x.y", "x.w"} {
		if !nest(node, k, k) {
			t.Errorf("%s found no room", k)
		}
	}
	w := map[string]any{
		"a":   map[string]any{"b": "a.b", "b.c": "a.b.c"},
		"x":   map[string]any{"y": map[string]any{"z": "x.y.z"}, "w": "x.w"},
		"x.y": "x.y",
	}
	if !reflect.DeepEqual(node, w) {
		t.Errorf("got  %v\nwant %v", node, w)
	}
}
