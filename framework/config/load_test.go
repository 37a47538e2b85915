package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// embedded mirrors the service's packaged settings.
var embedded = fstest.MapFS{
	"application.properties":     {Data: []byte("app.example.prop-a=from embedded\napp.example.prop-b=100\nshared=embedded\n")},
	"application-dev.properties": {Data: []byte("app.example.prop-b=200\n")},
	"application-qa.properties":  {Data: []byte("app.example.prop-b=300\nqa.only=yes\n")},
}

type loadCase struct {
	args     []string
	env      map[string]string
	files    map[string]string // path under the working directory → content
	embedded fstest.MapFS      // nil: the package's embedded mirror
}

func (c loadCase) load(t *testing.T) (*Environment, error) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range c.files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resources := embedded
	if c.embedded != nil {
		resources = c.embedded
	}
	return Load(Options{Embedded: resources, Dir: dir, Args: c.args, LookupEnv: func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }})
}

func mustLoad(t *testing.T, c loadCase) *Environment {
	t.Helper()
	env, err := c.load(t)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return env
}

func get(t *testing.T, env *Environment, key string) Value {
	t.Helper()
	v, ok, err := env.Lookup(key)
	if err != nil || !ok {
		t.Fatalf("Lookup(%q) = %v, %v, %v", key, v, ok, err)
	}
	return v
}

// TestPrecedence checks each layer against the one below it.
func TestPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		c          loadCase
		key        string
		want       string
		wantOrigin string
	}{
		{"embedded default", loadCase{}, "app.example.prop-b", "100", "embedded [application.properties] line 2"},
		{"embedded profile over embedded default", loadCase{args: []string{"--app.profiles.active=dev"}}, "app.example.prop-b", "200", "embedded [application-dev.properties] line 1"},
		{"profile file keeps the default's other keys", loadCase{args: []string{"--app.profiles.active=dev"}}, "app.example.prop-a", "from embedded", "embedded [application.properties] line 1"},
		{"later profile wins", loadCase{args: []string{"--app.profiles.active=dev,qa"}}, "app.example.prop-b", "300", "embedded [application-qa.properties] line 1"},
		{"later profile wins, other order", loadCase{args: []string{"--app.profiles.active=qa,dev"}}, "app.example.prop-b", "200", "embedded [application-dev.properties] line 1"},
		{"external default over embedded profile", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"application.properties": "app.example.prop-b=7"}}, "app.example.prop-b", "7", "file [application.properties] line 1"},
		{"./config over ./", loadCase{files: map[string]string{"application.properties": "shared=dot", "config/application.properties": "shared=config"}}, "shared", "config", "file [config/application.properties] line 1"},
		{"external profile over external default", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"config/application.properties": "shared=config", "application-dev.properties": "shared=dot-dev"}}, "shared", "dot-dev", "file [application-dev.properties] line 1"},
		{"external profile file ignored when its profile is not active", loadCase{files: map[string]string{"application-dev.properties": "shared=dot-dev"}}, "shared", "embedded", "embedded [application.properties] line 3"},
		{"environment over files", loadCase{env: map[string]string{"APP_EXAMPLE_PROPB": "9"}, files: map[string]string{"application.properties": "app.example.prop-b=7"}}, "app.example.prop-b", "9", "environment variable APP_EXAMPLE_PROPB"},
		{"relaxed name with underscore", loadCase{env: map[string]string{"APP_EXAMPLE_PROP_B": "8"}}, "app.example.prop-b", "8", "environment variable APP_EXAMPLE_PROP_B"},
		{"argument over environment", loadCase{args: []string{"--app.example.prop-b=10"}, env: map[string]string{"APP_EXAMPLE_PROPB": "9"}}, "app.example.prop-b", "10", "command-line argument --app.example.prop-b=10"},
		{"placeholder", loadCase{args: []string{"--x=${app.example.prop-a} and ${missing:fallback}"}}, "x", "from embedded and fallback", "command-line argument --x=${app.example.prop-a} and ${missing:fallback}"},
		{"config.location replaces ./", loadCase{args: []string{"--app.config.location=optional:elsewhere/"}, files: map[string]string{"application.properties": "shared=dot", "elsewhere/application.properties": "shared=elsewhere"}}, "shared", "elsewhere", "file [elsewhere/application.properties] line 1"},
		{"config.location file", loadCase{args: []string{"--app.config.location=my.properties"}, files: map[string]string{"my.properties": "shared=mine"}}, "shared", "mine", "file [my.properties] line 1"},
		{"the later profile wins across locations", loadCase{args: []string{"--app.profiles.active=qa,dev"}, files: map[string]string{"application-dev.properties": "shared=dot-dev", "config/application-qa.properties": "shared=config-qa"}}, "shared", "dot-dev", "file [application-dev.properties] line 1"},
		{"an existing folder without settings files is fine", loadCase{args: []string{"--app.config.additional-location=empty/"}, files: map[string]string{"empty/other.txt": "x"}}, "shared", "embedded", "embedded [application.properties] line 3"},
		{"additional-location adds after ./config", loadCase{env: map[string]string{"APP_CONFIG_ADDITIONALLOCATION": "optional:extra/"}, files: map[string]string{"config/application.properties": "shared=config", "extra/application.properties": "shared=extra"}}, "shared", "extra", "file [extra/application.properties] line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := get(t, mustLoad(t, tt.c), tt.key)
			if v.Resolved != tt.want || v.Origin != tt.wantOrigin {
				t.Errorf("%s:\ngot  %q from %q\nwant %q from %q", tt.key, v.Resolved, v.Origin, tt.want, tt.wantOrigin)
			}
		})
	}
}

func TestProfiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		c        loadCase
		active   []string
		explicit bool
		defaults []string
	}{
		{"none", loadCase{}, []string{"default"}, false, []string{"default"}},
		{"environment", loadCase{env: map[string]string{"APP_PROFILES_ACTIVE": "dev"}}, []string{"dev"}, true, []string{"default"}},
		{"argument", loadCase{args: []string{"--app.profiles.active=qa,dev"}}, []string{"qa", "dev"}, true, []string{"default"}},
		{"argument replaces environment", loadCase{args: []string{"--app.profiles.active=qa"}, env: map[string]string{"APP_PROFILES_ACTIVE": "dev"}}, []string{"qa"}, true, []string{"default"}},
		{"environment replaces file", loadCase{env: map[string]string{"APP_PROFILES_ACTIVE": "dev"}, files: map[string]string{"application.properties": "app.profiles.active=qa"}}, []string{"dev"}, true, []string{"default"}},
		{"file", loadCase{files: map[string]string{"application.properties": "app.profiles.active=qa"}}, []string{"qa"}, true, []string{"default"}},
		{"spaces around entries", loadCase{env: map[string]string{"APP_PROFILES_ACTIVE": " dev , qa "}}, []string{"dev", "qa"}, true, []string{"default"}},
		{"include comes first", loadCase{args: []string{"--app.profiles.active=dev", "--app.profiles.include=common"}}, []string{"common", "dev"}, true, []string{"default"}},
		{"groups expand depth-first without duplicates", loadCase{args: []string{"--app.profiles.active=prod,db", "--app.profiles.group.prod=db,web", "--app.profiles.group.web=cdn"}}, []string{"prod", "db", "web", "cdn"}, true, []string{"default"}},
		{"custom default", loadCase{files: map[string]string{"application.properties": "app.profiles.default=local"}}, []string{"local"}, false, []string{"local"}},
		{"custom default, unused", loadCase{args: []string{"--app.profiles.default=local", "--app.profiles.active=dev"}}, []string{"dev"}, true, []string{"local"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustLoad(t, tt.c)
			if got := env.ActiveProfiles(); !slices.Equal(got, tt.active) {
				t.Errorf("active:\ngot  %q\nwant %q", got, tt.active)
			}
			wantExplicit := []string{}
			if tt.explicit {
				wantExplicit = tt.active
			}
			if got := env.ExplicitProfiles(); !slices.Equal(got, wantExplicit) {
				t.Errorf("explicit:\ngot  %q\nwant %q", got, wantExplicit)
			}
			if got := env.DefaultProfiles(); !slices.Equal(got, tt.defaults) {
				t.Errorf("defaults:\ngot  %q\nwant %q", got, tt.defaults)
			}
		})
	}
}

