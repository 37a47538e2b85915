package main

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/internal/logtest"
)

func TestVersionFlag(t *testing.T) {
	var out, errOut logtest.Buffer
	if err := run(context.Background(), []string{"--version"}, noEnvironment, &out, &errOut); err != nil {
		t.Fatalf("--version: %v\n%s", err, errOut.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "github.com/springport/greeter ") || strings.Contains(got, "FAILED") || errOut.String() != "" {
		t.Errorf("--version printed %q, and on stderr %q", got, errOut.String())
	}
}

func TestPrintVersion(t *testing.T) {
	build := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/springport/greeter", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-26T04:49:47Z"}, {Key: "vcs.modified", Value: "true"}}}
	var out strings.Builder
	printVersion(&out, build)
	if want := "github.com/springport/greeter v1.2.3 (abc123, 2026-11-26T04:49:47Z, modified) go1.26.8\n"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}

// TestHelpListsEverySetting: --help lists every setting the service binds,
// each with its meaning, from the binding itself.
func TestHelpListsEverySetting(t *testing.T) {
	var out, errOut logtest.Buffer
	if err := run(context.Background(), []string{"--help"}, noEnvironment, &out, &errOut); err != nil {
		t.Fatalf("--help: %v\n%s", err, errOut.String())
	}
	s, err := bindSettings(mustLoad(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range s.bound {
		if settingMeanings()[key] == "" {
			t.Errorf("setting %s has no meaning for --help in settingMeanings", key)
		}
		if !strings.Contains(out.String(), "--"+key+" ") {
			t.Errorf("--help does not list %s", key)
		}
	}
	for key := range settingMeanings() {
		if !slices.Contains(s.bound, key) {
			t.Errorf("settingMeanings describes %s, which nothing binds", key)
		}
	}
	if !strings.Contains(out.String(), "--server.read-header-timeout") || !strings.Contains(out.String(), " 5s ") || errOut.String() != "" {
		t.Errorf("--help printed:\n%s\nstderr: %s", out.String(), errOut.String())
	}
}

func mustLoad(t *testing.T) *config.Environment {
	t.Helper()
	env, err := config.Load(config.Options{Embedded: embeddedSettings(), LookupEnv: noEnvironment})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TestFailureReportIsAlsoAJSONRecord: with logging.format=json a failed
// start writes the report as one JSON record on stdout, as well as the
// banner on stderr; settings that fail to load, or to bind, alike.
func TestFailureReportIsAlsoAJSONRecord(t *testing.T) {
	for _, args := range [][]string{
		{"--logging.format=json", "--server.port=eighty"},
		{"--logging.format=json", "--app.config.location=nowhere/"},
	} {
		var out, errOut logtest.Buffer
		err := run(context.Background(), args, noEnvironment, &out, &errOut)
		if err == nil {
			t.Fatalf("%q: the service started", args)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var record struct{ Level, Msg, Report string }
		if jerr := json.Unmarshal([]byte(lines[len(lines)-1]), &record); jerr != nil || record.Level != "ERROR" ||
			record.Msg != "application failed to start" || !strings.Contains(record.Report, "APPLICATION FAILED TO START") {
			t.Errorf("%q: the last stdout line is not the report as a JSON record: %v\n%s", args, jerr, out.String())
		}
		if !strings.Contains(errOut.String(), "APPLICATION FAILED TO START") {
			t.Errorf("%q: no banner on stderr", args)
		}
	}
}
