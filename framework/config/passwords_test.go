package config

import (
	"net/url"
	"strings"
	"testing"
)

// The two halves of every password below: the test fails when either
// shows in what MaskPasswords returns, so a password cut in two by a
// character the scanner stopped at is caught too.
const (
	passwordHead = "Zq7hd"
	passwordTail = "Xw9tl"
)

// maskedShapes are connection strings, well formed and not, each with a
// password made of passwordHead, a character that shape allows inside a
// password, and passwordTail.
func maskedShapes() []string {
	var shapes []string
	schemes := []string{"postgres", "postgresql", "jdbc:postgresql", "redis", "rediss", "mysql", "PostgreS", "x+y.z-w"}
	separators := []string{"://", "//", ":/", ":", ":///", "://///"}
	// Characters drivers take unescaped in a user-info password.
	inUserInfo := []string{"", "/", "#", "?", "@", ":", "=", "&", ";", "%40", "'", "!$*"}
	for _, scheme := range schemes {
		for _, sep := range separators {
			for _, c := range inUserInfo {
				pw := passwordHead + c + passwordTail
				for _, tail := range []string{"@db/shop", "@db:5432/shop?sslmode=disable", "@h1,h2/db#frag", "@db/x?y=a@b", "@"} {
					shapes = append(shapes, scheme+sep+"app:"+pw+tail, scheme+sep+":"+pw+tail)
				}
			}
		}
	}
	// Query parameters, as pgx, libpq and JDBC drivers take them.
	inQuery := []string{"", "/", "#", "?", "@", ":", "=", "%26", "'", " "}
	for _, name := range []string{"password", "sslpassword", "PASSWORD", "Password", "pass%77ord", "client_secret", "api-key", "auth.token", "aws.credentials"} {
		for _, c := range inQuery {
			pw := passwordHead + c + passwordTail
			for _, prefix := range []string{"postgres://db/shop", "jdbc:postgresql://db/shop", "jdbc:postgresql://host/db?user=u", "postgres//db", "redis://cache:6379/0", "postgres:db", "//db"} {
				join := "?"
				if strings.Contains(prefix, "?") {
					join = "&"
				}
				shapes = append(shapes,
					prefix+join+name+"="+pw,
					prefix+join+name+"="+pw+"&sslmode=disable",
					prefix+join+"sslmode=disable&"+name+"="+pw+"#frag",
					prefix+join+"a=1;"+name+"="+pw+";b=2",
				)
			}
			shapes = append(shapes, "jdbc:sqlserver://db;user=u;"+name+"="+pw+";encrypt=true")
		}
	}
	// libpq key/value DSNs: unquoted values end at whitespace, quoted ones
	// may hold it; a backslash escapes.
	for _, c := range []string{"", "&", ";", "/", "@", "#", "?", "=", ":", `\ `} {
		pw := passwordHead + c + passwordTail
		shapes = append(shapes,
			"host=db password="+pw,
			"host=db password="+pw+" sslmode=disable",
			"password="+pw+" host=db",
			"host=db\tpassword = "+pw+"\tuser=app",
			"host=db sslpassword="+pw,
			"host=db PASSWORD="+pw,
		)
	}
	for _, c := range []string{"", " ", `\'`, "&", "=", "@", "'' "} {
		pw := passwordHead + c + passwordTail
		if c == "'' " {
			continue
		}
		shapes = append(shapes,
			"host=db password='"+pw+"' user=app",
			"host=db password = '"+pw+"'",
			"host=db password='"+pw, // never closed
			`host=db password="`+pw+`" user=app`,
		)
	}
	return shapes
}

// TestMaskPasswordsNeverShowsOne checks that no shape shows any of its
// password, whatever key it is the value of.
func TestMaskPasswordsNeverShowsOne(t *testing.T) {
	t.Parallel()
	shapes := maskedShapes()
	if len(shapes) < 1000 {
		t.Fatalf("only %d shapes", len(shapes))
	}
	for _, s := range shapes {
		for _, got := range []string{MaskPasswords(s), Sanitize("app.datasource.url", s), Sanitize("anything", s)} {
			if strings.Contains(got, passwordHead) || strings.Contains(got, passwordTail) {
				t.Errorf("%q:\ngot  %q\nwhich shows the password", s, got)
				break
			}
			if !strings.Contains(got, Mask) {
				t.Errorf("%q:\ngot  %q\nwithout a mask", s, got)
				break
			}
		}
	}
}