func TestDefaultProfileFileIsRead(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{files: map[string]string{"application-default.properties": "shared=default-profile"}})
	if v := get(t, env, "shared"); v.Resolved != "default-profile" {
		t.Errorf("with no profile set, application-default.properties gives %q, want it read", v.Resolved)
	}
}

// TestLoadErrors checks that each failure names what is wrong and where.
func TestLoadErrors(t *testing.T) {
	t.Parallel()
	checkLoadErrors(t, []loadErrorCase{
		{"invalid profile name", loadCase{args: []string{"--app.profiles.active=dev,-bad"}}, []string{"app.profiles.active", "-bad", "command-line argument"}},
		{"invalid profile from environment", loadCase{env: map[string]string{"APP_PROFILES_ACTIVE": "a b"}}, []string{"app.profiles.active", "environment variable APP_PROFILES_ACTIVE"}},
		{"profile key in a profile file", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{"application-dev.properties": "app.profiles.active=qa"}}, []string{"app.profiles.active", "file [application-dev.properties] line 1", "profile-specific"}},
		{"unresolvable placeholder in a profile key", loadCase{files: map[string]string{"application.properties": "a=1\napp.profiles.active=${nope}"}}, []string{`app.profiles.active="${nope}"`, "file [application.properties] line 2", "nope"}},
		{"unresolvable placeholder in a location key", loadCase{args: []string{"--app.config.additional-location=${nope}/"}}, []string{"app.config.additional-location", "command-line argument", "nope"}},
		{"bad random range in a profile key", loadCase{args: []string{"--app.profiles.active=p${random.int(0)}"}}, []string{"app.profiles.active", "random.int(0)", "max > 0"}},
		{"missing mandatory location", loadCase{args: []string{"--app.config.location=nowhere/"}}, []string{"nowhere/", "app.config.location", "command-line argument"}},
		{"missing mandatory additional location", loadCase{env: map[string]string{"APP_CONFIG_ADDITIONALLOCATION": "gone.properties"}}, []string{"gone.properties", "app.config.additional-location", "environment variable APP_CONFIG_ADDITIONALLOCATION"}},
		{"malformed argument", loadCase{args: []string{"server.port=1"}}, []string{`"server.port=1"`, "--key=value"}},
		{"malformed file", loadCase{files: map[string]string{"config/application.properties": "a=\\u12"}}, []string{"file [config/application.properties]", "line 1"}},
	})
}

func TestBind(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--server.port=eighty", "--size=2MB", "--timeout=250", "--mode=fast"},
		env:  map[string]string{"APP_EXAMPLE_PROPB": "x"},
	})
	b := NewBinder(env)
	port := Bind(b, "server.port", 8080, Port)
	propB := Bind(b, "app.example.prop-b", int32(0), Int32)
	size := Bind(b, "size", ByteSize(1), DataSize)
	timeout := Bind(b, "timeout", 0, Duration)
	mode := Bind(b, "mode", "slow", OneOf("slow", "careful"))
	unset := Bind(b, "not.set", 42, IntIn(0, 100))
	if port != 8080 || propB != 0 || mode != "slow" {
		t.Errorf("bad values should give the defaults: port %d, prop-b %d, mode %q", port, propB, mode)
	}
	if size != 2<<20 || timeout.Milliseconds() != 250 || unset != 42 {
		t.Errorf("size %d, timeout %v, unset %d; want 2 MiB, 250ms, 42", size, timeout, unset)
	}
	// Each failure is a *SettingError that says which value, from where,
	// and why: what a start-up report is worded from.
	type failure struct{ key, raw, origin, reason string }
	var got []failure
	for _, e := range b.Err().(interface{ Unwrap() []error }).Unwrap() {
		var se *SettingError
		if !errors.As(e, &se) {
			t.Fatalf("%v is not a *SettingError", e)
		}
		got = append(got, failure{se.Value.Key, se.Value.Raw, se.Value.Origin, se.Reason})
	}
	want := []failure{
		{"server.port", "eighty", "command-line argument --server.port=eighty", "want a port number from 0 to 65535 (0 picks a free port)"},
		{"app.example.prop-b", "x", "environment variable APP_EXAMPLE_PROPB", "want an integer from -2147483648 to 2147483647"},
		{"mode", "fast", "command-line argument --mode=fast", "want one of slow, careful (in any case)"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("failures:\ngot  %q\nwant %q", got, want)
	}
	wantKeys := []string{"server.port", "app.example.prop-b", "size", "timeout", "mode", "not.set"}
	if Bind(b, "size", ByteSize(1), DataSize); !slices.Equal(b.Keys(), wantKeys) {
		t.Errorf("keys, each once in the order first bound:\ngot  %q\nwant %q", b.Keys(), wantKeys)
	}
}

