package boot_test

// The messages of start-up, through the running service: each warning
// about a file's content names its origin under the key as written, a
// file that is not UTF-8 is told how to name its encoding, and a report
// masks a password where it stands, with one mask.

import (
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestFileWarningsNameTheirOrigin: the warnings about what a file says
// name the key as the file wrote it (spring. or app.) and where: an
// import of a type that is not read, and a password kept in plain text.
func TestFileWarningsNameTheirOrigin(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"application.yml": "spring:\n  config:\n    import: optional:configserver:http://localhost:8888/\n" +
		"  security:\n    user:\n      password: plain\n"})
	s := start(t, nil, nil)
	s.WaitForLog(t, regexp.MustCompile(regexp.QuoteMeta(`level=WARN msg="skipping \"optional:configserver:http://localhost:8888/\": the location type configserver: is not supported`)+
		`.*`+regexp.QuoteMeta(`" key=spring.config.import origin="file [application.yml] line 3 column 13"`)))
	s.WaitForLog(t, regexp.MustCompile(regexp.QuoteMeta(`level=WARN msg="the user's password is kept as it is ({noop}, or no {id}); store it encoded: {bcrypt}, {argon2} or {pbkdf2}" `+
		`key=spring.security.user.password origin="file [application.yml] line 6 column 17" user=user`)))
	if strings.Contains(s.Stdout.String(), "plain") {
		t.Errorf("the log shows the password:\n%s", s.Stdout)
	}
}

// TestNotUTF8OffersTheEncodingHint: a file written in ISO-8859-1, as
// Spring reads .properties, stops start-up with the location hint that
// reads it; given it, the service starts and reads the file right.
func TestNotUTF8OffersTheEncodingHint(t *testing.T) {
	// Not parallel: it changes the working directory (workIn).
	workIn(t, map[string]string{"config/application.properties": "tester.greeting=Caf\xe9\n"})
	stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0"}, nil)
	hint := regexp.MustCompile(`--app\.config\.import=\S+\[encoding=ISO-8859-1\]`).FindString(stderr)
	if err == nil || !strings.Contains(stderr, "reading file [config/application.properties]: line 1: invalid UTF-8") || hint == "" {
		t.Fatalf("the report lacks the line or the hint:\n%s", stderr)
	}
	s := start(t, []string{hint}, nil)
	if _, body := get(t, s.URL+"/hello"); body != `{"text":"Café"}` {
		t.Errorf("with %s: /hello = %s, want Café", hint, body)
	}
}

// TestReportMasksByPosition: a report masks the password of a connection
// string where it stands, not the names equal to it, and shows Oracle's
// jdbc:oracle:thin:@host, which has none, as written.
func TestReportMasksByPosition(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		url  string
		want string
	}{
		{"postgres://postgres:postgres@localhost:25432/postgres", `Value: "postgres://postgres:******@localhost:25432/postgres"`},
		{"jdbc:oracle:thin:@localhost:1521/x", `Value: "jdbc:oracle:thin:@localhost:1521/x"`},
		{"jdbc:oracle:thin:scott/tiger@localhost:1521/x", `Value: "jdbc:oracle:thin:scott/******@localhost:1521/x"`},
	} {
		// tester.store-down takes true or false: the URL is refused, and
		// the report shows it as its Value.
		stderr, _ := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--tester.store-down=" + tt.url}, nil)
		if !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "tiger") || strings.Contains(stderr, "xxxxx") {
			t.Errorf("%s: the report lacks %s, or shows the password:\n%s", tt.url, tt.want, stderr)
		}
	}
}
