package boot_test

// /actuator/configprops through run: the settings the service bound,
// grouped by prefix, masked as /actuator/env masks them.

import (
	"strings"
	"testing"
)

// configPropsReport is the part of /actuator/configprops the tests read:
// the beans of the tester's context, each with its properties and inputs
// nested by key.
type configPropsReport struct {
	Contexts map[string]struct {
		Beans map[string]struct {
			Prefix     string         `json:"prefix"`
			Properties map[string]any `json:"properties"`
			Inputs     map[string]any `json:"inputs"`
		} `json:"beans"`
	} `json:"contexts"`
}

// configProps reads url's report.
func configProps(t *testing.T, url string) configPropsReport {
	t.Helper()
	r := send(t, nil, "GET", url, "")
	if r.status != 200 {
		t.Fatalf("GET %s: %d %s", url, r.status, r.body)
	}
	return decode[configPropsReport](t, r)
}

// at follows the path of keys through nested JSON objects.
func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func TestConfigPropsNeedsExposure(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=health,env"}, nil)
	for _, path := range []string{"/actuator/configprops", "/actuator/configprops/server"} {
		if status, body := get(t, s.URL+path); status != 404 {
			t.Errorf("%s is not exposed, but answered %d %s", path, status, body)
		}
	}
}

func TestConfigPropsMasksByDefault(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=configprops", "--server.read-timeout=40s"}, nil)
	if _, body := get(t, s.URL+"/actuator"); !strings.Contains(body, `"configprops"`) || !strings.Contains(body, `"configprops-prefix"`) {
		t.Errorf("the index does not link to configprops: %s", body)
	}
	report := configProps(t, s.URL+"/actuator/configprops")
	ctx, ok := report.Contexts["tester"]
	if !ok {
		t.Fatalf("no context named after the service: %+v", report)
	}
	server := ctx.Beans["server"]
	if server.Prefix != "server" {
		t.Fatalf("no server bean: %+v", ctx.Beans)
	}
	if got := at(server.Properties, "port"); got != "******" {
		t.Errorf("server.port: %v, want it masked", got)
	}
	if got := at(server.Properties, "servlet", "session", "timeout"); got != "******" {
		t.Errorf("server.servlet.session.timeout is not nested, or not masked: %v", got)
	}
	input := at(server.Inputs, "read-timeout")
	if at(input, "value") != "******" || at(input, "origin") != "command-line argument --server.read-timeout" {
		t.Errorf("server.read-timeout's input: %v, want the value masked and the origin without it", input)
	}
	if tester := ctx.Beans["tester"]; at(tester.Properties, "greeting") != "******" {
		t.Errorf("the service's own tester.greeting: %+v", tester)
	}
}

func TestConfigPropsShowsValuesButNotSecrets(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=configprops", "--management.endpoint.configprops.show-values=always",
		"--app.data.redis.password=hunter2"}, map[string]string{"SERVER_READ_TIMEOUT": "40s"})
	report := configProps(t, s.URL+"/actuator/configprops")
	beans := report.Contexts["tester"].Beans
	server := beans["server"]
	if got := at(server.Properties, "port"); got != "0" {
		t.Errorf("server.port: %v, want 0, as boottest sets it", got)
	}
	if got := at(server.Properties, "write-timeout"); got != "30s" {
		t.Errorf("server.write-timeout, unset: %v, want its default 30s", got)
	}
	if got := at(server.Properties, "read-timeout"); got != "40s" {
		t.Errorf("server.read-timeout: %v", got)
	}
	input := at(server.Inputs, "read-timeout")
	if at(input, "value") != "40s" || at(input, "origin") != "environment variable SERVER_READ_TIMEOUT" {
		t.Errorf("server.read-timeout's input: %v", input)
	}
	if at(server.Inputs, "write-timeout") != nil {
		t.Errorf("server.write-timeout is set nowhere, yet has an input: %v", server.Inputs)
	}
	redis := beans["app.data.redis"]
	if got := at(redis.Properties, "password"); got != "******" {
		t.Errorf("app.data.redis.password: %v, want it masked even with show-values=always", got)
	}
	input = at(redis.Inputs, "password")
	if at(input, "value") != "******" || at(input, "origin") != "command-line argument --app.data.redis.password" {
		t.Errorf("app.data.redis.password's input: %v", input)
	}
	if got := at(redis.Properties, "host"); got != "localhost" {
		t.Errorf("app.data.redis.host: %v", got)
	}
	if _, body := get(t, s.URL+"/actuator/configprops"); strings.Contains(body, "hunter2") {
		t.Errorf("the password is in the report: %s", body)
	}

	narrowed := configProps(t, s.URL+"/actuator/configprops/server").Contexts["tester"].Beans
	if len(narrowed) != 1 || at(narrowed["server"].Properties, "read-timeout") != "40s" {
		t.Errorf("configprops/server: %+v, want the server bean alone", narrowed)
	}
	management := configProps(t, s.URL+"/actuator/configprops/management.endpoint").Contexts["tester"].Beans
	if len(management) == 0 {
		t.Fatal("configprops/management.endpoint lists nothing")
	}
	// As Spring's, the prefix given is a start of the beans' prefixes,
	// not of their whole segments: management.endpoints.web is listed too.
	for prefix := range management {
		if !strings.HasPrefix(prefix, "management.endpoint") {
			t.Errorf("configprops/management.endpoint lists %s", prefix)
		}
	}
	if at(management["management.endpoint.configprops"].Properties, "show-values") != "always" {
		t.Errorf("management.endpoint.configprops: %+v", management["management.endpoint.configprops"])
	}
}
