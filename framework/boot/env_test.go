package boot_test

// The settings as /actuator/env shows them: exposed only when asked for,
// listing what the service reads and no more of the process's
// environment, and masking values and secrets.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestActuatorExposure(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	if status, body := get(t, s.URL+"/actuator/health"); status != 200 || body != `{"status":"UP","groups":["liveness","readiness"]}` {
		t.Errorf("health: %d %s", status, body)
	}
	if status, _ := get(t, s.URL+"/actuator/env"); status != 404 {
		t.Errorf("env is not exposed by default, but answered %d", status)
	}
	if _, body := get(t, s.URL+"/actuator"); !strings.Contains(body, `"health"`) || strings.Contains(body, `"env"`) {
		t.Errorf("index lists %s; want health and not env", body)
	}

	masked := start(t, []string{"--management.endpoints.web.exposure.include=*", "--management.endpoints.web.exposure.exclude=health"}, nil)
	if status, _ := get(t, masked.URL+"/actuator/health"); status != 404 {
		t.Errorf("excluded health answered %d", status)
	}
	if p := masked.ReadProperty(t, "tester.greeting"); p.Value != "******" {
		t.Errorf("values are masked by default, got %q", p.Value)
	}
	if status, body := get(t, masked.URL+"/actuator/env/no.such.key"); status != 404 {
		t.Errorf("unknown property: %d %s", status, body)
	}
	_, body := get(t, masked.URL+"/actuator/env")
	var all struct {
		PropertySources []struct {
			Name string `json:"name"`
		} `json:"propertySources"`
	}
	if err := json.Unmarshal([]byte(body), &all); err != nil {
		t.Fatalf("/actuator/env: %v\n%s", err, body)
	}
	var names []string
	for _, ps := range all.PropertySources {
		names = append(names, ps.Name)
	}
	want := []string{"commandLineArgs", "systemEnvironment", "random", "Config resource 'embedded [application.properties]'"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("property sources:\ngot  %q\nwant %q", names, want)
	}
}

// TestEnvListingIsStable checks that /actuator/env lists the environment
// variables that set a setting the service reads, and that looking a
// property up does not add to the listing.
func TestEnvListingIsStable(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--greeting.copy=${tester.greeting}"},
		map[string]string{"TESTER_GREETING": "from env", "HOME_OF_SOMETHING_ELSE": "x"})
	listing := func() string {
		_, body := get(t, s.URL+"/actuator/env")
		return body
	}
	before := listing()
	if !strings.Contains(before, `"TESTER_GREETING"`) {
		t.Errorf("the variable that sets tester.greeting is not listed:\n%s", before)
	}
	if strings.Contains(before, "HOME_OF_SOMETHING_ELSE") {
		t.Errorf("a variable the service does not read is listed:\n%s", before)
	}
	get(t, s.URL+"/actuator/env/home.of.something.else")
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
	t.Parallel()
	env := map[string]string{"SECRET_THING": "x", "TESTER_GREETING": "y", "PATH": "/usr/bin:/bin", "HOME": "/root"}
	// notFound is r's answer with the name it was asked for replaced by a
	// fixed one, and without the request ID, which differs per request.
	requestID := regexp.MustCompile(`,"requestId":"[^"]*"`)
	notFound := func(r response, name string) string {
		return fmt.Sprintf("%d %s %s", r.status, r.header.Get("Content-Type"),
			strings.ReplaceAll(requestID.ReplaceAllString(r.body, ""), name, "NAME"))
	}
	for _, show := range []string{"never", "always"} {
		s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--management.endpoint.env.show-values=" + show}, env)
		get := func(path string) response { return send(t, nil, "GET", s.URL+path, "") }
		want := notFound(get("/actuator/env/no.such.key"), "no.such.key")
		if !strings.HasPrefix(want, "404 ") {
			t.Fatalf("show-values=%s: a name set nowhere: %s", show, want)
		}
		for _, name := range []string{"secret_thing", "SECRET_THING", "path", "PATH", "home", "HOME"} {
			if got := notFound(get("/actuator/env/"+name), name); got != want {
				t.Errorf("show-values=%s: /actuator/env/%s:\ngot  %s\nwant %s", show, name, got, want)
			}
		}
		if r := get("/actuator/env"); strings.Contains(r.body, "SECRET_THING") || !strings.Contains(r.body, `"TESTER_GREETING"`) {
			t.Errorf("show-values=%s: the listing:\n%s", show, r.body)
		}
		p := s.ReadProperty(t, "tester.greeting")
		if wantValue := map[string]string{"never": "******", "always": "y"}[show]; p.Value != wantValue || p.Source != "systemEnvironment" {
			t.Errorf("show-values=%s: tester.greeting = %+v, want %q from systemEnvironment", show, p, wantValue)
		}
	}
}

// TestMaskedValuesDoNotLeak puts a secret in an argument, the environment
// and a settings file: with values masked it appears nowhere in
// /actuator/env, origins included.
func TestMaskedValuesDoNotLeak(t *testing.T) {
	// Not parallel: it changes the working directory.
	workIn(t, map[string]string{"application.properties": "file.secret=s3cret-file\n"})
	s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--arg.secret=s3cret-arg"},
		map[string]string{"TESTER_GREETING": "s3cret-env"})
	for _, path := range []string{"/actuator/env", "/actuator/env/arg.secret", "/actuator/env/file.secret", "/actuator/env/tester.greeting"} {
		if status, body := get(t, s.URL+path); status != 200 || strings.Contains(body, "s3cret") {
			t.Errorf("%s: %d, and the body shows a masked value:\n%s", path, status, body)
		}
	}
	if _, body := get(t, s.URL+"/actuator/env/arg.secret"); !strings.Contains(body, `"origin":"command-line argument --arg.secret"`) {
		t.Errorf("the argument's origin should still name it: %s", body)
	}
}

// TestSecretsStayMaskedWhenValuesAreShown: with show-values=always, a
// password setting and the password in a URL's user-info are still
// masked, values and origins alike.
func TestSecretsStayMaskedWhenValuesAreShown(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=env", "--management.endpoint.env.show-values=always",
		"--tester.password=hunter2", "--app.data.redis.url=redis://:hunter2@127.0.0.1:6379/0"},
		map[string]string{"TESTER_GREETING": "app", "API_TOKEN": "hunter2"})
	for _, path := range []string{"/actuator/env", "/actuator/env/tester.password", "/actuator/env/app.data.redis.url"} {
		if status, body := get(t, s.URL+path); status != 200 || strings.Contains(body, "hunter2") {
			t.Errorf("%s: %d, and the body shows a secret:\n%s", path, status, body)
		}
	}
	if _, body := get(t, s.URL+"/actuator/env/app.data.redis.url"); !strings.Contains(body, `"value":"redis://:******@127.0.0.1:6379/0"`) {
		t.Errorf("the URL should be shown with its password masked: %s", body)
	}
	if _, body := get(t, s.URL+"/actuator/env/tester.greeting"); !strings.Contains(body, `"value":"app"`) {
		t.Errorf("a setting that is not a secret is shown: %s", body)
	}
}
