package config

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The renames these tests read: a key, a family, and an app. key whose
// spring. twin is renamed with it.
var _ = Renamed(
	Rename{Old: "renames.old-key", New: "renames.new-key", Since: "9.9"},
	Rename{Old: "renames.old-map.", New: "renames.new-map.", Since: "9.9"},
	Rename{Old: "app.renames.old", New: "app.renames.data.new"},
)

// renameCheck is the KeyCheck of a service that reads the new names.
var renameCheck = KeyCheck{
	Roots:        []string{"renames", "app", "spring"},
	Read:         []string{"renames.new-key", "app.renames.data.new"},
	ReadFamilies: []string{"renames.new-map."},
	RefusedBy:    "app.fail",
}

// logReport returns what r logs, without times.
func logReport(r KeyReport) string {
	var out bytes.Buffer
	r.Log(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})))
	return out.String()
}

const (
	mappedMessage  = `msg="The use of a configuration key that has been renamed in Spring Boot 9.9 was found in the environment; it is mapped to its replacement for now, as Spring's properties migrator maps it: update the configuration to the new key"`
	ignoredMessage = `msg="The use of a configuration key that has been renamed in Spring Boot 9.9 was found in the environment; it is ignored: its replacement is set too, and wins: remove it"`
)

// TestRenamedKeyAlone: the old name alone, in any form, in a file, an
// argument or a variable, answers for the new one, with one warning that
// names it as written, its origin and its new name; it is not a key that
// nothing reads, nor refused by fail-on-unknown.
func TestRenamedKeyAlone(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		file  string
		args  []string
		env   map[string]string
		key   string // the new key looked up
		value string
		log   string
	}{
		{name: "file", file: "renames.oldKey=v\n", key: "renames.new-key", value: "v",
			log: `level=WARN ` + mappedMessage + ` key=renames.oldKey origin="file [application.properties] line 1" replacement=renames.new-key`},
		{name: "argument", args: []string{"--renames.old_key=v"}, key: "renames.new-key", value: "v",
			log: `level=WARN ` + mappedMessage + ` key=renames.old_key origin="command-line argument --renames.old_key" replacement=renames.new-key`},
		{name: "variable", env: map[string]string{"RENAMES_OLD_KEY": "v"}, key: "renames.new-key", value: "v",
			log: `level=WARN ` + mappedMessage + ` key=RENAMES_OLD_KEY origin="environment variable RENAMES_OLD_KEY" replacement=RENAMES_NEWKEY`},
		{name: "family", args: []string{"--renames.old-map.[X.Y]=v"}, key: "renames.new-map.[X.Y]", value: "v",
			log: `level=WARN ` + mappedMessage + ` key=renames.old-map.[X.Y] origin="command-line argument --renames.old-map.[X.Y]" replacement=renames.new-map.[X.Y]`},
		{name: "spring twin", file: "spring.renames.old=v\n", key: "app.renames.data.new", value: "v",
			log: `level=WARN msg="The use of a configuration key that has been renamed was found in the environment; it is mapped to its replacement for now, as Spring's properties migrator maps it: update the configuration to the new key" key=spring.renames.old origin="file [application.properties] line 1" replacement=spring.renames.data.new`},
		{name: "spring twin variable", env: map[string]string{"SPRING_RENAMES_OLD": "v"}, key: "app.renames.data.new", value: "v",
			log: `level=WARN msg="The use of a configuration key that has been renamed was found in the environment; it is mapped to its replacement for now, as Spring's properties migrator maps it: update the configuration to the new key" key=SPRING_RENAMES_OLD origin="environment variable SPRING_RENAMES_OLD" replacement=SPRING_RENAMES_DATA_NEW`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := loadRenames(t, tt.file, tt.args, tt.env)
			if v, ok, err := env.Lookup(tt.key); !ok || err != nil || v.Resolved != tt.value {
				t.Errorf("%s = %q (%v, %v), want %q", tt.key, v.Resolved, ok, err, tt.value)
			}
			check := renameCheck
			check.Variables = keysOf(tt.env)
			report := CheckKeys(env, check)
			if got := logReport(report); got != tt.log+"\n" {
				t.Errorf("log:\n%s\nwant:\n%s", got, tt.log)
			}
			if err := report.Refusal(); err != nil {
				t.Errorf("a renamed key is refused: %v", err)
			}
		})
	}
}

// TestRenamedKeyNew: the new name alone is read without a warning.
func TestRenamedKeyNew(t *testing.T) {
	t.Parallel()
	env := loadRenames(t, "renames.new-key=v\nspring.renames.data.new=w\nrenames.new-map.a=x\n", nil, map[string]string{"APP_RENAMES_DATA_NEW": "u"})
	for key, want := range map[string]string{"renames.new-key": "v", "app.renames.data.new": "u", "renames.new-map.a": "x"} {
		if v, _, _ := env.Lookup(key); v.Resolved != want {
			t.Errorf("%s = %q, want %q", key, v.Resolved, want)
		}
	}
	check := renameCheck
	check.Variables = []string{"APP_RENAMES_DATA_NEW"}
	if got := logReport(CheckKeys(env, check)); strings.Contains(got, "renamed") {
		t.Errorf("the new names are warned about:\n%s", got)
	}
}

