package config

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestCheckKeys: under the roots checked and the service's own, a key
// that nothing reads gets a line with its origin and a hint (the
// caller's first, else the nearest key read); a read family's members,
// spring. twins of keys read, other roots, Kubernetes' service links and
// variables outside the groups read pass; ignored families are counted.
func TestCheckKeys(t *testing.T) {
	env, err := Load(Options{Dir: t.TempDir(), Args: []string{
		"--server.prot=1", "--server.port=1", "--spring.jpa.show-sql=true", "--app.jpa.open-in-view=false",
		"--spring.name=x", "--shop.nme=x", "--other.thing=x", "--app.tags.region=eu", "--app.old.host=x",
	}})
	if err != nil {
		t.Fatal(err)
	}
	report := CheckKeys(env, KeyCheck{
		Roots:                 []string{"server", "app", "spring"},
		Read:                  []string{"server.port", "app.name", "shop.name"},
		Own:                   []string{"shop.name"},
		ReadFamilies:          []string{"app.tags."},
		IgnoredFamilies:       []string{"app.jpa."},
		Variables:             []string{"SERVER_PROT", "SERVER_TIMEOUT", "APP_HOME", "SERVER_SERVICE_HOST", "APP_TAGS_ZONE", "APP_OLD_HOST", "SPRING_NAME"},
		SettingsOnlyVariables: []string{"SERVER_"},
		KeyHint: func(key string) string {
			if strings.HasPrefix(key, "app.old.") {
				return "renamed app.new"
			}
			return ""
		},
		VariableHint: func(name string) string {
			if strings.HasPrefix(name, "APP_OLD_") {
				return "renamed APP_NEW"
			}
			return ""
		},
		RefusedBy: "app.fail",
	})
	var out bytes.Buffer
	report.Log(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})))
	want := `level=INFO msg="spring. keys read as their app. twins" keys=SPRING_NAME,spring.name
level=WARN msg="setting not read by anything, ignored" key=server.prot origin="command-line argument --server.prot" hint="did you mean server.port?"
level=WARN msg="setting not read by anything, ignored" key=shop.nme origin="command-line argument --shop.nme" hint="did you mean shop.name?"
level=WARN msg="setting not read by anything, ignored" key=app.old.host origin="command-line argument --app.old.host" hint="renamed app.new"
level=WARN msg="setting not read by anything, ignored" key=APP_OLD_HOST origin="environment variable APP_OLD_HOST" hint="renamed APP_NEW"
level=WARN msg="setting not read by anything, ignored" key=SERVER_PROT origin="environment variable SERVER_PROT" hint="did you mean SERVER_PORT (server.port)?"
level=WARN msg="setting not read by anything, ignored" key=SERVER_TIMEOUT origin="environment variable SERVER_TIMEOUT"
level=WARN msg="Spring Boot settings that mean nothing here, ignored" families="app.jpa.* (1), spring.jpa.* (1)"
`
	if got := out.String(); got != want {
		t.Errorf("the log:\ngot\n%s\nwant\n%s", got, want)
	}
	refusal := `Settings that nothing reads, refused by app.fail=true:

    server.prot (command-line argument --server.prot): did you mean server.port?
    shop.nme (command-line argument --shop.nme): did you mean shop.name?
    app.old.host (command-line argument --app.old.host): renamed app.new
    APP_OLD_HOST (environment variable APP_OLD_HOST): renamed APP_NEW
    SERVER_PROT (environment variable SERVER_PROT): did you mean SERVER_PORT (server.port)?
    SERVER_TIMEOUT (environment variable SERVER_TIMEOUT)`
	if err := report.Refusal(); err == nil || err.Error() != refusal {
		t.Errorf("the refusal:\ngot\n%v\nwant\n%s", err, refusal)
	}
}

// TestCheckKeysNothingUnknown: with every key read there is nothing to
// refuse.
func TestCheckKeysNothingUnknown(t *testing.T) {
	env, err := Load(Options{Dir: t.TempDir(), Args: []string{"--server.port=1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckKeys(env, KeyCheck{Roots: []string{"server"}, Read: []string{"server.port"}}).Refusal(); err != nil {
		t.Errorf("refused %v", err)
	}
}
