package config

import (
	"bytes"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// TestMatchKey holds the name mapping to Spring's: the keys of each row
// are bound alike (their match keys are equal), those of different rows
// are not. The rows are Spring Boot's reference examples (Relaxed Binding,
// its table of forms), DefaultPropertyMapper's (my.server_name.PORT) and
// ConfigurationPropertyName's rules: a plain element compared in lower case
// with only a-z and 0-9, one in brackets as written, [0] as .0.
func TestMatchKey(t *testing.T) {
	t.Parallel()
	rows := []struct {
		match string
		keys  []string
	}{
		{"my.mainproject.person.firstname", []string{
			"my.main-project.person.first-name", "my.main-project.person.firstName",
			"my.main_project.person.first_name", "my.mainProject.person.firstName",
			"MY.MAIN-PROJECT.PERSON.FIRST-NAME", "my.mainproject.person.firstname",
		}},
		{"server.compression.minresponsesize", []string{
			"server.compression.min-response-size", "server.compression.minResponseSize",
			"server.compression.min_response_size", "Server.Compression.MinResponseSize",
			"server.compression.min-response_Size", "server..compression.min-response-size",
		}},
		{"my.servername.port", []string{"my.server_name.PORT", "my.server-name.port"}},
		{"spring.jpa.databaseplatform", []string{"spring.jpa.database-platform", "spring.jpa.databasePlatform", "spring.JPA.database_platform"}},
		// A key in brackets keeps its case and every character.
		{"logging.level.[com.Foo]", []string{"logging.level.[com.Foo]", "logging.level[com.Foo]", "Logging.Level.[com.Foo]"}},
		{"logging.level.com.foo", []string{"logging.level.com.foo", "logging.level.com.Foo", "logging.level.COM.FOO"}},
		{"app.metrics.tags.[Some.Key]", []string{"app.metrics.tags.[Some.Key]"}},
		{"app.metrics.tags.some.key", []string{"app.metrics.tags.Some.Key", "app.metrics.tags.some.key"}},
		{"a.[foo-bar]", []string{"a.[foo-bar]", "a[foo-bar]"}},
		// A bracketed element equals a plain one when its text is the
		// plain one's uniform form, as in Spring: [foo] is foo and Foo.
		{"a.foobar", []string{"a.[foobar]", "a.foo-bar", "a.fooBar", "a.FooBar"}},
		// Lists: hosts[0] is hosts.0.
		{"hosts.0", []string{"hosts[0]", "hosts.0", "Hosts[0]", "hosts.[0]"}},
		{"hosts.0.name", []string{"hosts[0].name", "hosts[0]name", "hosts.0.Name"}},
		{"a.[b[c]]", []string{"a[b[c]]"}},
		// A bracket left open makes the rest one plain element.
		{"a.bc", []string{"a[b.c", "a.bc"}},
		{"random.int", []string{"random.int"}},
	}
	seen := map[string]int{}
	for i, row := range rows {
		for _, k := range row.keys {
			if got := matchKey(k); got != row.match {
				t.Errorf("matchKey(%q) = %q, want %q", k, got, row.match)
			}
		}
		if j, ok := seen[row.match]; ok {
			t.Errorf("rows %d and %d have the same match key %q", j, i, row.match)
		}
		seen[row.match] = i
	}
	// Keys that are not alike.
	for _, pair := range [][2]string{
		{"a.[Foo]", "a.foo"}, {"a.[foo-bar]", "a.foo-bar"}, {"a.[b.c]", "a.b.c"},
		{"server.port", "server.ports"}, {"a.b", "ab"}, {"app.x", "spring.x"},
	} {
		if SameKey(pair[0], pair[1]) {
			t.Errorf("SameKey(%q, %q), want different keys", pair[0], pair[1])
		}
	}
	if !SameKey("server.compression.minResponseSize", "server.compression.min-response-size") {
		t.Error("minResponseSize is not min-response-size")
	}
}

// processorTime is the processor time the process has used so far: what
// is compared, as another process's load does not count in it.
func processorTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fastest returns the least processor time f takes in three runs: a run
// may be slowed by a collection.
func fastest(t *testing.T, f func()) time.Duration {
	least := time.Duration(1<<63 - 1)
	for range 3 {
		start := processorTime(t)
		f()
		least = min(least, processorTime(t)-start)
	}
	return least
}

// linearBound is how much more than ten times a baseline ten times the
// work may take: below noiseFloor, processor time is mostly noise.
const (
	linearBound = 30
	noiseFloor  = 10 * time.Millisecond
)

// TestMatchKeyLinear: the mapping takes time linear in the key, however
// it is written (brackets nested deep, or left open). Not parallel: it
// compares timings.
func TestMatchKeyLinear(t *testing.T) {
	for _, part := range []string{"a.", "[", "[a]", "aB_-", "]", "a[b"} {
		measure := func(n int) time.Duration {
			key := strings.Repeat(part, n)
			return fastest(t, func() {
				for range 5 {
					matchKey(key)
					memberForm(key)
					countElements(key)
				}
			})
		}
		small, large := measure(20_000), measure(200_000)
		if large > linearBound*max(small, noiseFloor) {
			t.Errorf("%q repeated: %v for 200,000, %v for 20,000", part, large, small)
		}
	}
}

// TestMemberName: a family's member keeps its name as written, case
// included, without its brackets, as Spring keeps a map's key.
func TestMemberName(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"logging.level.com.Foo":        "com.Foo",
		"logging.level.[com.Foo]":      "com.Foo",
		"logging.level.[com.Foo$Bar]":  "com.Foo$Bar",
		"logging.level.com.my_pkg":     "com.my_pkg",
		"logging.level.com..Foo":       "com.Foo",
		"logging.level.[a.b].[c]":      "a.b.c",
		"logging.level.hosts[0]":       "hosts.0",
		"logging.level.web":            "web",
		"logging.level.[/path/to/key]": "/path/to/key",
	} {
		if got := MemberName(key, "logging.level."); got != want {
			t.Errorf("MemberName(%q) = %q, want %q", key, got, want)
		}
	}
	for _, tt := range []struct{ key, name, sub string }{
		{"m.group.custom.include", "custom", "include"},
		{"m.group.myGroup.Include", "myGroup", "Include"},
		{"m.group.[my.group].include", "my.group", "include"},
		{"m.group.a[0]", "a", "[0]"},
	} {
		name, sub, ok := CutMember(tt.key, "m.group.")
		if !ok || name != tt.name || sub != tt.sub {
			t.Errorf("CutMember(%q) = %q, %q, %v; want %q, %q", tt.key, name, sub, ok, tt.name, tt.sub)
		}
	}
	if _, _, ok := CutMember("m.group.custom", "m.group."); ok {
		t.Error("CutMember of a key with nothing after the name is ok")
	}
	for _, tt := range []struct{ key, head, tail string }{
		{"level.[com.Foo].x", "level", "[com.Foo].x"},
		{"[com.Foo].x", "com.Foo", "x"},
		{"[com.Foo]", "com.Foo", ""},
		{"server", "server", ""},
	} {
		if head, tail, more := CutKey(tt.key); head != tt.head || tail != tt.tail || more != (tt.tail != "") {
			t.Errorf("CutKey(%q) = %q, %q, %v; want %q, %q", tt.key, head, tail, more, tt.head, tt.tail)
		}
	}
}

