package config

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestImports(t *testing.T) {
	t.Parallel()
	checkSettingsCases(t, []settingsCase{
		{"an imported file overrides the file that imports it", loadCase{files: map[string]string{
			"application.properties": "app.config.import=extra.yml\na=base\nb=base", "extra.yml": "a: extra"}},
			[]wantSetting{{"a", "extra", "file [extra.yml] line 1 column 4", "Config resource 'file [extra.yml]' via location 'extra.yml'"}, {"b", "base", "file [application.properties] line 3", ""}}},
		{"relative to the importing file; a later import wins; optional: prefix", loadCase{files: map[string]string{
			"config/application.properties": "app.config.import=one.properties,optional:two.properties,optional:missing.properties", "config/one.properties": "a=one\nb=one", "config/two.properties": "a=two"}},
			[]wantSetting{{"a", "two", "file [config/two.properties] line 1", ""}, {"b", "one", "file [config/one.properties] line 2", ""}}},
		{"file: is relative to the working directory", loadCase{files: map[string]string{
			"config/application.properties": "app.config.import=file:one.properties,two.properties", "one.properties": "a=top\nb=top", "config/one.properties": "a=config",
			"config/two.properties": "b=config two"}},
			[]wantSetting{{"a", "top", "file [one.properties] line 1", "Config resource 'file [one.properties]' via location 'file:one.properties'"},
				{"b", "config two", "file [config/two.properties] line 1", ""}}},
		{"an embedded file imports from the embedded resources", loadCase{embedded: fstest.MapFS{
			"application.yml": {Data: []byte("app.config.import: extra/more.properties\n")}, "extra/more.properties": {Data: []byte("a=embedded extra\n")}}},
			[]wantSetting{{"a", "embedded extra", "embedded [extra/more.properties] line 1", "Config resource 'embedded [extra/more.properties]' via location 'extra/more.properties'"}}},
		{"a directory import reads its application files", loadCase{files: map[string]string{"application.yml": "app.config.import: extra/", "extra/application.properties": "a=dir"}},
			[]wantSetting{{"a", "dir", "file [extra/application.properties] line 1", ""}}},
		{"imports in imported files; cycles end", loadCase{files: map[string]string{
			"application.properties": "app.config.import=one.properties", "one.properties": "app.config.import=two.properties\na=one", "two.properties": "app.config.import=one.properties\na=two"}},
			[]wantSetting{{"a", "two", "file [two.properties] line 2", ""}}},
		{"an import on the command line beats every file", loadCase{args: []string{"--app.config.import=cli.properties"}, files: map[string]string{
			"config/application.properties": "a=config", "cli.properties": "a=cli"}},
			[]wantSetting{{"a", "cli", "file [cli.properties] line 1", "Config resource 'file [cli.properties]' via location 'cli.properties'"}}},
		{"an imported file's profile file", loadCase{args: []string{"--app.profiles.active=dev"}, files: map[string]string{
			"application.properties": "app.config.import=extra.properties", "extra.properties": "a=extra", "extra-dev.properties": "a=extra-dev"}},
			[]wantSetting{{"a", "extra-dev", "file [extra-dev.properties] line 1", ""}}},
		{"an import in a conditional document only under its profile", loadCase{files: map[string]string{
			"application.properties": "a=base\n#---\napp.config.activate.on-profile=dev\napp.config.import=dev.properties", "dev.properties": "a=dev"}},
			[]wantSetting{{"a", "base", "file [application.properties] line 1", ""}}},
		{"placeholders in the list resolve against the environment", loadCase{env: map[string]string{"EXTRA": "extra.properties"}, files: map[string]string{
			"application.properties": "app.config.import=${EXTRA}", "extra.properties": "a=extra"}},
			[]wantSetting{{"a", "extra", "file [extra.properties] line 1", ""}}},
		{"a config tree", loadCase{files: map[string]string{
			"application.properties": "app.config.import=configtree:tree/\napp.greeting=base", "tree/app/greeting": "Hi from a tree\n", "tree/db/password": "s3cret\r\n", "tree/..data/app/greeting": "hidden"}},
			[]wantSetting{{"app.greeting", "Hi from a tree", "file [tree/app/greeting]", "Config resource 'config tree [tree]' via location 'configtree:tree/'"},
				{"db.password", "s3cret", "file [tree/db/password]", ""}}},
	})
}

// TestConfigTreeFollowsLinks mounts a tree as Kubernetes does: each key a
// link into a hidden, timestamped folder.
func TestConfigTreeFollowsLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "..2026_01_01")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "token"), []byte("abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(data, "token"), filepath.Join(dir, "token")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	src, err := readConfigTree(dir, "mount", "tree")
	if err != nil {
		t.Fatal(err)
	}
	if len(src.keys) != 1 || src.entries["token"].Value != "abc" {
		t.Errorf("entries %v, want only token=abc", src.entries)
	}
}

func TestImportErrors(t *testing.T) {
	t.Parallel()
	checkLoadErrors(t, []loadErrorCase{
		{"missing file", loadCase{files: map[string]string{"application.properties": "a=1\napp.config.import=gone.properties"}},
			[]string{"app.config.import", `"gone.properties"`, "file [application.properties] line 2", "optional:"}},
		{"missing config tree on the command line", loadCase{args: []string{"--app.config.import=configtree:/no/such/dir/"}},
			[]string{"app.config.import", "configtree:/no/such/dir/", "command-line argument"}},
		{"unknown extension", loadCase{files: map[string]string{"application.properties": "app.config.import=x.txt", "x.txt": "a=1"}},
			[]string{"x.txt", ".properties, .yml or .yaml"}},
		{"too deep", loadCase{files: map[string]string{"application.properties": "app.config.import=1.properties",
			"1.properties": "app.config.import=2.properties", "2.properties": "app.config.import=3.properties", "3.properties": "app.config.import=4.properties",
			"4.properties": "app.config.import=5.properties", "5.properties": "app.config.import=6.properties", "6.properties": "app.config.import=7.properties",
			"7.properties": "app.config.import=8.properties", "8.properties": "app.config.import=9.properties", "9.properties": "a=1"}},
			[]string{"app.config.import", "file [8.properties] line 1", "deep"}},
	})
}
