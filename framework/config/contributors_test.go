package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Locations and imports as Spring Boot's config data loads them: the cases
// of its ConfigDataEnvironmentPostProcessorIntegrationTests and
// StandardConfigDataLocationResolverTests that greeter can express.

func TestConfigName(t *testing.T) {
	t.Parallel()
	checkSettingsCases(t, []settingsCase{
		{"one name, in every location", loadCase{args: []string{"--app.config.name=service"}, files: map[string]string{
			"service.properties": "a=root\nb=root", "config/service.yml": "a: config", "application.properties": "a=ignored\nc=ignored"}},
			[]wantSetting{{"a", "config", "file [config/service.yml] line 1 column 4", "Config resource 'file [config/service.yml]' via location 'optional:file:./config/'"},
				{"b", "root", "file [service.properties] line 2", ""}}},
		{"several names: the later wins", loadCase{args: []string{"--app.config.name=more,test"}, files: map[string]string{
			"more.properties": "the.property=more\nonly.more=more", "test.properties": "the.property=test\nonly.test=test"}},
			[]wantSetting{{"the.property", "test", "file [test.properties] line 1", ""}, {"only.more", "more", "file [more.properties] line 2", ""}}},
		{"profile files take the name", loadCase{env: map[string]string{"APP_CONFIG_NAME": "service"}, args: []string{"--app.profiles.active=dev"}, files: map[string]string{
			"service.properties": "a=base", "service-dev.properties": "a=dev"}},
			[]wantSetting{{"a", "dev", "file [service-dev.properties] line 1", ""}}},
	})
	if env := mustLoad(t, loadCase{args: []string{"--app.config.name=service"}, files: map[string]string{"application.properties": "c=1"}}); has(env, "c") {
		t.Error("application.properties was read under app.config.name=service")
	}
	checkLoadErrors(t, []loadErrorCase{
		{"a wildcard in the name", loadCase{args: []string{"--app.config.name=*/application"}},
			[]string{"app.config.name", `"*/application"`, "command-line argument", "'*'"}},
	})
}

func has(env *Environment, key string) bool {
	_, ok, _ := env.Lookup(key)
	return ok
}

func TestOnNotFound(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--app.config.on-not-found=ignore", "--app.config.location=file:missing.properties,file:./",
		"--app.config.import=gone.properties,configtree:gone/"}, files: map[string]string{"application.properties": "a=1\napp.config.import=also-gone.yml"}})
	if v := get(t, env, "a"); v.Resolved != "1" {
		t.Errorf("a = %q, want 1: the locations that exist are read", v.Resolved)
	}
	checkLoadErrors(t, []loadErrorCase{
		{"fail is the default", loadCase{args: []string{"--app.config.location=file:missing.properties"}},
			[]string{"app.config.location", "missing.properties", "does not exist"}},
		{"a value that is neither", loadCase{env: map[string]string{"APP_CONFIG_ONNOTFOUND": "skip"}},
			[]string{"app.config.on-not-found", `"skip"`, "environment variable APP_CONFIG_ONNOTFOUND", "fail or ignore"}},
	})
}

func TestProfilesValidate(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{files: map[string]string{"application.properties": "app.profiles.active=p!1\napp.profiles.include=p!2\napp.profiles.validate=false\n"}})
	if got, want := env.ActiveProfiles(), []string{"p!2", "p!1"}; !slices.Equal(got, want) {
		t.Errorf("active profiles %q, want %q", got, want)
	}
	checkLoadErrors(t, []loadErrorCase{
		{"validated by default", loadCase{files: map[string]string{"application.properties": "app.profiles.active=p!1\n"}},
			[]string{"app.profiles.active", "p!1"}},
		{"not a boolean", loadCase{args: []string{"--app.profiles.validate=perhaps"}},
			[]string{"app.profiles.validate", "perhaps"}},
	})
}