// TestMaskPasswordsKeepsTheRest checks what is shown around the
// password, and that text holding none is shown as it is.
func TestMaskPasswordsKeepsTheRest(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"postgres//u:hunter2@host/db", "postgres//u:" + Mask + "@host/db"},
		{"redis//u:hunter2@cache", "redis//u:" + Mask + "@cache"},
		{"postgres:u:hunter2@host/db", "postgres:" + Mask + "@host/db"},
		{"jdbc:postgresql://host/db?user=u&password=hunter2", "jdbc:postgresql://host/db?user=u&password=" + Mask},
		{"jdbc:postgresql://u:hunter2@host/db?ssl=true", "jdbc:postgresql://u:" + Mask + "@host/db?ssl=true"},
		{"jdbc:postgresql://host/db?password=hunter2&sslpassword=k3y&ssl=true", "jdbc:postgresql://host/db?password=" + Mask + "&sslpassword=" + Mask + "&ssl=true"},
		{"postgres://db/shop?pass%77ord=hunter2&sslmode=disable", "postgres://db/shop?pass%77ord=" + Mask + "&sslmode=disable"},
		{"host=db password=hunter2 sslmode=disable", "host=db password=" + Mask + " sslmode=disable"},
		{"host=db password = 'hun ter\\'2' user=app", "host=db password = '" + Mask + "' user=app"},
		{"host=db user=app", "host=db user=app"},
		{"host=db passwordless=yes", "host=db passwordless=yes"},
		{"host=db mypassword=x", "host=db mypassword=" + Mask},
		{"postgres://app@db/greeter", "postgres://app@db/greeter"},
		{"postgres://db:5432/greeter?sslmode=disable", "postgres://db:5432/greeter?sslmode=disable"},
		{"mail me: a@b.c", "mail me: a@b.c"},
		{"a=b=c", "a=b=c"},
		{"Hello, World", "Hello, World"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := MaskPasswords(tt.in); got != tt.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestSettingErrorMasksTheReason checks that a reason quoting the value
// (as a driver's parse error does) does not show its password either.
func TestSettingErrorMasksTheReason(t *testing.T) {
	t.Parallel()
	raw := "host=db password=hunter2"
	err := &SettingError{Value: Value{Key: "app.datasource.url", Raw: raw, Resolved: raw, Origin: "command-line argument --app.datasource.url=" + raw},
		Reason: "cannot parse `" + raw + "`: bad"}
	if got := err.Error(); strings.Contains(got, "hunter2") || !strings.Contains(got, "from command-line argument --app.datasource.url is") {
		t.Errorf("got %s", got)
	}
}

// FuzzMaskPasswords puts a password into a URL's user-info, a URL's query
// and a DSN's quoted value, around whatever user and host the fuzzer
// gives, and checks that MaskPasswords never shows it.
func FuzzMaskPasswords(f *testing.F) {
	f.Add("app", "hunter2", "db:5432/shop")
	f.Add("", "pa/ss#wo?rd@x", "cache/0")
	f.Add("u", `it's \ here`, "h")
	f.Fuzz(func(t *testing.T, user, password, host string) {
		if len(password) < 3 || strings.ContainsAny(user, ":@/") || strings.ContainsAny(host, "@'\\ \t\r\n") ||
			strings.Contains(user+host+Mask, password) || strings.Contains(password, "*") {
			t.Skip()
		}
		shapes := []func(pw string) (s, secret string){
			func(pw string) (string, string) { return "postgres://" + user + ":" + pw + "@" + host, pw },
			func(pw string) (string, string) { return "postgres//" + user + ":" + pw + "@" + host, pw },
			func(pw string) (string, string) {
				q := url.QueryEscape(pw)
				return "jdbc:postgresql://" + strings.ReplaceAll(host, "?", "") + "?user=u&password=" + q + "&ssl=true", q
			},
			func(pw string) (string, string) {
				e := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw)
				return "host=" + host + " password='" + e + "' user=" + user, e
			},
			func(pw string) (string, string) { return "jdbc:oracle:thin:" + user + "/" + pw + "@" + host, pw },
			func(pw string) (string, string) {
				if strings.ContainsAny(pw, ",)") {
					return "", "" // MySQL's key-value hosts cannot hold these unquoted
				}
				return "jdbc:mysql://(host=" + host + ",user=" + user + ",password=" + pw + ")/db", pw
			},
			func(pw string) (string, string) {
				e := "{" + strings.ReplaceAll(pw, "}", "}}") + "}"
				return "jdbc:sqlserver://" + strings.NewReplacer(";", "", "?", "", "&", "").Replace(host) + ";user=" + user + ";password=" + e + ";encrypt=true", pw
			},
		}
		for _, shape := range shapes {
			s, secret := shape(password)
			if s == "" {
				continue
			}
			if frame, _ := shape(Mask); strings.Contains(frame, secret) {
				continue // the secret is also text around it
			}
			if got := MaskPasswords(s); strings.Contains(got, secret) {
				t.Errorf("%q:\ngot  %q\nwhich shows the password %q", s, got, secret)
			}
		}
	})
}

