package config

import (
	"reflect"
	"slices"
	"testing"
)

// variablesListed returns the names of the environment variables that the
// listing of env shows.
func variablesListed(t *testing.T, env *Environment, read []string) []string {
	t.Helper()
	names := []string{}
	for _, src := range env.PropertySources(read) {
		if src.Name != "systemEnvironment" {
			continue
		}
		for _, e := range src.Entries {
			if e.Origin != "environment variable "+e.Key {
				t.Errorf("%s has the origin %q", e.Key, e.Origin)
			}
			names = append(names, e.Key)
		}
	}
	return names
}

// TestListedVariables checks which environment variables the listing shows:
// those that set a setting the service reads, and no other.
func TestListedVariables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    loadCase
		read []string
		want []string
	}{
		{"none set", loadCase{}, nil, []string{}},
		{"not read", loadCase{env: map[string]string{"HOME_OF_SOMETHING_ELSE": "x"}}, nil, []string{}},
		{"a key of a file", loadCase{env: map[string]string{"APP_EXAMPLE_PROPA": "a", "SHARED": "s"}}, nil, []string{"APP_EXAMPLE_PROPA", "SHARED"}},
		{"a key of an argument", loadCase{args: []string{"--x.y=1"}, env: map[string]string{"X_Y": "2"}}, nil, []string{}},
		{"a key of a profile file", loadCase{args: []string{"--app.profiles.active=qa"}, env: map[string]string{"QA_ONLY": "no"}}, nil, []string{"QA_ONLY"}},
		{"a key of an inactive profile's file", loadCase{env: map[string]string{"QA_ONLY": "no"}}, nil, []string{}},
		{"a key bound", loadCase{env: map[string]string{"SERVER_PORT": "1"}}, []string{"server.port"}, []string{"SERVER_PORT"}},
		{"a key bound twice", loadCase{env: map[string]string{"SERVER_PORT": "1"}}, []string{"server.port", "server.port"}, []string{"SERVER_PORT"}},
		{"a key not bound", loadCase{env: map[string]string{"SERVER_PORT": "1"}}, []string{"server.address"}, []string{}},
		{"shadowed by an argument", loadCase{args: []string{"--app.example.prop-a=arg"}, env: map[string]string{"APP_EXAMPLE_PROPA": "env"}}, nil, []string{}},
		{"the first relaxed name wins", loadCase{env: map[string]string{"APP_EXAMPLE_PROPB": "1", "APP_EXAMPLE_PROP_B": "2"}}, nil, []string{"APP_EXAMPLE_PROPB"}},
		{"the second relaxed name", loadCase{env: map[string]string{"APP_EXAMPLE_PROP_B": "2"}}, nil, []string{"APP_EXAMPLE_PROP_B"}},
		{"profiles and locations", loadCase{env: map[string]string{
			"APP_PROFILES_ACTIVE": "g", "APP_PROFILES_INCLUDE": "i", "APP_PROFILES_GROUP_G": "dev", "APP_PROFILES_GROUP_DEV": "d",
			"APP_PROFILES_GROUP_OTHER": "x", "APP_PROFILES_DEFAULT": "z", "APP_CONFIG_ADDITIONALLOCATION": "optional:nowhere/",
		}}, nil, []string{"APP_CONFIG_ADDITIONALLOCATION", "APP_PROFILES_INCLUDE", "APP_PROFILES_ACTIVE", "APP_PROFILES_GROUP_G", "APP_PROFILES_GROUP_DEV", "APP_PROFILES_DEFAULT"}},
		{"placeholders, nested", loadCase{args: []string{"--x=${foo}"}, env: map[string]string{"FOO": "${bar}", "BAR": "b"}}, nil, []string{"FOO", "BAR"}},
		{"a default not needed", loadCase{args: []string{"--x=${foo:${bar}}"}, env: map[string]string{"FOO": "f", "BAR": "b"}}, nil, []string{"FOO"}},
		{"a default needed", loadCase{args: []string{"--x=${foo:${bar}}"}, env: map[string]string{"BAR": "b"}}, nil, []string{"BAR"}},
		{"a name made of placeholders", loadCase{args: []string{"--x=${${which}.url}"}, env: map[string]string{"WHICH": "prod", "PROD_URL": "u"}}, nil, []string{"WHICH", "PROD_URL"}},
		{"a placeholder in a bound value", loadCase{env: map[string]string{"SERVER_PORT": "${port}", "PORT": "1"}}, []string{"server.port"}, []string{"SERVER_PORT", "PORT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustLoad(t, tt.c)
			if got := variablesListed(t, env, tt.read); !slices.Equal(got, tt.want) {
				t.Errorf("listed:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestListingIsStable checks that looking names up, listed or not, leaves
// the listing as it was.
func TestListingIsStable(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{env: map[string]string{"APP_EXAMPLE_PROPA": "a", "HOME_OF_SOMETHING_ELSE": "x", "SERVER_PORT": "1"}})
	read := []string{"app.greeting"}
	before := env.PropertySources(read)
	for _, key := range []string{"home.of.something.else", "server.port", "app.example.prop-a", "no.such.key"} {
		env.Lookup(key)
		env.Resolve("${" + key + ":}")
	}
	if after := env.PropertySources(read); !reflect.DeepEqual(after, before) {
		t.Errorf("lookups changed the listing:\nbefore %v\nafter  %v", before, after)
	}
	if got, want := variablesListed(t, env, read), []string{"APP_EXAMPLE_PROPA"}; !slices.Equal(got, want) {
		t.Errorf("listed:\ngot  %q\nwant %q", got, want)
	}
}

// TestLookupListed checks that a key is found exactly when its winning
// value is one the listing shows.
func TestLookupListed(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--x=${foo}"},
		env: map[string]string{"APP_EXAMPLE_PROPA": "a", "SERVER_PORT": "1", "FOO": "f", "PATH": "/bin",
			"SECRET_THING": "s", "APP_EXAMPLE_PROP_B": "2"},
	})
	read := []string{"server.port"}
	tests := []struct {
		key  string
		want string // the value found; empty for not found
	}{
		{"app.example.prop-a", "a"}, // a file's key, set by the environment
		{"APP_EXAMPLE_PROPA", "a"},  // the listed variable by its own name
		{"server.port", "1"},        // bound
		{"x", "f"},                  // an argument
		{"foo", "f"},                // a placeholder's name
		{"shared", "embedded"},      // a file's
		{"path", ""},                // a variable nothing reads
		{"PATH", ""},                //
		{"secret_thing", ""},        //
		{"app.example.prop-b", "2"}, // a file's key, set by its second relaxed name
		{"APP_EXAMPLE_PROP_B", "2"}, // listed
		{"server.address", ""},      // set nowhere
		{"no.such.key", ""},         //
		{"random.int", ""},          // the random source lists nothing
	}
	for _, tt := range tests {
		v, ok, err := env.LookupListed(tt.key, read)
		if got := v.Resolved; ok != (tt.want != "") || got != tt.want || err != nil {
			t.Errorf("%q:\ngot  %q %v %v\nwant %q", tt.key, got, ok, err, tt.want)
		}
	}
}

// TestPropertySources checks the sources' names, order and entries.
func TestPropertySources(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args:  []string{"--b=2", "--a=1", "--b=3"},
		files: map[string]string{"config/application.properties": "shared=${a}\n"},
	})
	got := env.PropertySources(nil)
	for i := range got {
		got[i].src = nil // compared by what listings show
	}
	want := []PropertySource{
		{Name: "commandLineArgs", Entries: []Entry{
			// A repeated argument takes both values, as Spring's
			// command-line source joins them.
			{Key: "b", Value: "2,3", Origin: "command-line argument --b=2,3 (repeated)"},
			{Key: "a", Value: "1", Origin: "command-line argument --a=1"},
		}},
		{Name: "systemEnvironment"},
		{Name: "random"}, // listed without entries, as Spring lists it
		{Name: "Config resource 'file [config/application.properties]' via location 'optional:file:./config/'", Entries: []Entry{
			{Key: "shared", Value: "${a}", Origin: "file [config/application.properties] line 1"},
		}},
		{Name: "Config resource 'embedded [application.properties]'", Entries: []Entry{
			{Key: "app.example.prop-a", Value: "from embedded", Origin: "embedded [application.properties] line 1"},
			{Key: "app.example.prop-b", Value: "100", Origin: "embedded [application.properties] line 2"},
			{Key: "shared", Value: "embedded", Origin: "embedded [application.properties] line 3"},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("property sources:\ngot  %+v\nwant %+v", got, want)
	}
}