// TestRelaxedLookup: a setting is found in every form, in every kind of
// source; the environment keeps its own names.
func TestRelaxedLookup(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--server.compression.min_response_size=10", "--app.config.import=configtree:tree/",
			`--app.application.json={"app":{"jsonCamel":"json"}}`},
		env: map[string]string{"APP_FROMENV_SOMEKEY": "env"},
		files: map[string]string{
			"application.properties": "management.endpoint.health.showDetails=always\napp.datasource.hikari.maximumPoolSize=5\n" +
				"app.hostList[0]=a\napp.hostList[1]=b\nspring.security.user.Name=u\n",
			"config/application.yml": "app:\n  yamlCamel: yaml\n  Yaml_Under: under\n",
			"tree/app/treeCamel":     "tree",
		},
	})
	for key, want := range map[string][2]string{
		"server.compression.min-response-size":    {"10", "server.compression.min_response_size"},
		"management.endpoint.health.show-details": {"always", "management.endpoint.health.showDetails"},
		"app.datasource.hikari.maximum-pool-size": {"5", "app.datasource.hikari.maximumPoolSize"},
		"app.host-list":          {"a,b", "app.host-list"},
		"app.security.user.name": {"u", "spring.security.user.Name"},
		"app.yaml-camel":         {"yaml", "app.yamlCamel"},
		"app.yaml-under":         {"under", "app.Yaml_Under"},
		"app.tree-camel":         {"tree", "app.treeCamel"},
		"app.json-camel":         {"json", "app.jsonCamel"},
		"app.fromenv.somekey":    {"env", "app.fromenv.somekey"},
	} {
		v, ok, err := env.Lookup(key)
		if !ok || err != nil || v.Resolved != want[0] || v.Key != want[1] {
			t.Errorf("%s: %q as %s (%v, %v), want %q as %s", key, v.Resolved, v.Key, ok, err, want[0], want[1])
		}
	}
	if _, ok, _ := env.Lookup("app.fromenv.some-key"); !ok {
		t.Error("app.fromenv.some-key is not found as APP_FROMENV_SOMEKEY")
	}
}

