package main

// The database as Spring users name it: JDBC and R2DBC URLs, under
// spring. keys.

import (
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// TestSpringDataSourceURLs: a JDBC URL (in SPRING_DATASOURCE_URL, its user
// and password as parameters) and an R2DBC URL (spring.r2dbc.url, when no
// datasource URL is set) name the PostgreSQL database the messages are
// kept in.
func TestSpringDataSourceURLs(t *testing.T) {
	t.Parallel()
	db, err := url.Parse(enginetest.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	user := db.User.Username()
	password, _ := db.User.Password()
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"jdbc", nil, map[string]string{"SPRING_DATASOURCE_URL": "jdbc:postgresql://" + db.Host + db.Path +
			"?user=" + url.QueryEscape(user) + "&password=" + url.QueryEscape(password) + "&ApplicationName=greeter-test"}},
		{"r2dbc", []string{"--spring.r2dbc.url=r2dbc:postgresql://" + db.Host + db.Path, "--spring.r2dbc.username=" + user,
			"--spring.r2dbc.password=" + password}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, append(tt.args, "--management.endpoint.health.show-details=always"), tt.env)
			r := s.do(t, "GET", "/actuator/health", "")
			if r.status != 200 || !strings.Contains(r.body, `"db":{"status":"UP","details":{"database":"PostgreSQL"`) {
				t.Errorf("GET /actuator/health = %d %s, want the PostgreSQL database UP", r.status, r.body)
			}
			if r := s.do(t, "POST", "/api/messages", `{"text":"kept"}`, "Content-Type: application/json"); r.status != 201 {
				t.Errorf("POST /api/messages = %d %s, want 201", r.status, r.body)
			}
		})
	}
}

// TestOtherDatabasesRefused: a JDBC or R2DBC URL of another database, or
// with a parameter that has no equivalent, stops start-up; the report
// names the setting as written, its origin and the databases supported,
// and never the password.
func TestOtherDatabasesRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{[]string{"--spring.datasource.url=jdbc:mysql://app:hunter2@db/shop"}, nil, []string{"Property: spring.datasource.url",
			"Origin: command-line argument --spring.datasource.url", "Reason: a JDBC URL of mysql; only PostgreSQL is supported: jdbc:postgresql://host:port/database"}},
		{nil, map[string]string{"SPRING_DATASOURCE_URL": "jdbc:sqlserver://db;user=sa;password=hunter2"}, []string{"Property: app.datasource.url",
			"Origin: environment variable SPRING_DATASOURCE_URL", "Reason: a JDBC URL of sqlserver; only PostgreSQL is supported"}},
		{[]string{"--spring.r2dbc.url=r2dbc:h2:mem:///test?password=hunter2"}, nil, []string{"Property: spring.r2dbc.url",
			"Reason: an R2DBC URL of h2; only PostgreSQL is supported: r2dbc:postgresql://host:port/database"}},
		{[]string{"--app.datasource.url=jdbc:postgresql://db/shop?password=hunter2&loginTimeout=3"}, nil, []string{"Property: app.datasource.url",
			"Reason: the JDBC URL's parameter loginTimeout has no equivalent here"}},
	} {
		report, err := boottest.FailToStart(t, greeter(), append([]string{"--server.port=0"}, tt.args...), tt.env)
		if err == nil {
			t.Errorf("%v %v: started", tt.args, tt.env)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(report, w) {
				t.Errorf("%v %v: the report lacks %q:\n%s", tt.args, tt.env, w, report)
			}
		}
		if strings.Contains(report, "hunter2") {
			t.Errorf("%v %v: the report shows the password:\n%s", tt.args, tt.env, report)
		}
	}
}

// TestOtherDataSourcesSaidOnce: a Spring application's MySQL through
// Druid's starter, dynamic-datasource or a URL under a key of its own
// starts on the in-memory store, and one line says so: no datasource is
// configured, the messages live in memory, and which settings named a
// database greeter does not read, as written and where, never their
// values. With no such settings, or with a datasource, nothing is said.
func TestOtherDataSourcesSaidOnce(t *testing.T) {
	// Not parallel: it changes the working directory (t.Chdir).
	t.Chdir(t.TempDir())
	file := "spring:\n  datasource:\n    druid:\n      url: jdbc:mysql://localhost:3306/ry?useSSL=false\n      username: root\n      password: hunter2\n" +
		"    dynamic:\n      primary: master\n      datasource:\n        master:\n          url: jdbc:mysql://localhost:3306/ry\n" +
		"custom:\n  orders:\n    jdbc-url: jdbc:oracle:thin:@localhost:1521/x\n"
	if err := os.WriteFile("application.yml", []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, nil, nil)
	line := s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="no datasource is configured.*`))[0]
	for _, want := range []string{"the messages live in memory",
		`Druid: spring.datasource.druid.url and 2 more keys (file [application.yml] line 4 column 12)`,
		`dynamic-datasource: spring.datasource.dynamic.primary and 1 more key (file [application.yml] line 8 column 16)`,
		`JDBC URL: custom.orders.jdbc-url (file [application.yml] line 14 column 15)`} {
		if !strings.Contains(line, want) {
			t.Errorf("the line lacks %s:\n%s", want, line)
		}
	}
	if n := strings.Count(s.Stdout.String(), "no datasource is configured"); n != 1 || strings.Contains(s.Stdout.String(), "hunter2") {
		t.Errorf("said %d times, or shows a password:\n%s", n, s.Stdout)
	}

	plain := start(t, []string{"--spring.config.location=optional:file:./none/"}, nil)
	if strings.Contains(plain.Stdout.String(), "no datasource is configured") {
		t.Errorf("said without datasource settings:\n%s", plain.Stdout)
	}
}

// TestRefusalMasksThePasswordOnly: a PostgreSQL refusal, where the
// password equals the user's and the database's name (postgres,
// petclinic, as Spring samples set them), masks the password where it
// stands, with one mask, and shows the names in clear.
func TestRefusalMasksThePasswordOnly(t *testing.T) {
	t.Parallel()
	server, err := url.Parse(enginetest.PostgresServer(t))
	if err != nil {
		t.Fatal(err)
	}
	user := server.User.Username()
	// A database that does not exist, named as the user and the password.
	db := user + "_missing_" + strings.ReplaceAll(t.Name(), "/", "_")
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"in the URL", []string{"--spring.datasource.url=postgres://" + user + ":" + user + "@" + server.Host + "/" + db},
			[]string{`Value: "postgres://` + user + `:******@` + server.Host + "/" + db + `"`, "as " + user + ":", "`user=" + user + " database=" + db + "`"}},
		{"apart", []string{"--spring.datasource.url=jdbc:postgresql://" + server.Host + "/" + db, "--spring.datasource.username=" + db, "--spring.datasource.password=" + db},
			[]string{`Value: "jdbc:postgresql://` + server.Host + "/" + db + `"`, "/" + db + " as " + db + ":", "`user=" + db + " database=" + db + "`"}},
	} {
		report, err := boottest.FailToStart(t, greeter(), append([]string{"--server.port=0"}, tt.args...), nil)
		if err == nil {
			t.Fatalf("%s: started", tt.name)
		}
		for _, w := range tt.want {
			if !strings.Contains(report, w) {
				t.Errorf("%s: the report lacks %q:\n%s", tt.name, w, report)
			}
		}
		if strings.Contains(report, "xxxxx") {
			t.Errorf("%s: the report masks with another mask:\n%s", tt.name, report)
		}
	}
}
