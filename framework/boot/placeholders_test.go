package boot_test

// Placeholders as Spring's binder resolves them, through the running
// service: one that nothing resolves is kept as written in a bound
// setting and warned about once, a secret's stops start-up, ${spring.X}
// reads app.X, and the JVM's user.home and the like resolve.

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// keptWarning is the log line of a setting that keeps a placeholder
// nothing resolves, up to its key.
const keptWarning = `level=WARN msg="could not resolve placeholder; the setting keeps it as written, as Spring's binder does" `

// TestUnresolvablePlaceholderIsKept: DolphinScheduler's
// management.metrics.tags.application: ${spring.application.name}, in a
// file that does not set the name, starts, as Spring starts: the tag keeps
// the text, and the log names the setting as written, its origin and the
// placeholder, once.
func TestUnresolvablePlaceholderIsKept(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"application.yml": "management:\n  metrics:\n    tags:\n      application: ${spring.application.name}\n"})
	s := start(t, []string{"--management.endpoints.web.exposure.include=prometheus"}, nil)
	if body := send(t, nil, "GET", s.URL+"/actuator/prometheus", "").body; !strings.Contains(body, `application="${spring.application.name}"`) {
		t.Errorf("/actuator/prometheus lacks the tag as written:\n%.500s", body)
	}
	s.WaitForLog(t, regexp.MustCompile(regexp.QuoteMeta(keptWarning+
		`key=management.metrics.tags.application origin="file [application.yml] line 4 column 20" placeholder="\"spring.application.name\""`)))
	if n := strings.Count(s.Stdout.String(), "could not resolve placeholder"); n != 1 {
		t.Errorf("%d warnings, want one:\n%s", n, s.Stdout)
	}
}

// TestSpringPlaceholderReadsItsTwin: ${spring.application.name} reads
// app.application.name, as every spring. key is read as its app. twin,
// and takes its own default when neither is set.
func TestSpringPlaceholderReadsItsTwin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--app.application.name=halo", "--management.metrics.tags.application=${spring.application.name}"}, `application="halo"`},
		{[]string{"--spring.application.name=halo", "--management.metrics.tags.application=${app.application.name}"}, `application="halo"`},
		{[]string{"--management.metrics.tags.application=${spring.application.name:dolphin}"}, `application="dolphin"`},
	} {
		s := start(t, append(tt.args, "--management.endpoints.web.exposure.include=prometheus"), nil)
		if body := send(t, nil, "GET", s.URL+"/actuator/prometheus", "").body; !strings.Contains(body, tt.want) {
			t.Errorf("%q: /actuator/prometheus lacks %s:\n%.500s", tt.args, tt.want, body)
		}
		if strings.Contains(s.Stdout.String(), "could not resolve placeholder") {
			t.Errorf("%q: warned of a placeholder that resolves:\n%s", tt.args, s.Stdout)
		}
	}
}

// TestSecretPlaceholderStopsStartUp: PiggyMetrics's
// spring.security.user.password: ${CONFIG_SERVICE_PASSWORD}, unset, stops
// start-up (a literal ${...} is never the password meant): the report
// names the placeholder, never masked, shows the block once, and masks
// the default of a secret's placeholder.
func TestSecretPlaceholderStopsStartUp(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"application.yml": "spring:\n  security:\n    user:\n      password: ${CONFIG_SERVICE_PASSWORD}\n"})
	stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0"}, nil)
	if err == nil {
		t.Fatal("started with a password that is a placeholder nothing resolves")
	}
	for _, want := range []string{"Property: spring.security.user.password", `Value: "******"`, "Origin: file [application.yml] line 4 column 17",
		`Reason: could not resolve placeholder "CONFIG_SERVICE_PASSWORD" in value "${CONFIG_SERVICE_PASSWORD}": a secret is not kept as written`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the report lacks %s:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "Failed to bind properties under 'spring.security.user.password'"); n != 1 {
		t.Errorf("the block is printed %d times, want once:\n%s", n, stderr)
	}

	// A secret's default is masked, its placeholders' names are not.
	stderr, _ = boottest.FailToStart(t, tester(), []string{"--server.port=0", "--app.security.user.password=${DB_USER}:${DB_PASSWORD:hunter2}${UNCLOSED"}, nil)
	if !strings.Contains(stderr, `unclosed placeholder "${UNCLOSED" in value "${DB_USER}******${DB_PASSWORD:******}${UNCLOSED"`) || strings.Contains(stderr, "hunter2") {
		t.Errorf("the report shows the default, or not the names:\n%s", stderr)
	}
}

// TestSystemPropertyPlaceholders: halo's ${user.home}/.halo2 and the
// JVM's other user.dir, user.name and java.io.tmpdir resolve to Go's
// equivalents.
func TestSystemPropertyPlaceholders(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"application.properties": "halo.work-dir=${user.home}/.halo2\ntester.greeting=${halo.work-dir} ${user.dir} ${java.io.tmpdir} ${user.name:nobody}\n"})
	s := start(t, nil, nil)
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	r := decode[struct{ Text string }](t, send(t, nil, "GET", s.URL+"/hello", ""))
	fields := strings.Fields(r.Text)
	if len(fields) != 4 || fields[0] != home+"/.halo2" || fields[1] != wd || fields[2] != os.TempDir() || fields[3] == "nobody" || strings.Contains(r.Text, "${") {
		t.Errorf("/hello = %q, want %s/.halo2 %s %s and the user's name", r.Text, home, wd, os.TempDir())
	}
}

// TestPlaceholderChainIsShown: a placeholder that nothing resolves,
// reached through other settings, is shown with the chain that led to it,
// both where it is kept and where it stops start-up.
func TestPlaceholderChainIsShown(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"application.properties": "tester.greeting=${halo.work-dir}\nhalo.work-dir=${halo.base}/x\nhalo.base=${missing}\nhalo.profile=${missing}\n"})
	s := start(t, nil, nil)
	if _, body := get(t, s.URL+"/hello"); body != `{"text":"${missing}/x"}` {
		t.Errorf("/hello = %s, want ${missing}/x", body)
	}
	s.WaitForLog(t, regexp.MustCompile(regexp.QuoteMeta(keptWarning+
		`key=tester.greeting origin="file [application.properties] line 1" placeholder="\"missing\" (via halo.work-dir → halo.base)"`)))

	stderr, _ := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--app.profiles.active=${halo.profile}"}, nil)
	if want := `could not resolve placeholder "missing" (via halo.profile) in value "${halo.profile}"`; !strings.Contains(stderr, want) {
		t.Errorf("the report lacks %s:\n%s", want, stderr)
	}
}