// TestRelaxedPrecedence: within one source the key as asked wins over its
// other forms, which are a key set again: the one set last wins; app. in
// any form wins over spring.; across sources the usual order decides,
// whatever the form.
func TestRelaxedPrecedence(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--app.args-key=canonical", "--app.argsKey=camel"},
		files: map[string]string{"application.properties": strings.Join([]string{
			"app.aB=first", "app.a-b=canonical", "app.a_b=last", // the canonical form wins wherever it is
			"app.cD=first", "app.c_d=last", // the other forms: the last set
			"spring.e-f=spring", "app.eF=app", // app. in any form over spring.
			"app.g-h=file",
			"app.list[0]=a", "app.List[1]=b",
		}, "\n")},
		env:      map[string]string{"APP_GH": "env"},
		embedded: fstest.MapFS{},
	})
	for key, want := range map[string]string{
		"app.args-key": "canonical", "app.a-b": "canonical", "app.c-d": "last", "app.e-f": "app",
		"app.g-h": "env", "app.list": "a,b",
	} {
		if v := get(t, env, key); v.Resolved != want {
			t.Errorf("%s = %q, want %q", key, v.Resolved, want)
		}
	}
	// A placeholder is a key asked for: as written, it wins in its source.
	if got := env.Resolve("${app.cD}/${app.c-d}"); got != "first/last" {
		t.Errorf("placeholders give %q, want first/last", got)
	}
	// The listing keeps every form as written.
	var keys []string
	for _, s := range env.PropertySources(nil) {
		if strings.Contains(s.Name, "application.properties") {
			for _, e := range s.Entries {
				keys = append(keys, e.Key)
			}
			if e, ok := s.Lookup("app.c-d"); !ok || e.Key != "app.c_d" {
				t.Errorf("the file's entry for app.c-d: %+v, want app.c_d", e)
			}
		}
	}
	if want := []string{"app.aB", "app.a-b", "app.a_b", "app.cD", "app.c_d", "spring.e-f", "app.eF", "app.g-h", "app.list[0]", "app.List[1]"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("listed %v, want %v", keys, want)
	}
}

// TestRelaxedFamilies: a family's members are found in any form of its
// prefix, and keep their names as written: brackets keep case and dots;
// two keys of one name bind once, the highest source's.
func TestRelaxedFamilies(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--logging.level.com.Foo=WARN", "--Logging.Level.ROOT=ERROR"},
		files: map[string]string{"application.properties": strings.Join([]string{
			"logging.level.[com.Foo]=DEBUG",
			"Logging.Level.web=TRACE",
			"logging.level.[org.Bar$Inner]=INFO",
			"spring.tags.[Some.Key]=x",
			"app.tags.region=eu",
		}, "\n")},
	})
	if got, want := env.KeysWithPrefix("logging.level."), []string{
		"logging.level.com.Foo", "logging.level.ROOT", "logging.level.[com.Foo]", "logging.level.web", "logging.level.[org.Bar$Inner]",
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("KeysWithPrefix(logging.level.) = %q, want %q", got, want)
	}
	b := NewBinder(env)
	root := Bind(b, "logging.level.root", "INFO", String)
	levels := BindPrefixed(b, "logging.level.", nil, String, nil)
	if want := map[string]string{"com.Foo": "WARN", "web": "TRACE", "org.Bar$Inner": "INFO"}; !reflect.DeepEqual(levels, want) || root != "ERROR" {
		t.Errorf("levels %v, root %s; want %v, ERROR", levels, root, want)
	}
	tags := BindPrefixed(b, "app.tags.", nil, String, nil)
	if want := map[string]string{"Some.Key": "x", "region": "eu"}; !reflect.DeepEqual(tags, want) {
		t.Errorf("tags %v, want %v", tags, want)
	}
	b.Refuse("app.tags.Some.Key", "no")
	if err := b.Err(); err == nil || !strings.Contains(err.Error(), "spring.tags.[Some.Key]") {
		t.Errorf("refusing the member Some.Key: %v", err)
	}
	// In YAML the brackets are quoted; the key joins its parent's.
	env = mustLoad(t, loadCase{files: map[string]string{"application.yml": "logging:\n  Level:\n    \"[com.Foo$Bar]\": DEBUG\n    com.Baz: INFO\n"}})
	b = NewBinder(env)
	levels = BindPrefixed(b, "logging.level.", nil, String, nil)
	if want := map[string]string{"com.Foo$Bar": "DEBUG", "com.Baz": "INFO"}; !reflect.DeepEqual(levels, want) {
		t.Errorf("levels from YAML %v, want %v", levels, want)
	}
}