func TestEnvNames(t *testing.T) {
	t.Parallel()
	for key, want := range map[string][]string{
		"server.port":         {"SERVER_PORT"},
		"app.example.prop-b":  {"APP_EXAMPLE_PROPB", "APP_EXAMPLE_PROP_B"},
		"app.profiles.active": {"APP_PROFILES_ACTIVE"},
	} {
		if got := EnvNames(key); !slices.Equal(got, want) {
			t.Errorf("%q:\ngot  %q\nwant %q", key, got, want)
		}
	}
}

// contains reports whether err's message contains s.
func contains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }

// loadErrorCase is a Load that must fail, its error containing each of want.
type loadErrorCase struct {
	name string
	c    loadCase
	want []string
}

func checkLoadErrors(t *testing.T, tests []loadErrorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.c.load(t)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tt.want {
				if !contains(err, w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestPlaceholdersResolveWhenRead: as in Spring, a placeholder is resolved
// when its setting is read, so one that does not resolve in a key nobody
// reads is no error; read through a Binder, it is one, naming the key, the
// placeholder, the file and the line.
func TestPlaceholdersResolveWhenRead(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args:  []string{"--other.arg=${NOT_SET}"},
		files: map[string]string{"application.properties": "app.greeting=Hi\nsome.other.value=${NOT_SET}\ngreeting.copy=${some.other.value}\n"},
	})
	if v := get(t, env, "app.greeting"); v.Resolved != "Hi" {
		t.Errorf("app.greeting = %q, want Hi", v.Resolved)
	}
	// Listing the sources resolves nothing that could fail.
	if got := len(env.PropertySources(nil)); got != 5 {
		t.Errorf("%d property sources, want 5", got)
	}
	if got := env.Resolve("${some.other.value}"); got != "${some.other.value}" {
		t.Errorf("Resolve of an unresolvable value = %q, want it as written", got)
	}

	// Read through a Binder, an unresolvable placeholder is kept as
	// written, as Spring's binder keeps it, and warned about once per
	// setting, naming the setting, its origin, the placeholder and the
	// chain that led to it. The loader's own reading is strict.
	tests := []struct {
		key, want string
		warning   map[string]any
	}{
		{"some.other.value", "${NOT_SET}", map[string]any{"key": "some.other.value", "origin": "file [application.properties] line 2", "placeholder": `"NOT_SET"`}},
		{"greeting.copy", "${NOT_SET}", map[string]any{"key": "greeting.copy", "origin": "file [application.properties] line 3", "placeholder": `"NOT_SET" (via some.other.value)`}},
		{"other.arg", "${NOT_SET}", map[string]any{"key": "other.arg", "origin": "command-line argument --other.arg", "placeholder": `"NOT_SET"`}},
	}
	for _, tt := range tests {
		b := NewBinder(env)
		if got := Bind(b, tt.key, "default", String); got != tt.want {
			t.Errorf("%s: bound %q, want %q", tt.key, got, tt.want)
		}
		Bind(b, tt.key, "default", String)
		if err := b.Err(); err != nil {
			t.Errorf("%s: Err() = %v, want none", tt.key, err)
		}
		if w := b.Warnings(); len(w) != 1 {
			t.Errorf("%s: %d warnings, want one: %v", tt.key, len(w), w)
		} else {
			attrs := map[string]any{}
			for i := 0; i+1 < len(w[0].LogAttrs()); i += 2 {
				attrs[fmt.Sprint(w[0].LogAttrs()[i])] = w[0].LogAttrs()[i+1]
			}
			if !maps.Equal(attrs, tt.warning) {
				t.Errorf("%s: warning %q %v, want %v", tt.key, w[0].Message, attrs, tt.warning)
			}
		}
		var se *SettingError
		if _, _, err := env.LookupStrict(tt.key); !errors.As(err, &se) || !strings.Contains(err.Error(), `could not resolve placeholder "NOT_SET"`) {
			t.Errorf("%s: LookupStrict = %v, want it refused naming the placeholder", tt.key, err)
		}
	}
}

// TestPlaceholderChains: an unresolvable placeholder reached through
// other settings names them, outermost first, however the values are
// first read (the memo keeps each name's chain below it).
func TestPlaceholderChains(t *testing.T) {
	t.Parallel()
	files := map[string]string{"application.properties": "halo.work-dir=${halo.base}/x\nhalo.base=${halo.root}/b\nhalo.root=${missing}\nok=${missing:fine}\n"}
	for _, order := range [][]string{{"halo.work-dir", "halo.base", "halo.root"}, {"halo.root", "halo.base", "halo.work-dir"}} {
		env := mustLoad(t, loadCase{files: files})
		for _, key := range order {
			v, _, err := env.Lookup(key)
			want := map[string]string{"halo.work-dir": `"missing" (via halo.base → halo.root)`, "halo.base": `"missing" (via halo.root)`, "halo.root": `"missing"`}[key]
			if err != nil || v.UnresolvedCount != 1 || v.Unresolved[0].String() != want {
				t.Errorf("%v: %s: %+v, %v; want %s", order, key, v.Unresolved, err, want)
			}
			if _, _, err := env.LookupStrict(key); err == nil || !strings.Contains(err.Error(), "could not resolve placeholder "+want) {
				t.Errorf("%v: %s: strictly, %v; want %s", order, key, err, want)
			}
		}
		if v, _, err := env.Lookup("halo.work-dir"); v.Resolved != "${missing}/b/x" || err != nil {
			t.Errorf("halo.work-dir = %q, %v; want ${missing}/b/x", v.Resolved, err)
		}
		if v, _, _ := env.Lookup("ok"); v.Resolved != "fine" || v.UnresolvedCount != 0 {
			t.Errorf("ok = %q (%d unresolved), want the default", v.Resolved, v.UnresolvedCount)
		}
	}
}

// TestSpringPlaceholdersReadTheirTwins: ${spring.X} is read as ${app.X},
// as every spring. key is, its default included.
func TestSpringPlaceholdersReadTheirTwins(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args:  []string{"--a=${spring.application.name}", "--b=${spring.missing.name:fallback}", "--c=${app.data.host}", "--d=${spring.data.host}"},
		files: map[string]string{"application.properties": "app.application.name=greeter\nspring.data.host=db\n"},
	})
	for key, want := range map[string]string{"a": "greeter", "b": "fallback", "c": "db", "d": "db"} {
		if v, _, err := env.Lookup(key); err != nil || v.Resolved != want || v.UnresolvedCount != 0 {
			t.Errorf("%s = %q, %v; want %q", key, v.Resolved, err, want)
		}
	}
}

