package config

import (
	"errors"
	"testing"
	"testing/fstest"
)

// TestEmbeddedSettingsInAFolder: settings files embedded in a folder
// (//go:embed resources) are refused, naming the folder and the files,
// rather than ignored; at the root, or passed through fs.Sub, they are
// read; embedded files without settings anywhere are no concern.
func TestEmbeddedSettingsInAFolder(t *testing.T) {
	t.Parallel()
	props := &fstest.MapFile{Data: []byte("greeting=hello\n")}
	inFolder := fstest.MapFS{
		"resources/application.properties": props,
		"resources/application-dev.yml":    {Data: []byte("greeting: dev\n")},
		"resources/banner.txt":             {Data: []byte("hi")},
		"db/migration/V1__init.sql":        {Data: []byte("SELECT 1;")},
	}
	_, err := Load(Options{Embedded: inFolder})
	var ese *EmbeddedSettingsError
	if !errors.As(err, &ese) || ese.Dir != "resources" || len(ese.Files) != 2 ||
		ese.Files[0] != "resources/application-dev.yml" || ese.Files[1] != "resources/application.properties" {
		t.Fatalf("Load: %v (%+v); want an EmbeddedSettingsError naming resources/ and its two files", err, ese)
	}

	// app.config.name names other files: those are the settings files.
	named := fstest.MapFS{"conf/greeter.yaml": props}
	if _, err := Load(Options{Embedded: named, Args: []string{"--app.config.name=greeter"}}); !errors.As(err, &ese) || ese.Dir != "conf" {
		t.Errorf("with app.config.name=greeter: %v", err)
	}
	if _, err := Load(Options{Embedded: named}); err != nil {
		t.Errorf("conf/greeter.yaml is no settings file of application's: %v", err)
	}

	for name, fsys := range map[string]fstest.MapFS{
		"at the root":           {"application.properties": props, "resources/application.properties": props},
		"a profile at the root": {"application-dev.properties": props, "config/application.properties": props},
		"no settings":           {"db/migration/V1__init.sql": {Data: []byte("SELECT 1;")}, "static/index.html": {Data: []byte("<p>")}},
	} {
		if _, err := Load(Options{Embedded: fsys}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	sub, err := Load(Options{Embedded: fstest.MapFS{"application.properties": props}})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := sub.Lookup("greeting"); !ok || v.Resolved != "hello" {
		t.Errorf("greeting at the root: %v %v", v, ok)
	}
}