// TestRenamedKeyBoth: within one source the new name wins, whatever the
// order the two are written in; across sources the order of sources
// decides. The old key's warning says whether its value is used.
func TestRenamedKeyBoth(t *testing.T) {
	t.Parallel()
	same := loadRenames(t, "renames.new-key=new\nrenames.old-key=old\n", nil, nil)
	if v, _, _ := same.Lookup("renames.new-key"); v.Resolved != "new" {
		t.Errorf("in one file: %q, want the new name's", v.Resolved)
	}
	want := `level=WARN ` + ignoredMessage + ` key=renames.old-key origin="file [application.properties] line 2" replacement=renames.new-key set="renames.new-key (file [application.properties] line 1)"` + "\n"
	if got := logReport(CheckKeys(same, renameCheck)); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	higher := loadRenames(t, "renames.new-key=file\n", nil, map[string]string{"RENAMES_OLDKEY": "variable"})
	if v, _, _ := higher.Lookup("renames.new-key"); v.Resolved != "variable" {
		t.Errorf("old name in a variable, new in a file: %q, want the variable's", v.Resolved)
	}
	check := renameCheck
	check.Variables = []string{"RENAMES_OLDKEY"}
	want = `level=WARN ` + mappedMessage + ` key=RENAMES_OLDKEY origin="environment variable RENAMES_OLDKEY" replacement=RENAMES_NEWKEY` + "\n"
	if got := logReport(CheckKeys(higher, check)); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	lower := loadRenames(t, "renames.old-key=file\n", []string{"--renames.new-key=argument"}, nil)
	if v, _, _ := lower.Lookup("renames.new-key"); v.Resolved != "argument" {
		t.Errorf("old name in a file, new in an argument: %q, want the argument's", v.Resolved)
	}
}

// TestRenamedFamilyListed: KeysWithPrefix lists a renamed family's
// members under the new prefix, each once; the sources list the
// variable of an old name among those that set a key read.
func TestRenamedFamilyListed(t *testing.T) {
	t.Parallel()
	env := loadRenames(t, "renames.old-map.a=1\nrenames.new-map.b=2\nrenames.old-map.b=3\n", nil, map[string]string{"RENAMES_OLD_KEY": "v"})
	if got, want := env.KeysWithPrefix("renames.new-map."), []string{"renames.new-map.a", "renames.new-map.b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("KeysWithPrefix = %v, want %v", got, want)
	}
	if v, _, _ := env.Lookup("renames.new-map.b"); v.Resolved != "2" {
		t.Errorf("renames.new-map.b = %q, want the new name's 2", v.Resolved)
	}
	if got := env.KeysWithPrefix("renames.old-map."); len(got) != 2 {
		t.Errorf("KeysWithPrefix(old) = %v, want the old keys, as written", got)
	}
	var listed []string
	for _, src := range env.PropertySources([]string{"renames.new-key"}) {
		if src.Name == "systemEnvironment" {
			for _, e := range src.Entries {
				listed = append(listed, e.Key)
			}
			if e, ok := src.Lookup("renames.new-key"); !ok || e.Key != "RENAMES_OLD_KEY" {
				t.Errorf("the environment's entry for renames.new-key: %v %v, want RENAMES_OLD_KEY", e, ok)
			}
		}
	}
	if !reflect.DeepEqual(listed, []string{"RENAMES_OLD_KEY"}) {
		t.Errorf("the environment lists %v, want RENAMES_OLD_KEY", listed)
	}
}

// TestRenamedKeyUnread: a rename whose new name nothing reads leaves the
// old key to the check of keys that nothing reads.
func TestRenamedKeyUnread(t *testing.T) {
	t.Parallel()
	env := loadRenames(t, "renames.old-key=v\n", nil, nil)
	check := renameCheck
	check.Read = nil
	got := logReport(CheckKeys(env, check))
	if strings.Contains(got, "renamed") || !strings.Contains(got, `msg="setting not read by anything, ignored" key=renames.old-key`) {
		t.Errorf("log:\n%s\nwant renames.old-key as a key that nothing reads", got)
	}
}

// TestRenamedMalformed: a rename that is not two canonical keys, or two
// prefixes, or that renames a key twice, panics.
func TestRenamedMalformed(t *testing.T) {
	t.Parallel()
	for _, r := range []Rename{
		{Old: "renames.Bad", New: "renames.good"},
		{Old: "renames.family.", New: "renames.key"},
		{Old: "spring.renames.x", New: "app.renames.y"},
		{Old: "", New: "renames.y"},
		{Old: "renames.old-key", New: "renames.other"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Renamed(%v) did not panic", r)
				}
			}()
			Renamed(r)
		}()
	}
}

func loadRenames(t *testing.T, file string, args []string, vars map[string]string) *Environment {
	t.Helper()
	dir := t.TempDir()
	if file != "" {
		if err := os.WriteFile(filepath.Join(dir, "application.properties"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, err := Load(Options{Dir: dir, Args: args, LookupEnv: mapEnv(vars)})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func keysOf(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
