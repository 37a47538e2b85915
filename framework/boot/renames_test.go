package boot_test

// Spring Boot 3.5's names of the settings that Spring Boot 4.0 renamed:
// read as the 4.0 names, with one warning each, as Spring's properties
// migrator reads them (config.Renamed).

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// renamedSetting is a setting that Spring Boot 4.0 renamed, as the
// service reads it.
type renamedSetting struct {
	old         string // 3.5's name, as a user writes it
	replacement string // 4.0's name, written as old is (spring. for spring.)
	bound       string // the key bound, as /actuator/configprops shows it
	value       string // given to old
	other       string // given to the new name, when both are set
}

// renamedSettings are the renames of the settings the tester reads.
var renamedSettings = []renamedSetting{
	{"management.tracing.enabled", "management.tracing.export.enabled", "management.tracing.export.enabled", "false", "true"},
	{"management.otlp.tracing.endpoint", "management.opentelemetry.tracing.export.otlp.endpoint", "management.opentelemetry.tracing.export.otlp.endpoint",
		"http://127.0.0.1:1/v1/old", "http://127.0.0.1:1/v1/new"},
	{"management.otlp.tracing.compression", "management.opentelemetry.tracing.export.otlp.compression", "management.opentelemetry.tracing.export.otlp.compression", "gzip", "none"},
	{"management.otlp.tracing.timeout", "management.opentelemetry.tracing.export.otlp.timeout", "management.opentelemetry.tracing.export.otlp.timeout", "3s", "4s"},
	{"spring.session.redis.namespace", "spring.session.data.redis.namespace", "app.session.data.redis.namespace", "old:sessions", "new:sessions"},
}

// renamedWarnings returns the lines of out that warn about a renamed key.
func renamedWarnings(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, `msg="The use of a configuration key that has been renamed in Spring Boot 4.0 was found in the environment;`) {
			lines = append(lines, l)
		}
	}
	return lines
}

// boundValue is the value /actuator/configprops shows for key, in the
// bean of the longest prefix that holds it.
func boundValue(t *testing.T, url, key string) any {
	t.Helper()
	var v any
	prefix := ""
	for _, bean := range configProps(t, url+"/actuator/configprops").Contexts["tester"].Beans {
		if rest, ok := strings.CutPrefix(key, bean.Prefix+"."); ok && len(bean.Prefix) > len(prefix) {
			v, prefix = at(bean.Properties, strings.Split(rest, ".")...), bean.Prefix
		}
	}
	return v
}

var showConfigProps = []string{"--management.endpoints.web.exposure.include=configprops", "--management.endpoint.configprops.show-values=always"}