// TestSystemPropertyPlaceholders: the JVM's user.home, user.dir,
// user.name and java.io.tmpdir resolve to Go's equivalents when no
// source sets them, and a source that sets one wins.
func TestSystemPropertyPlaceholders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, _ := os.UserHomeDir()
	abs, _ := filepath.Abs(dir)
	name, ok := systemProperty("user.name", "")
	if !ok || name == "" {
		t.Fatal("user.name has no value")
	}
	env, err := Load(Options{Dir: dir, Args: []string{"--h=${user.home}/.halo", "--d=${user.dir}", "--n=${user.name}", "--t=${java.io.tmpdir}",
		"--o=${java.io.tmpdir:ignored}", "--s=${user.dir}", "--user.dir=/set/here"}})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"h": home + "/.halo", "n": name, "t": os.TempDir(), "o": os.TempDir(), "s": "/set/here"} {
		if v, _, err := env.Lookup(key); err != nil || v.Resolved != want {
			t.Errorf("%s = %q, %v; want %q", key, v.Resolved, err, want)
		}
	}
	if env, err = Load(Options{Dir: dir, Args: []string{"--d=${user.dir}"}}); err != nil {
		t.Fatal(err)
	}
	if v, _, err := env.Lookup("d"); err != nil || v.Resolved != abs {
		t.Errorf("user.dir = %q, %v; want the settings' working directory %q", v.Resolved, err, abs)
	}
}