// TestRelaxedReport: a value that does not parse is reported under the
// key as written, with its origin.
func TestRelaxedReport(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--SERVER.PORT=eighty"}})
	b := NewBinder(env)
	Bind(b, "server.port", 8080, Port)
	if err := b.Err(); err == nil || !strings.Contains(err.Error(), `setting SERVER.PORT="eighty" from command-line argument --SERVER.PORT=eighty is invalid`) {
		t.Errorf("the report: %v", err)
	}
}

// TestRelaxedKeyCheck: a key read in another form is read; a misspelt one
// in any form is hinted at with the canonical key read; Spring's families
// and the loader's keys are known in any form.
func TestRelaxedKeyCheck(t *testing.T) {
	t.Parallel()
	env, err := Load(Options{Dir: t.TempDir(), Args: []string{
		"--server.compression.minResponseSize=1", "--server.compression.min_response_size=1",
		"--SERVER.PORT=1", "--spring.Datasource.URL=x", "--app.tags.Some=x", "--app.tags.[Other.Key]=y",
		"--server.compression.minResponseSiz=1", "--spring.datasource.userNme=x",
		"--spring.JPA.showSql=true", "--app.hosts[0]=a", "--app.hosts.1=b", "--spring.profiles.Active=x",
	}})
	if err != nil {
		t.Fatal(err)
	}
	report := CheckKeys(env, KeyCheck{
		Roots:           []string{"server", "app", "spring"},
		Read:            []string{"server.port", "server.compression.min-response-size", "app.datasource.url", "app.datasource.username", "app.hosts"},
		ReadFamilies:    []string{"app.tags."},
		IgnoredFamilies: []string{"app.jpa."},
	})
	var out bytes.Buffer
	report.Log(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})))
	want := `level=INFO msg="spring. keys read as their app. twins" keys=spring.Datasource.URL,spring.profiles.Active
level=WARN msg="setting not read by anything, ignored" key=server.compression.minResponseSiz origin="command-line argument --server.compression.minResponseSiz" hint="did you mean server.compression.min-response-size?"
level=WARN msg="setting not read by anything, ignored" key=spring.datasource.userNme origin="command-line argument --spring.datasource.userNme" hint="did you mean spring.datasource.username?"
level=WARN msg="Spring Boot settings that mean nothing here, ignored" families="spring.jpa.* (1)"
`
	if got := out.String(); got != want {
		t.Errorf("the log:\ngot\n%s\nwant\n%s", got, want)
	}
}

// TestRelaxedDocumentKeys: the loader's own keys are read in any form: a
// document's condition, profiles, and the keys a profile file may not
// hold.
func TestRelaxedDocumentKeys(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--spring.profiles.Active=dev"},
		files: map[string]string{"application.yml": strings.Join([]string{
			"app.x: base",
			"---",
			"spring.config.activate.onProfile: dev",
			"app.x: dev",
			"---",
			"spring.config.activate.on_profile: [prod, qa]",
			"app.x: prod",
		}, "\n")},
	})
	if v := get(t, env, "app.x"); v.Resolved != "dev" {
		t.Errorf("app.x = %q, want dev", v.Resolved)
	}
	_, err := loadCase{
		args:  []string{"--app.profiles.active=dev"},
		files: map[string]string{"application-dev.properties": "spring.profiles.Include=x\n"},
	}.load(t)
	if err == nil || !strings.Contains(err.Error(), "spring.profiles.Include") {
		t.Errorf("a profile key in a profile file, in another form: %v", err)
	}
	_, err = loadCase{files: map[string]string{"application.properties": "Spring.Profiles=dev\n"}}.load(t)
	if err == nil || !strings.Contains(err.Error(), "replaced with app.config.activate.on-profile") {
		t.Errorf("the legacy profiles key in another form: %v", err)
	}
}

// TestRelaxedHostileKeys: a source of 200,000 keys of every form is
// indexed and searched in time linear in its size. Not parallel: it
// compares timings.
func TestRelaxedHostileKeys(t *testing.T) {
	measure := func(n int) time.Duration {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "app.Some_Key%d.[x%d].fooBar=%d\n", i, i, i)
		}
		files := map[string]string{"application.properties": b.String()}
		return fastest(t, func() {
			env := mustLoad(t, loadCase{files: files, embedded: fstest.MapFS{}})
			if keys := env.KeysWithPrefix("app."); len(keys) != n {
				t.Fatalf("%d keys, want %d", len(keys), n)
			}
			for i := 0; i < n; i += n / 1000 {
				if _, ok, _ := env.Lookup(fmt.Sprintf("app.some-key%d.[x%d].foo-bar", i, i)); !ok {
					t.Fatalf("key %d not found", i)
				}
			}
		})
	}
	small, large := measure(20_000), measure(200_000)
	if large > linearBound*max(small, noiseFloor) {
		t.Errorf("200,000 keys took %v, 20,000 %v", large, small)
	}
}