func TestPatternLocations(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"cp/config/0-empty/testproperties.properties":        "",
		"cp/config/1-first/testproperties.properties":        "first=apple\nboth=first",
		"cp/config/2-second/testproperties.properties":       "second=ball\nboth=second",
		"cp/config/.hidden/testproperties.properties":        "both=hidden",
		"cp/config/nested/3-third/testproperties.properties": "third=not found",
		"cp/config/2-second/testproperties-dev.properties":   "dev=yes",
		"cp/config/1-first/application.properties":           "dir=first",
	}
	checkSettingsCases(t, []settingsCase{
		{"a file in each subdirectory, in lexical order", loadCase{args: []string{"--app.config.location=file:cp/config/*/testproperties.properties", "--app.profiles.active=dev"}, files: files},
			[]wantSetting{{"first", "apple", "file [cp/config/1-first/testproperties.properties] line 1", "Config resource 'file [cp/config/1-first/testproperties.properties]' via location 'file:cp/config/*/testproperties.properties'"},
				{"both", "second", "file [cp/config/2-second/testproperties.properties] line 2", ""},
				{"dev", "yes", "file [cp/config/2-second/testproperties-dev.properties] line 1", ""}}},
		{"each subdirectory", loadCase{args: []string{"--app.config.location=cp/config/*/"}, files: files},
			[]wantSetting{{"dir", "first", "file [cp/config/1-first/application.properties] line 1", "Config resource 'file [cp/config/1-first/application.properties]' via location 'cp/config/*/'"}}},
	})
	if env := mustLoad(t, loadCase{args: []string{"--app.config.location=file:cp/config/*/testproperties.properties"}, files: files}); has(env, "third") {
		t.Error("a pattern reached two levels down")
	}
	checkLoadErrors(t, []loadErrorCase{
		{"no subdirectories", loadCase{args: []string{"--app.config.location=file:cp/*/"}, files: map[string]string{"cp/x.txt": ""}},
			[]string{"app.config.location", "file:cp/*/", "contains no subdirectories"}},
		{"no file matches", loadCase{args: []string{"--app.config.location=file:cp/*/app.yml"}, files: files},
			[]string{"app.config.location", "cp/*/app.yml", "matches no file"}},
		{"two wildcards", loadCase{args: []string{"--app.config.location=file:cp/config/**/"}, files: files},
			[]string{"app.config.location", "one wildcard"}},
		{"a wildcard not at the end", loadCase{args: []string{"--app.config.location=file:cp/*/config/"}, files: files},
			[]string{"app.config.location", "*/"}},
	})
}

func TestLocationHints(t *testing.T) {
	t.Parallel()
	checkSettingsCases(t, []settingsCase{
		{"an extension", loadCase{args: []string{"--app.config.location=file:cp/app-conf[.properties]"}, files: map[string]string{"cp/app-conf": "a=hinted"}},
			[]wantSetting{{"a", "hinted", "file [cp/app-conf] line 1", "Config resource 'file [cp/app-conf]' via location 'file:cp/app-conf[.properties]'"}}},
		{"an explicit extension, YAML", loadCase{args: []string{"--app.config.import=cp/app-conf[extension=.yml]"}, files: map[string]string{"cp/app-conf": "a: yaml"}},
			[]wantSetting{{"a", "yaml", "file [cp/app-conf] line 1 column 4", ""}}},
		{"UTF-8", loadCase{args: []string{"--app.config.location=file:cp/utf-8.properties[encoding=utf-8]"}, files: map[string]string{"cp/utf-8.properties": "smiley=\U0001F603"}},
			[]wantSetting{{"smiley", "\U0001F603", "file [cp/utf-8.properties] line 1", ""}}},
		{"ISO-8859-1", loadCase{args: []string{"--app.config.location=file:cp/latin.properties[encoding=ISO-8859-1]"}, files: map[string]string{"cp/latin.properties": "word=caf\xe9 \xe6\xd7"}},
			[]wantSetting{{"word", "café æ×", "file [cp/latin.properties] line 1", ""}}},
	})
	checkLoadErrors(t, []loadErrorCase{
		{"an encoding not read", loadCase{args: []string{"--app.config.location=file:cp/a.properties[encoding=EBCDIC]"}, files: map[string]string{"cp/a.properties": "a=1"}},
			[]string{"app.config.location", "EBCDIC", "not supported"}},
		{"latin-1 without the hint is not UTF-8", loadCase{files: map[string]string{"application.properties": "word=caf\xe9"}},
			[]string{"application.properties"}},
	})
}