// TestUnresolvedSecretStaysMasked: a secret whose own placeholder does not
// resolve stops start-up, rather than being kept as written, and is
// masked in the error, value and origin, its placeholder's name shown.
// So is a connection string whose password is such a placeholder.
func TestUnresolvedSecretStaysMasked(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--db.password=abc${nope}hunter2", "--x.password=${CONFIG_SERVICE_PASSWORD}",
		"--x.url=postgres://app:${DB_PW}@db/shop", "--y.url=postgres://app:pw@db/${DB_NAME}", "--z.password=${MISSING:hunter2}"}})
	b := NewBinder(env)
	Bind(b, "db.password", "", String)
	Bind(b, "x.password", "", String)
	Bind(b, "x.url", "", String)
	if got := Bind(b, "y.url", "", String); got != "postgres://app:pw@db/${DB_NAME}" {
		t.Errorf("y.url = %q, want the placeholder kept in the database's name", got)
	}
	if got := Bind(b, "z.password", "", String); got != "hunter2" {
		t.Errorf("z.password = %q, want its default", got)
	}
	err := b.Err()
	if err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "abc") || !strings.Contains(err.Error(), Mask) {
		t.Errorf("the error shows the secret, or is missing: %v", err)
	}
	for _, want := range []string{`could not resolve placeholder "nope" in value "******${nope}******"`,
		`could not resolve placeholder "CONFIG_SERVICE_PASSWORD" in value "${CONFIG_SERVICE_PASSWORD}"`,
		`could not resolve placeholder "DB_PW" in value "postgres://app:******@db/shop": the password of a connection string`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %s: %v", want, err)
		}
	}
	if n := len(flattenErrs(err)); n != 3 {
		t.Errorf("%d errors, want 3: %v", n, err)
	}
}

// flattenErrs unwraps joined errors.
func flattenErrs(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// TestRefusedOnce: a setting refused again for the reason it already
// failed for (Bind, then Refuse of the default it returned) is reported
// once.
func TestRefusedOnce(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--db.password=${NOPE}"}})
	b := NewBinder(env)
	Bind(b, "db.password", "", String)
	b.Refuse("db.password", "a user needs a password")
	Bind(b, "db.password", "", String)
	if n := len(flattenErrs(b.Err())); n != 1 {
		t.Errorf("%d errors, want 1: %v", n, b.Err())
	}
}

// TestRelaxedValues: enum-like settings and booleans are bound in any
// case (and for enums, any separators), returning the canonical value.
func TestRelaxedValues(t *testing.T) {
	t.Parallel()
	show := OneOf("never", "when-authorized", "always")
	tests := []struct {
		in, want string
	}{
		{"always", "always"}, {"ALWAYS", "always"}, {" Always ", "always"},
		{"when-authorized", "when-authorized"}, {"WHEN_AUTHORIZED", "when-authorized"}, {"whenAuthorized", "when-authorized"},
		{"sometimes", ""}, {"", ""}, {"-", ""},
	}
	for _, tt := range tests {
		got, err := show(tt.in)
		if tt.want == "" {
			if err == nil || err.Error() != "want one of never, when-authorized, always (in any case)" {
				t.Errorf("OneOf(%q) = %q, %v; want it refused, listing the values", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("OneOf(%q):\ngot  %q, %v\nwant %q", tt.in, got, err, tt.want)
		}
	}
	for in, want := range map[string]bool{"true": true, "TRUE": true, "on": true, "Yes": true, "1": true, "false": false, "False": false, "off": false, "NO": false, "0": false} {
		if got, err := Bool(in); err != nil || got != want {
			t.Errorf("Bool(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := Bool("maybe"); err == nil {
		t.Error("Bool(maybe) parsed")
	}
}