// TestRenamedKeysRead: each 3.5 name alone is bound as its 4.0 name, with
// exactly one warning that names the key as written, its origin and its
// new name, and no warning that nothing reads it; each 4.0 name alone is
// bound without a warning; with both in one source the 4.0 name wins, and
// the 3.5 name's one warning says that it is ignored.
func TestRenamedKeysRead(t *testing.T) {
	t.Parallel()
	var oldArgs, newArgs, bothArgs []string
	for _, r := range renamedSettings {
		oldArgs = append(oldArgs, "--"+r.old+"="+r.value)
		newArgs = append(newArgs, "--"+r.replacement+"="+r.value)
		bothArgs = append(bothArgs, "--"+r.old+"="+r.value, "--"+r.replacement+"="+r.other)
	}
	old := start(t, append(oldArgs, showConfigProps...), nil)
	out := old.Stdout.String()
	if got := renamedWarnings(out); len(got) != len(renamedSettings) {
		t.Errorf("%d warnings about renamed keys, want %d:\n%s", len(got), len(renamedSettings), strings.Join(got, "\n"))
	}
	for _, r := range renamedSettings {
		if v := boundValue(t, old.URL, r.bound); fmt.Sprint(v) != r.value {
			t.Errorf("%s=%s: %s is bound to %v, want %s", r.old, r.value, r.bound, v, r.value)
		}
		want := fmt.Sprintf(`it is mapped to its replacement for now, as Spring's properties migrator maps it: update the configuration to the new key" key=%s origin="command-line argument --%s" replacement=%s`,
			r.old, r.old, r.replacement)
		if n := strings.Count(out, want); n != 1 {
			t.Errorf("%d lines with %s, want 1:\n%s", n, want, strings.Join(renamedWarnings(out), "\n"))
		}
	}
	if got := warnings(out); len(got) != 0 {
		t.Errorf("renamed keys are warned about as read by nothing:\n%s", strings.Join(got, "\n"))
	}

	renamed := start(t, append(newArgs, showConfigProps...), nil)
	if got := renamedWarnings(renamed.Stdout.String()); len(got) != 0 {
		t.Errorf("the new names are warned about:\n%s", strings.Join(got, "\n"))
	}
	for _, r := range renamedSettings {
		if v := boundValue(t, renamed.URL, r.bound); fmt.Sprint(v) != r.value {
			t.Errorf("%s=%s: %s is bound to %v, want %s", r.replacement, r.value, r.bound, v, r.value)
		}
	}

	both := start(t, append(bothArgs, showConfigProps...), nil)
	out = both.Stdout.String()
	if got := renamedWarnings(out); len(got) != len(renamedSettings) {
		t.Errorf("%d warnings about renamed keys, want %d:\n%s", len(got), len(renamedSettings), strings.Join(got, "\n"))
	}
	for _, r := range renamedSettings {
		if v := boundValue(t, both.URL, r.bound); fmt.Sprint(v) != r.other {
			t.Errorf("%s=%s and %s=%s: %s is bound to %v, want the new name's %s", r.old, r.value, r.replacement, r.other, r.bound, v, r.other)
		}
		want := fmt.Sprintf(`it is ignored: its replacement is set too, and wins: remove it" key=%s origin="command-line argument --%s" replacement=%s set="%s (command-line argument --%s)"`,
			r.old, r.old, r.replacement, r.replacement, r.replacement)
		if n := strings.Count(out, want); n != 1 {
			t.Errorf("%d lines with %s, want 1:\n%s", n, want, strings.Join(renamedWarnings(out), "\n"))
		}
	}
}

// TestRenamedKeysAcrossSources: across sources the order of sources
// decides, whichever name each uses: an environment variable of the 3.5
// name outranks the 4.0 name in a settings file, and the 4.0 name on the
// command line outranks the variable, which is then said to be ignored.
// The variables are warned about under their own names, naming the
// variables of the new names.
func TestRenamedKeysAcrossSources(t *testing.T) {
	workIn(t, map[string]string{"application.properties": "management.opentelemetry.tracing.export.otlp.timeout=4s\n"})
	env := map[string]string{"MANAGEMENT_OTLP_TRACING_TIMEOUT": "3s", "SPRING_SESSION_REDIS_NAMESPACE": "old:sessions"}
	s := start(t, append([]string{"--app.session.data.redis.namespace=new:sessions"}, showConfigProps...), env)
	out := s.Stdout.String()
	if v := boundValue(t, s.URL, "management.opentelemetry.tracing.export.otlp.timeout"); v != "3s" {
		t.Errorf("timeout %v, want MANAGEMENT_OTLP_TRACING_TIMEOUT's 3s over the file's 4s", v)
	}
	if v := boundValue(t, s.URL, "app.session.data.redis.namespace"); v != "new:sessions" {
		t.Errorf("namespace %v, want the argument's new:sessions over SPRING_SESSION_REDIS_NAMESPACE", v)
	}
	for _, want := range []string{
		`mapped to its replacement for now, as Spring's properties migrator maps it: update the configuration to the new key" key=MANAGEMENT_OTLP_TRACING_TIMEOUT origin="environment variable MANAGEMENT_OTLP_TRACING_TIMEOUT" replacement=MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_TIMEOUT`,
		`it is ignored: its replacement is set too, and wins: remove it" key=SPRING_SESSION_REDIS_NAMESPACE origin="environment variable SPRING_SESSION_REDIS_NAMESPACE" replacement=SPRING_SESSION_DATA_REDIS_NAMESPACE set="app.session.data.redis.namespace (command-line argument --app.session.data.redis.namespace)"`,
	} {
		if n := strings.Count(out, want); n != 1 {
			t.Errorf("%d lines with %s, want 1:\n%s", n, want, strings.Join(renamedWarnings(out), "\n"))
		}
	}
	if got := renamedWarnings(out); len(got) != 2 {
		t.Errorf("%d warnings about renamed keys, want 2:\n%s", len(got), strings.Join(got, "\n"))
	}
	if got := warnings(out); len(got) != 0 {
		t.Errorf("renamed variables are warned about as read by nothing:\n%s", strings.Join(got, "\n"))
	}
}