// TestMaskPasswordsJDBCVendors: in the JDBC URLs of each vendor, only the
// password is masked, by position: its user-info password or its password
// parameter. A URL without one, Oracle's jdbc:oracle:thin:@host included,
// is shown as it is; a password that equals the user or database name
// masks only itself.
func TestMaskPasswordsJDBCVendors(t *testing.T) {
	t.Parallel()
	m := Mask
	tests := []struct{ vendor, in, want string }{
		{"Oracle, no user", "jdbc:oracle:thin:@localhost:1521/x", "jdbc:oracle:thin:@localhost:1521/x"},
		{"Oracle, service", "jdbc:oracle:thin:@//db.example.com:1521/ORCLPDB1", "jdbc:oracle:thin:@//db.example.com:1521/ORCLPDB1"},
		{"Oracle, TNS", "jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=x)))",
			"jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=x)))"},
		{"Oracle, user/password", "jdbc:oracle:thin:scott/tiger@host:1521/x", "jdbc:oracle:thin:scott/" + m + "@host:1521/x"},
		{"Oracle, user/password, service", "jdbc:oracle:thin:scott/tiger@//host:1521/x", "jdbc:oracle:thin:scott/" + m + "@//host:1521/x"},
		{"Oracle, OCI", "jdbc:oracle:oci:scott/tiger@x", "jdbc:oracle:oci:scott/" + m + "@x"},
		{"Oracle, quoted", `jdbc:oracle:thin:scott/"ti@ger"@host:1521/x`, "jdbc:oracle:thin:scott/" + m + "@host:1521/x"},
		{"Oracle, user alone", "jdbc:oracle:thin:scott@host:1521/x", "jdbc:oracle:thin:scott@host:1521/x"},
		{"MySQL, user-info", "jdbc:mysql://u:p@h/db", "jdbc:mysql://u:" + m + "@h/db"},
		{"MySQL, query", "jdbc:mysql://h:3306/db?user=u&password=p&useSSL=false", "jdbc:mysql://h:3306/db?user=u&password=" + m + "&useSSL=false"},
		{"MySQL, key-value host", "jdbc:mysql://(host=h,port=3306,user=u,password=p)/db", "jdbc:mysql://(host=h,port=3306,user=u,password=" + m + ")/db"},
		{"MySQL, no password", "jdbc:mysql://localhost:3306/halo?characterEncoding=utf8&useSSL=false", "jdbc:mysql://localhost:3306/halo?characterEncoding=utf8&useSSL=false"},
		{"MariaDB", "jdbc:mariadb://u:p@h:3306/db", "jdbc:mariadb://u:" + m + "@h:3306/db"},
		{"SQL Server", "jdbc:sqlserver://h;user=u;password=p", "jdbc:sqlserver://h;user=u;password=" + m},
		{"SQL Server, braced", "jdbc:sqlserver://h:1433;databaseName=db;password={p;w}};x};encrypt=true", "jdbc:sqlserver://h:1433;databaseName=db;password={" + m + "};encrypt=true"},
		{"SQL Server, no password", "jdbc:sqlserver://h:1433;databaseName=db;integratedSecurity=true", "jdbc:sqlserver://h:1433;databaseName=db;integratedSecurity=true"},
		{"PostgreSQL, query", "jdbc:postgresql://h/db?password=p", "jdbc:postgresql://h/db?password=" + m},
		{"PostgreSQL, password is the name", "jdbc:postgresql://postgres:postgres@localhost:25432/postgres", "jdbc:postgresql://postgres:" + m + "@localhost:25432/postgres"},
		{"PostgreSQL, no password", "jdbc:postgresql://localhost:5432/petclinic", "jdbc:postgresql://localhost:5432/petclinic"},
		{"DB2", "jdbc:db2://h:50000/db:user=u;password=p;", "jdbc:db2://h:50000/db:user=u;password=" + m + ";"},
		{"H2", "jdbc:h2:mem:test;DB_CLOSE_DELAY=-1", "jdbc:h2:mem:test;DB_CLOSE_DELAY=-1"},
		{"H2, TCP", "jdbc:h2:tcp://h/~/test;USER=sa;PASSWORD=p", "jdbc:h2:tcp://h/~/test;USER=sa;PASSWORD=" + m},
		{"Derby", "jdbc:derby:db;user=u;password=p", "jdbc:derby:db;user=u;password=" + m},
		{"Informix", "jdbc:informix-sqli://h:1533/db:INFORMIXSERVER=s;user=u;password=p", "jdbc:informix-sqli://h:1533/db:INFORMIXSERVER=s;user=u;password=" + m},
		{"jTDS", "jdbc:jtds:sqlserver://h:1433/db;user=u;password=p", "jdbc:jtds:sqlserver://h:1433/db;user=u;password=" + m},
		{"malformed JDBC", "jdbc:postgresql:u:p@h/db", "jdbc:postgresql:u:" + m + "@h/db"},
		{"R2DBC", "r2dbc:postgresql://u:p@h/db", "r2dbc:postgresql://u:" + m + "@h/db"},
	}
	for _, tt := range tests {
		if got := MaskPasswords(tt.in); got != tt.want {
			t.Errorf("%s: %q:\ngot  %q\nwant %q", tt.vendor, tt.in, got, tt.want)
		}
	}
}

