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
			strings.Contains(user+host+Mask, password) {
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
		}
		for _, shape := range shapes {
			s, secret := shape(password)
			if frame, _ := shape(Mask); strings.Contains(frame, secret) {
				continue // the secret is also text around it
			}
			if got := MaskPasswords(s); strings.Contains(got, secret) {
				t.Errorf("%q:\ngot  %q\nwhich shows the password %q", s, got, secret)
			}
		}
	})
}
