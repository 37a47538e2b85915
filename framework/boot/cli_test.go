package boot_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
)

func TestVersionFlag(t *testing.T) {
	t.Parallel()
	var out, errOut boottest.Output
	if err := boot.Run(context.Background(), tester(), boot.Process{Args: []string{"--version"}, Stdout: &out, Stderr: &errOut}); err != nil {
		t.Fatalf("--version: %v\n%s", err, errOut.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "tester github.com/springport/greeter ") || errOut.String() != "" {
		t.Errorf("--version printed %q, and on stderr %q", got, errOut.String())
	}
}

// TestHelpListsEverySetting: --help lists every setting, the service's own
// and the framework's, each with its default and its meaning, from the
// binding itself; the framework describes each of its own.
func TestHelpListsEverySetting(t *testing.T) {
	t.Parallel()
	var out, errOut boottest.Output
	if err := boot.Run(context.Background(), tester(), boot.Process{Args: []string{"--help"}, Stdout: &out, Stderr: &errOut}); err != nil {
		t.Fatalf("--help: %v\n%s", err, errOut.String())
	}
	settings, err := boot.Settings(tester())
	if err != nil {
		t.Fatal(err)
	}
	help := out.String()
	for _, s := range settings {
		if s.Help == "" {
			t.Errorf("setting %s has no meaning", s.Key)
		}
		if !strings.Contains(help, "--"+s.Key+" ") {
			t.Errorf("--help does not list %s", s.Key)
		}
	}
	for _, want := range []string{
		"Usage: tester [--key=value ...]",
		"tester's own settings:",
		"Hello from the packaged file  what GET /hello answers",
		"The framework's settings:",
		"--server.read-header-timeout",
		// The families of keys, a key per name, that are read when set.
		"--management.endpoint.health.group.<name>.include",
		"--management.metrics.tags.<key>",
		"--management.opentelemetry.tracing.export.otlp.headers.<name>",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q:\n%s", want, help)
		}
	}
	if strings.Index(help, "--tester.greeting") > strings.Index(help, "--server.port") {
		t.Error("--help lists the framework's settings before the service's own")
	}
	if !slices.ContainsFunc(settings, func(s boot.Setting) bool { return s.Key == "server.read-header-timeout" && s.Default == "5s" && !s.Own }) {
		t.Errorf("server.read-header-timeout is not listed as the framework's, with its default 5s: %+v", settings)
	}
	if errOut.String() != "" {
		t.Errorf("--help wrote on stderr: %s", errOut.String())
	}
	if gaps, err := boot.Undocumented(tester()); err != nil || len(gaps) > 0 {
		t.Errorf("Undocumented: %v %v", gaps, err)
	}
}

// TestUndocumented: a setting the service reads without a meaning, and a
// meaning of a setting it does not read, are both reported.
func TestUndocumented(t *testing.T) {
	t.Parallel()
	svc := tester()
	svc.Help = map[string]string{"tester.greeting": "what GET /hello answers", "tester.gone": "a setting since removed"}
	gaps, err := boot.Undocumented(svc)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(gaps)
	want := []string{"tester.gone is in Help, but nothing reads it", "tester.store-down has no meaning in Help"}
	if !slices.Equal(gaps, want) {
		t.Errorf("got  %q\nwant %q", gaps, want)
	}
}

// TestFailureReportIsAlsoAJSONRecord: with logging.format=json a failed
// start writes the report as one JSON record on stdout, as well as the
// banner on stderr; settings that fail to load, or to bind, alike.
func TestFailureReportIsAlsoAJSONRecord(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--logging.format=json", "--server.port=eighty"},
		{"--logging.format=json", "--app.config.location=nowhere/"},
	} {
		var out, errOut boottest.Output
		err := boot.Run(context.Background(), tester(), boot.Process{Args: args, Stdout: &out, Stderr: &errOut})
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

// TestMisdescribedServiceIsRefused: a service without a usable name or a
// Start function is refused before anything runs.
func TestMisdescribedServiceIsRefused(t *testing.T) {
	t.Parallel()
	for _, mutate := range []func(*boot.Service[testerSettings]){
		func(s *boot.Service[testerSettings]) { s.Name = "" },
		func(s *boot.Service[testerSettings]) { s.Name = "my.service" },
		func(s *boot.Service[testerSettings]) { s.Start = nil },
	} {
		svc := tester()
		mutate(&svc)
		stderr, err := boottest.FailToStart(t, svc, []string{"--server.port=0"}, nil)
		if err == nil || !strings.Contains(stderr, "APPLICATION FAILED TO START") || !strings.Contains(stderr, "boot: ") {
			t.Errorf("service %q: %v\n%s", svc.Name, err, stderr)
		}
	}
}
