package boot_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
)

// jsonLines decodes every line of out, failing on one that is not a JSON
// object.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("a line is not JSON: %v\n%s", err, l)
		}
		lines = append(lines, m)
	}
	return lines
}

// lineWith returns the first line whose field key holds want.
func lineWith(t *testing.T, lines []map[string]any, key string, want string) map[string]any {
	t.Helper()
	for _, l := range lines {
		if s, _ := l[key].(string); strings.Contains(s, want) {
			return l
		}
	}
	t.Fatalf("no line with %s %q in %v", key, want, lines)
	return nil
}

// TestStructuredConsoleFormats: logging.structured.format.console=ecs,
// logstash or gelf writes every line of a running service in that
// format, as Spring Boot writes it, with the service's name from
// app.application.name and the ECS and GELF settings; the Started line
// says how long start-up took and still gives tools the port.
func TestStructuredConsoleFormats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		format           string
		message, logger  string
		checks           func(t *testing.T, started, request map[string]any)
		args             []string
		requestLineField string
	}{
		{format: "ecs", message: "message", logger: "log.logger", args: []string{"--logging.structured.ecs.service.environment=prod"},
			checks: func(t *testing.T, started, request map[string]any) {
				service, _ := started["service"].(map[string]any)
				log, _ := started["log"].(map[string]any)
				if service["name"] != "shop" || service["environment"] != "prod" || log["level"] != "INFO" || started["ecs"].(map[string]any)["version"] != "8.11" {
					t.Errorf("ECS Started line: %v", started)
				}
				if _, ok := request["duration_ms"].(float64); !ok || request["status"] != float64(200) {
					t.Errorf("ECS access log line: %v", request)
				}
			}},
		{format: "logstash", message: "message", logger: "logger_name",
			checks: func(t *testing.T, started, request map[string]any) {
				if started["@version"] != "1" || started["level_value"] != float64(20000) || started["thread_name"] == nil {
					t.Errorf("Logstash Started line: %v", started)
				}
			}},
		{format: "gelf", message: "short_message", logger: "_log_logger", args: []string{"--logging.structured.gelf.host=shop-1"},
			checks: func(t *testing.T, started, request map[string]any) {
				if started["version"] != "1.1" || started["host"] != "shop-1" || started["level"] != float64(6) {
					t.Errorf("GELF Started line: %v", started)
				}
				if _, ok := request["_duration_ms"].(float64); !ok {
					t.Errorf("GELF access log line: %v", request)
				}
			}},
	} {
		t.Run(c.format, func(t *testing.T) {
			t.Parallel()
			s := start(t, append([]string{"--logging.structured.format.console=" + c.format, "--app.application.name=shop",
				"--server.access-log.enabled=true"}, c.args...), nil)
			send(t, nil, "GET", s.URL+"/hello", "")
			s.WaitForLog(t, regexp.MustCompile(`"(message|short_message)":"request"`))
			s.WaitForLog(t, boottest.StartedAddr) // logged as the port is served, maybe after the request
			out := s.Stdout.String()
			if m := boottest.StartedAddr.FindStringSubmatch(out); m == nil || !strings.HasSuffix(s.URL, ":"+m[1]) {
				t.Errorf("StartedAddr finds %v in the %s lines, want the port of %s:\n%s", m, c.format, s.URL, out)
			}
			lines := jsonLines(t, out)
			started := lineWith(t, lines, c.message, "Started tester in ")
			if !regexp.MustCompile(`^Started tester in \d+\.\d{3} seconds \(process running for \d+\.\d{3}\)$`).MatchString(started[c.message].(string)) {
				t.Errorf("Started line: %v", started)
			}
			request := lineWith(t, lines, c.message, "request")
			if logger := fieldAt(started, c.logger); logger != "tester.server" || fieldAt(request, c.logger) != "tester.accesslog" {
				t.Errorf("%s names the loggers %v and %v, want tester.server and tester.accesslog", c.logger, logger, fieldAt(request, c.logger))
			}
			c.checks(t, started, request)
		})
	}
}

// fieldAt reads a dotted path of nested objects.
func fieldAt(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		o, _ := v.(map[string]any)
		v = o[k]
	}
	return v
}

// TestStructuredFormatDecidesOverLoggingFormat: with both set, the
// structured format writes the console, and start-up warns that
// logging.format is not read.
func TestStructuredFormatDecidesOverLoggingFormat(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--logging.format=json", "--logging.structured.format.console=LOGSTASH"}, nil)
	s.WaitForLog(t, regexp.MustCompile(`"message":"Started `))
	lines := jsonLines(t, s.Stdout.String())
	warn := lineWith(t, lines, "message", "logging.format is not read")
	if warn["level"] != "WARN" || warn["logger_name"] != "tester.server" {
		t.Errorf("warning: %v", warn)
	}
}

// TestStructuredFormatRefusals: a formatter class, a customizer class and
// a stack trace printer class are Java, and refused at start-up naming
// their settings; the failure report is an ECS record too.
func TestStructuredFormatRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ arg, want string }{
		{"--logging.structured.format.console=com.example.MyFormatter", "Property: logging.structured.format.console\n    Value: \"com.example.MyFormatter\"\n    Origin: command-line argument --logging.structured.format.console=com.example.MyFormatter\n    Reason: want ecs, logstash or gelf: a formatter class (com.example.MyFormatter) is Java, and cannot be loaded here"},
		{"--logging.structured.format.file=xml", "Property: logging.structured.format.file\n    Value: \"xml\""},
		{"--logging.structured.json.customizer=com.example.Customizer", "Property: logging.structured.json.customizer\n"},
		{"--logging.structured.json.stacktrace.printer=com.example.Printer", "Property: logging.structured.json.stacktrace.printer\n"},
	} {
		stderr, err := boottest.FailToStart(t, tester(), []string{"--server.port=0", c.arg}, nil)
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: %v\n%s", c.arg, err, stderr)
		}
	}
	var stdout boottest.Output
	p := boottest.Inputs([]string{"--server.port=0", "--logging.structured.format.console=ecs", "--server.port=eighty"}, nil)
	p.Stdout = &stdout
	if err := boot.Run(context.Background(), tester(), p); err == nil {
		t.Fatal("started with server.port=eighty")
	}
	report := lineWith(t, jsonLines(t, stdout.String()), "message", "application failed to start")
	if fieldAt(report, "log.level") != "ERROR" || fieldAt(report, "service.name") != "tester" || !strings.Contains(report["report"].(string), "server.port") {
		t.Errorf("failure record: %v", report)
	}
}

// TestStructuredSettingsAreRead: the logging.structured keys are read,
// not warned about as keys nothing reads.
func TestStructuredSettingsAreRead(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--logging.structured.format.console=ecs", "--logging.structured.json.rename.log.level=severity",
		"--logging.structured.json.add.corp=acme", "--logging.structured.json.exclude=process",
		"--logging.structured.json.stacktrace.max-length=100", "--logging.structured.format.file=gelf", "--app.config.fail-on-unknown=true"}, nil)
	s.WaitForLog(t, regexp.MustCompile(`"message":"Started `))
	started := lineWith(t, jsonLines(t, s.Stdout.String()), "message", "Started")
	if fieldAt(started, "log.severity") != "INFO" || started["corp"] != "acme" || started["process"] != nil {
		t.Errorf("Started line: %v", started)
	}
}