func TestImportPlaceholders(t *testing.T) {
	t.Parallel()
	checkSettingsCases(t, []settingsCase{
		{"from the importing document", loadCase{files: map[string]string{
			"application.properties": "my.import=imported\napp.config.import=file:${my.import}.properties", "imported.properties": "my.value=iwasimported"}},
			[]wantSetting{{"my.value", "iwasimported", "file [imported.properties] line 1", ""}}},
		{"from an earlier document", loadCase{files: map[string]string{
			"application.properties": "my.import=imported\n#---\napp.config.import=file:${my.import}.properties", "imported.properties": "my.value=iwasimported"}},
			[]wantSetting{{"my.value", "iwasimported", "file [imported.properties] line 1", ""}}},
		{"a document that does not apply is fine when it does not hold the key", loadCase{files: map[string]string{
			"application.properties": "my.import=imported\n#---\nmy.value=ignored\napp.config.activate.on-profile=missing\n#---\napp.config.import=file:${my.import}.properties",
			"imported.properties":    "my.value=imported"}},
			[]wantSetting{{"my.value", "imported", "file [imported.properties] line 1", ""}}},
		{"from another file at the location", loadCase{files: map[string]string{
			"application.yml": "base: imported", "application.properties": "app.config.import=${base}.properties", "imported.properties": "my.value=yes"}},
			[]wantSetting{{"my.value", "yes", "file [imported.properties] line 1", ""}}},
	})
	checkLoadErrors(t, []loadErrorCase{
		{"a later document that does not apply", loadCase{files: map[string]string{
			"application.properties": "my.import=imported\n#---\napp.config.import=file:${my.import}.properties\n#---\nmy.import=bad\napp.config.activate.on-profile=missing",
			"imported.properties":    "my.value=imported"}},
			[]string{"app.config.import", "file:${my.import}.properties", "file [application.properties] line 3",
				"my.import is also set in Config resource 'file [application.properties]' via location 'optional:file:./' (document #2)", "line 5", "does not apply", "on-profile=missing"}},
		{"an earlier document that does not apply", loadCase{files: map[string]string{
			"application.properties": "my.value=app\n#---\nmy.import=imported\napp.config.activate.on-profile=missing\n#---\napp.config.import=${my.import}.properties",
			"imported.properties":    "my.value=imported"}},
			[]string{"app.config.import", "my.import is also set in", "(document #1)", "does not apply"}},
	})
}

func TestImportOrder(t *testing.T) {
	t.Parallel()
	checkSettingsCases(t, []settingsCase{
		{"an import list's profile files beat all its files", loadCase{args: []string{"--app.config.import=file:cp/t-1.properties,file:cp/t-2.properties", "--app.profiles.active=myprofile"},
			files: map[string]string{"cp/t-1.properties": "p=t-1\nq=t-1", "cp/t-1-myprofile.properties": "p=t-1-myprofile", "cp/t-2.properties": "p=t-2\nq=t-2"}},
			[]wantSetting{{"p", "t-1-myprofile", "file [cp/t-1-myprofile.properties] line 1", ""}, {"q", "t-2", "file [cp/t-2.properties] line 2", ""}}},
		{"an imported file's profile file beats the location's profile file that imports it again", loadCase{args: []string{"--app.profiles.include=dev"},
			files: map[string]string{
				"application.properties":     "app.config.import=file:imported.properties\nmy.value=application.properties",
				"imported.properties":        "my.value=imported.properties",
				"imported-dev.properties":    "my.value=imported-dev.properties",
				"application-dev.properties": "app.config.import=imported-dev.properties\nmy.value=application-dev.properties"}},
			[]wantSetting{{"my.value", "imported-dev.properties", "file [imported-dev.properties] line 1", ""}}},
		{"a later location's files beat an earlier location's profile files", loadCase{args: []string{"--app.config.location=a/,b/", "--app.profiles.active=dev"},
			files: map[string]string{"a/application.properties": "x=a\ny=a", "a/application-dev.properties": "x=a-dev\ny=a-dev", "b/application.properties": "x=b"}},
			[]wantSetting{{"x", "b", "file [b/application.properties] line 1", ""}, {"y", "a-dev", "file [a/application-dev.properties] line 2", ""}}},
		{"without the imported profile file, the location's profile file wins", loadCase{args: []string{"--app.profiles.include=dev"},
			files: map[string]string{
				"application.properties":     "app.config.import=file:imported.properties\nmy.value=application.properties",
				"imported.properties":        "my.value=imported.properties",
				"application-dev.properties": "my.value=application-dev.properties"}},
			[]wantSetting{{"my.value", "application-dev.properties", "file [application-dev.properties] line 1", ""}}},
	})
}