// TestRenamedTracingKeysExport: spans reach the collector that 3.5's
// names describe, in any form (a header in brackets, camelCase), with
// their header and compression, and each key is warned about once.
func TestRenamedTracingKeysExport(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, []string{"--management.otlp.tracing.endpoint=" + rcv.URL + "/v1/traces", "--management.tracing.sampling.probability=1",
		"--management.otlp.tracing.compression=gzip", "--management.otlp.tracing.headers.[X-Tenant]=blue",
		"--management.otlp.tracing.headers.authorization=Bearer hunter2", "--management.tracing.enabled=true"}, nil)
	if r := send(t, nil, "GET", s.URL+"/hello/7", ""); r.status != http.StatusOK {
		t.Fatalf("GET /hello/7: %d", r.status)
	}
	rcv.waitForSpans(t, s, 1)
	e := rcv.requests()[0]
	if !e.gzipped || e.header.Get("Authorization") != "Bearer hunter2" || e.header.Get("X-Tenant") != "blue" {
		t.Errorf("export gzipped %v, headers %v; want gzip with the headers that 3.5's names set", e.gzipped, e.header)
	}
	out := s.Stdout.String()
	for _, key := range []string{"management.otlp.tracing.endpoint", "management.otlp.tracing.compression", "management.otlp.tracing.headers.[X-Tenant]",
		"management.otlp.tracing.headers.authorization", "management.tracing.enabled"} {
		if n := strings.Count(out, " key="+key+" "); n != 1 {
			t.Errorf("%d lines name %s, want 1:\n%s", n, key, out)
		}
	}
	if !strings.Contains(out, "replacement=management.opentelemetry.tracing.export.otlp.headers.[X-Tenant]") {
		t.Errorf("the header's warning does not name its new key:\n%s", strings.Join(renamedWarnings(out), "\n"))
	}
	if strings.Contains(out, "hunter2") {
		t.Errorf("a header's value is shown:\n%s", out)
	}
}

// TestRenamedKeyWithoutItsStarter: the 3.5 name of a starter's setting, in
// a service without the starter, names the starter to add, as its 4.0
// name does.
func TestRenamedKeyWithoutItsStarter(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, withoutStarters(), []string{"--spring.session.redis.namespace=x", "--spring.session.data.redis.namespace=y"}, nil)
	out := s.Stdout.String()
	if got := renamedWarnings(out); len(got) != 0 {
		t.Errorf("a setting that nothing reads is warned about as renamed:\n%s", strings.Join(got, "\n"))
	}
	for _, key := range []string{"spring.session.redis.namespace", "spring.session.data.redis.namespace"} {
		want := "key=" + key + ` origin="command-line argument --` + key + `" hint="read by the starter github.com/springport/greeter/framework/starter/redissession`
		if !strings.Contains(out, want) {
			t.Errorf("no line with %s:\n%s", want, strings.Join(warnings(out), "\n"))
		}
	}
}
