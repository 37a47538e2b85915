package boot_test

// Passwords inside connection strings, through run: in a URL's user-info
// or query, in a libpq key/value DSN, well formed or not, they are masked
// by /actuator/env and /actuator/configprops even with show-values=always,
// and by the report of a start that a bad one stops.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// connectionStrings are values that hold the password hunter2 (or
// "hun ter2") in the shapes an operator writes, typos included.
var connectionStrings = []string{
	"postgres://u@db/shop?password=hunter2",
	"postgres://db/shop?sslmode=disable&sslpassword=hunter2",
	"postgres//u:hunter2@host/db",
	"postgres:/u:hunter2@host/db",
	"jdbc:postgresql://host/db?password=hunter2",
	"jdbc:postgresql://host/db?user=u&password=hunter2",
	"jdbc:postgresql://u:hunter2@host/db",
	"host=db password=hunter2",
	"host=db user=u password='hun ter2' sslmode=disable",
	"host=db password = hunter2",
	"redis//u:hunter2@cache",
	"redis:u:hunter2@cache:6379",
	"rediss://cache/0?client_secret=hunter2",
}

func showsPassword(s string) bool {
	return strings.Contains(s, "hunter2") || strings.Contains(s, "hun ter2")
}

func TestConnectionStringPasswordsAreMaskedInEnvAndConfigProps(t *testing.T) {
	t.Parallel()
	args := []string{"--management.endpoints.web.exposure.include=env,configprops",
		"--management.endpoint.env.show-values=always", "--management.endpoint.configprops.show-values=always",
		// Bound, so that configprops lists it; a valid URL, so that the
		// service starts.
		"--app.data.redis.url=redis://u@127.0.0.1:6379/0?password=hunter2"}
	names := make([]string, len(connectionStrings))
	for i, c := range connectionStrings {
		names[i] = "tester.connection" + string(rune('a'+i))
		args = append(args, "--"+names[i]+"="+c)
	}
	s := start(t, args, map[string]string{"APP_DATA_REDIS_CLIENT_NAME": "x"})
	paths := []string{"/actuator/env", "/actuator/configprops", "/actuator/configprops/app.data.redis", "/actuator/env/app.data.redis.url"}
	for _, n := range names {
		paths = append(paths, "/actuator/env/"+n)
	}
	for _, path := range paths {
		status, body := get(t, s.URL+path)
		if status != 200 || showsPassword(body) {
			t.Errorf("%s: %d, and the body shows a password:\n%s", path, status, body)
		}
	}
	for i, n := range names {
		p := s.ReadProperty(t, n)
		if !strings.Contains(p.Value, "******") || showsPassword(p.Origin) {
			t.Errorf("%s=%q: shown as %q from %q", n, connectionStrings[i], p.Value, p.Origin)
		}
	}
	// What is no password is still shown.
	if p := s.ReadProperty(t, "app.data.redis.url"); p.Value != "redis://u@127.0.0.1:6379/0?password=******" || p.Origin != "command-line argument --app.data.redis.url" {
		t.Errorf("app.data.redis.url: %+v", p)
	}
	report := configProps(t, s.URL+"/actuator/configprops/app.data.redis")
	redis := report.Contexts["tester"].Beans["app.data.redis"]
	if got := at(redis.Properties, "url"); got != "redis://u@127.0.0.1:6379/0?password=******" {
		t.Errorf("configprops app.data.redis.url: %v", got)
	}
}

func TestConnectionStringPasswordsAreMaskedInTheFailureReport(t *testing.T) {
	t.Parallel()
	for _, c := range connectionStrings {
		if strings.HasPrefix(c, "redis") {
			continue // rediss://... is valid, and the others are tried below
		}
		for _, how := range []struct {
			args   []string
			env    map[string]string
			origin string
		}{
			{[]string{"--app.data.redis.url=" + c}, nil, "Origin: command-line argument --app.data.redis.url\n"},
			{nil, map[string]string{"APP_DATA_REDIS_URL": c}, "Origin: environment variable APP_DATA_REDIS_URL\n"},
		} {
			stderr, err := boottest.FailToStart(t, tester(), how.args, how.env)
			if err == nil {
				t.Errorf("%q: started", c)
				continue
			}
			if showsPassword(stderr) || showsPassword(err.Error()) {
				t.Errorf("%q: the report shows the password:\n%s", c, stderr)
			}
			if n := strings.Count(stderr, "APPLICATION FAILED TO START"); n != 1 ||
				!strings.Contains(stderr, "Property: app.data.redis.url") || !strings.Contains(stderr, how.origin) || !strings.Contains(stderr, "******") {
				t.Errorf("%q: the report (printed %d times) should name the setting, its masked value and %s:\n%s", c, n, how.origin, stderr)
			}
		}
	}
	for _, c := range []string{"redis//u:hunter2@cache", "redis:u:hunter2@cache:6379"} {
		stderr, err := boottest.FailToStart(t, tester(), []string{"--app.data.redis.url=" + c}, nil)
		if err == nil || showsPassword(stderr) || !strings.Contains(stderr, "Property: app.data.redis.url") {
			t.Errorf("%q: %v\n%s", c, err, stderr)
		}
	}
}