func TestLocationTypes(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--app.config.import=optional:configserver:http://localhost:8888/,", "--app.config.location=optional:vault://secret/app,file:./"},
		files: map[string]string{"application.properties": "a=1"}})
	if v := get(t, env, "a"); v.Resolved != "1" {
		t.Errorf("a = %q, want 1", v.Resolved)
	}
	var lines []string
	for _, w := range env.Warnings() {
		lines = append(lines, fmt.Sprint(w.Key, " (", w.Origin, "): ", w.Message))
	}
	warnings := strings.Join(lines, "\n")
	for _, want := range []string{"app.config.import", "optional:configserver:http://localhost:8888/", "configserver: is not supported", "app.config.location", "vault:"} {
		if !strings.Contains(warnings, want) {
			t.Errorf("warnings %q do not contain %q", warnings, want)
		}
	}
	mustLoad(t, loadCase{args: []string{"--app.config.import="}, files: map[string]string{"application.properties": "app.config.import="}})
	checkLoadErrors(t, []loadErrorCase{
		{"a config server", loadCase{args: []string{"--app.config.import=configserver:http://localhost:8888/"}},
			[]string{"app.config.import", `"configserver:http://localhost:8888/"`, "command-line argument", "configserver: is not supported", "configtree:"}},
		{"in a file", loadCase{files: map[string]string{"application.yml": "app:\n  config:\n    import: aws-parameterstore:/app/\n"}},
			[]string{"app.config.import", "file [application.yml] line 3", "aws-parameterstore: is not supported"}},
	})
}

func TestImportOriginParents(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{files: map[string]string{
		"application.properties": "app.config.import=file:imported.properties", "imported.properties": "app.config.import=nested.properties\nmy.value=imported",
		"nested.properties": "deep=yes"}})
	parents := map[string][]string{}
	for _, src := range env.PropertySources(nil) {
		for _, e := range src.Entries {
			parents[e.Key] = e.OriginParents
		}
	}
	if got, want := parents["my.value"], []string{"file [application.properties] line 1"}; !slices.Equal(got, want) {
		t.Errorf("my.value's origin parents %q, want %q", got, want)
	}
	if got, want := parents["deep"], []string{"file [imported.properties] line 1", "file [application.properties] line 1"}; !slices.Equal(got, want) {
		t.Errorf("deep's origin parents %q, want %q", got, want)
	}
	if got := parents["app.config.import"]; len(got) != 0 {
		t.Errorf("application.properties' own setting has origin parents %q, want none", got)
	}
}

func TestParsePiece(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw               string
		want              piece
		unsupportedScheme string
	}{
		{"optional:file:./", piece{raw: "optional:file:./", optional: true, path: "./", fromWD: true}, ""},
		{"config/", piece{raw: "config/", path: "config/"}, ""},
		{"file:app.conf[.properties]", piece{raw: "file:app.conf[.properties]", path: "app.conf", fromWD: true, ext: ".properties"}, ""},
		{"app.conf[extension=.yml][encoding=latin1]", piece{raw: "app.conf[extension=.yml][encoding=latin1]", path: "app.conf", ext: ".yml", encoding: "latin1"}, ""},
		{"a[b].properties", piece{raw: "a[b].properties", path: "a[b].properties"}, ""},
		{"dir[x]", piece{raw: "dir[x]", path: "dir[x]"}, ""},
		{"C:/settings/", piece{raw: "C:/settings/", path: "C:/settings/"}, ""},
		{"optional:configserver:http://cfg:8888/", piece{}, "configserver"},
		{"aws-parameterstore:/app/", piece{}, "aws-parameterstore"},
		{"classpath:application.properties", piece{}, "classpath"},
	}
	for _, tt := range tests {
		got, err := parsePiece(tt.raw)
		var unsupported unsupportedTypeError
		switch {
		case tt.unsupportedScheme != "":
			if !errors.As(err, &unsupported) || unsupported.scheme != tt.unsupportedScheme {
				t.Errorf("%q: error %v, want the type %s: refused", tt.raw, err, tt.unsupportedScheme)
			}
		case err != nil || got != tt.want:
			t.Errorf("%q:\ngot  %+v, %v\nwant %+v", tt.raw, got, err, tt.want)
		}
	}
}

// FuzzParsePiece: any location parses without panic, keeps what was
// written, and says optional exactly when it starts with optional:.
func FuzzParsePiece(f *testing.F) {
	for _, s := range []string{"optional:file:./config/*/", "a.conf[.properties][encoding=ISO-8859-1]", "x[[y]]", "vault://s", "[", "]]", "file:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := parsePiece(raw)
		if p.raw != raw || p.optional != strings.HasPrefix(raw, "optional:") {
			t.Errorf("%q: %+v", raw, p)
		}
		if err == nil && !strings.Contains(raw, p.path) {
			t.Errorf("%q: path %q is not part of it", raw, p.path)
		}
	})
}