// TestShownMasksByPosition: a setting's report masks its password where
// it stands, never a name that happens to equal it, with one mask; a
// parser's message that quotes a secret no structure marks still has it
// masked.
func TestShownMasksByPosition(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--db.url=postgres://postgres:postgres@localhost:25432/postgres",
		"--db.password=petclinic", "--x.url=jdbc:oracle:thin:@localhost:1521/x", "--y.secret=hunter2"}})
	check := func(key, reason string, want, unwanted []string) {
		t.Helper()
		v, _, err := env.Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		se := &SettingError{Value: v, Reason: reason}
		value, origin, shown := se.Shown()
		all := value + "\n" + origin + "\n" + shown
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: %q lacks %q", key, all, w)
			}
		}
		for _, u := range unwanted {
			if strings.Contains(all, u) {
				t.Errorf("%s: %q holds %q", key, all, u)
			}
		}
	}
	check("db.url", "connecting to PostgreSQL at localhost:25432/postgres as postgres: refused",
		[]string{"postgres://postgres:******@localhost:25432/postgres", "at localhost:25432/postgres as postgres"}, []string{"xxxxx"})
	// The password of a key that holds one is shown nowhere in clear: a
	// message about that very key that quotes its text cannot be told
	// from one quoting the password.
	check("db.password", "connecting to PostgreSQL at localhost:5432/petclinic as petclinic: refused",
		[]string{"at localhost:5432/****** as ******"}, []string{"petclinic"})
	check("x.url", "no listener at jdbc:oracle:thin:@localhost:1521/x", []string{"jdbc:oracle:thin:@localhost:1521/x"}, []string{"******"})
	check("y.secret", `cannot parse "hunter2"`, []string{`cannot parse "******"`}, []string{"hunter2"})
}

// TestSanitizeShowsPlaceholderNames: a value shows its placeholders'
// names; only the defaults of those that name secrets are masked, besides
// the passwords of connection strings.
func TestSanitizeShowsPlaceholderNames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ key, in, want string }{
		{"x", "${CONFIG_SERVICE_PASSWORD}", "${CONFIG_SERVICE_PASSWORD}"},
		{"x", "${db.password:hunter2}", "${db.password:******}"},
		{"x", "${DB_USER:app}:${DB_TOKEN:${other:t0k}}", "${DB_USER:app}:${DB_TOKEN:${other:******}}"},
		{"x", "postgres://app:${DB_PW:pw}@db/${DB_NAME:shop}", "postgres://app:******@db/${DB_NAME:shop}"},
		{"x", "${a:b} ${unclosed:c", "${a:b} ${unclosed:c"},
		{"x.password", "${CONFIG_SERVICE_PASSWORD}", Mask},
	} {
		if got := Sanitize(tt.key, tt.in); got != tt.want {
			t.Errorf("Sanitize(%q, %q) = %q, want %q", tt.key, tt.in, got, tt.want)
		}
	}
}
