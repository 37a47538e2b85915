package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// traced is a context the test's Trace finds ids in.
type traceKey struct{}

func testTrace(ctx context.Context) (string, string, bool) {
	if ctx.Value(traceKey{}) == nil {
		return "", "", false
	}
	return "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true
}

var tracedCtx = context.WithValue(context.Background(), traceKey{}, true)

// errWrapped is an error that wraps another, as a store's does.
var errWrapped = fmt.Errorf("saving the message: %w", errors.New("connection refused"))

// logLines writes the same lines in format through a Registry, as boot
// does, and returns them decoded, each with its keys in order.
func logLines(t *testing.T, format string, st Structured) ([]map[string]any, [][]string, string) {
	t.Helper()
	var buf bytes.Buffer
	h, err := NewHandler(format, &buf, HandlerOptions{Trace: testTrace, Structured: st})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRegistry(h, Info)
	log := r.Logger("greeter.dispatch")
	log.InfoContext(tracedCtx, "request", "method", "GET", "status", 200, slog.Duration("duration", 1500*time.Microsecond),
		slog.Group("http", "route", "/hello"), "ok", true)
	log.Error("request failed", ErrorKey, errWrapped, "http.status", 500)
	log.Debug("hidden")
	log.With("user", "ada").Warn("")
	var lines []map[string]any
	var orders [][]string
	for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s line is not JSON: %v\n%s", format, err, l)
		}
		lines = append(lines, m)
		orders = append(orders, topKeys(t, l))
	}
	if len(lines) != 3 {
		t.Fatalf("%d %s lines, want 3 (DEBUG is below INFO):\n%s", len(lines), format, buf.String())
	}
	return lines, orders, buf.String()
}

// topKeys are the names of a JSON object's members, in order.
func topKeys(t *testing.T, line string) []string {
	dec := json.NewDecoder(strings.NewReader(line))
	dec.Token() // {
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// at reads the value at a dotted path of nested objects.
func at(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

func wantFields(t *testing.T, format string, line map[string]any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		if got := at(line, path); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: %s = %v (%T), want %v\n%v", format, path, got, got, w, line)
		}
	}
}

var testStructured = Structured{ECS: ECSService{Name: "greeter", Version: "1.2.0", Environment: "prod", NodeName: "node-1"},
	GELF: GELFService{Host: "greeter", Version: "1.2.0"}}

// TestECSLines checks the ECS lines against ECS logging's spec (its
// required @timestamp, log.level, message and ecs.version; log.logger,
// process.pid, service.*, error.*, in ECS's nesting) and against Spring
// Boot's formatter: its order, its nested objects (3.5+), the MDC's
// traceId and spanId, the key-values nested at their dots.
func TestECSLines(t *testing.T) {
	lines, orders, raw := logLines(t, FormatECS, testStructured)
	info, failed, warn := lines[0], lines[1], lines[2]
	if got := strings.Join(orders[0], ","); got != "@timestamp,log,process,service,message,traceId,spanId,method,status,duration_ms,http,ok,ecs" {
		t.Errorf("ECS fields in the order %s, want Spring's", got)
	}
	if ts, _ := info["@timestamp"].(string); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$`).MatchString(ts) {
		t.Errorf("@timestamp %q is not an ISO 8601 instant in UTC as Java writes it", ts)
	}
	wantFields(t, "ecs", info, map[string]any{
		"log.level": "INFO", "log.logger": "greeter.dispatch", "process.pid": os.Getpid(), "process.thread.name": "main",
		"service.name": "greeter", "service.version": "1.2.0", "service.environment": "prod", "service.node.name": "node-1",
		"message": "request", "ecs.version": "8.11", "traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "spanId": "00f067aa0ba902b7",
		"method": "GET", "status": 200, "duration_ms": 1.5, "http.route": "/hello", "ok": true,
	})
	wantFields(t, "ecs", failed, map[string]any{
		"log.level": "ERROR", "message": "request failed", "http.status": 500,
		"error.type": "*fmt.wrapError", "error.message": "saving the message: connection refused",
		"error.stack_trace": "*fmt.wrapError: saving the message: connection refused\nCaused by: *errors.errorString: connection refused",
	})
	if failed["traceId"] != nil || failed["error"] == nil || at(failed, "error.type") == nil {
		t.Errorf("an untraced error line: %v", failed)
	}
	wantFields(t, "ecs", warn, map[string]any{"log.level": "WARN", "message": "", "user": "ada"})
	if strings.Contains(raw, `"log.level"`) || strings.Contains(raw, `"err"`) {
		t.Errorf("dotted names or an err key in ECS lines:\n%s", raw)
	}
}

// TestLogstashLines checks the lines against logstash-logback-encoder's
// default field names (@timestamp, @version, message, logger_name,
// thread_name, level, level_value, stack_trace) in Spring Boot's order,
// the key-values flat after them.
func TestLogstashLines(t *testing.T) {
	lines, orders, _ := logLines(t, FormatLogstash, testStructured)
	info, failed := lines[0], lines[1]
	if got := strings.Join(orders[0], ","); got != "@timestamp,@version,message,logger_name,thread_name,level,level_value,traceId,spanId,method,status,duration_ms,http.route,ok" {
		t.Errorf("Logstash fields in the order %s, want Spring's", got)
	}
	ts, _ := info["@timestamp"].(string)
	if _, err := time.Parse(time.RFC3339Nano, ts); err != nil || !regexp.MustCompile(`(Z|[+-]\d\d:\d\d)$`).MatchString(ts) {
		t.Errorf("@timestamp %q is not ISO_OFFSET_DATE_TIME: %v", ts, err)
	}
	wantFields(t, "logstash", info, map[string]any{"@version": "1", "message": "request", "logger_name": "greeter.dispatch",
		"thread_name": "main", "level": "INFO", "level_value": 20000, "traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "duration_ms": 1.5})
	if info["http.route"] != "/hello" {
		t.Errorf("a group's attribute: %v, want http.route flat", info)
	}
	wantFields(t, "logstash", failed, map[string]any{"level": "ERROR", "level_value": 40000,
		"stack_trace": "*fmt.wrapError: saving the message: connection refused\nCaused by: *errors.errorString: connection refused"})
	wantFields(t, "logstash", lines[2], map[string]any{"level_value": 30000, "user": "ada"})
}

// TestGELFLines checks the lines against GELF 1.1: version "1.1", host,
// short_message never empty, timestamp in seconds with the milliseconds
// as decimals, level a syslog severity, every other field "_"-prefixed
// with a name GELF allows, never _id, its value a string or a number;
// and against Spring Boot's order and names.
func TestGELFLines(t *testing.T) {
	st := testStructured
	st.JSON.Add = map[string]string{"id": "dropped", "corp": "acme"}
	lines, orders, raw := logLines(t, FormatGELF, st)
	info, failed, warn := lines[0], lines[1], lines[2]
	if got := strings.Join(orders[0], ","); got != "version,short_message,timestamp,level,_level_name,_process_pid,_process_thread_name,host,_service_version,_log_logger,_traceId,_spanId,_method,_status,_duration_ms,_http.route,_ok,_corp" {
		t.Errorf("GELF fields in the order %s, want Spring's", got)
	}
	if !regexp.MustCompile(`"timestamp":\d{10}\.\d{3},`).MatchString(raw) {
		t.Errorf("timestamp not in seconds with 3 decimals:\n%s", raw)
	}
	for i, l := range lines {
		if l["version"] != "1.1" || l["host"] != "greeter" || l["short_message"] == "" {
			t.Errorf("line %d lacks GELF's required fields: %v", i, l)
		}
		for k, v := range l {
			switch k {
			case "version", "host", "short_message", "full_message", "timestamp", "level":
				continue
			}
			if !strings.HasPrefix(k, "_") || k == "_id" || !gelfFieldName.MatchString(k) {
				t.Errorf("line %d: field %q is not a GELF additional field", i, k)
			}
			switch v.(type) {
			case string, float64:
			default:
				t.Errorf("line %d: %s is %T, want a string or a number", i, k, v)
			}
		}
	}
	wantFields(t, "gelf", info, map[string]any{"level": 6, "_level_name": "INFO", "_log_logger": "greeter.dispatch",
		"_process_pid": os.Getpid(), "_service_version": "1.2.0", "_ok": "true", "_duration_ms": 1.5, "_traceId": "4bf92f3577b34da6a3ce929d0e0e4736"})
	wantFields(t, "gelf", failed, map[string]any{"level": 3, "_error_type": "*fmt.wrapError",
		"_error_message": "saving the message: connection refused",
		"full_message":   "request failed\n\n*fmt.wrapError: saving the message: connection refused\nCaused by: *errors.errorString: connection refused"})
	wantFields(t, "gelf", warn, map[string]any{"level": 4, "short_message": "(blank)", "_user": "ada"})
}

// TestJSONMembers: logging.structured.json.include, exclude, rename,
// add and context.* change the fields as Spring's do, by path.
func TestJSONMembers(t *testing.T) {
	st := testStructured
	st.JSON = JSONMembers{Exclude: []string{"process", "log.logger"}, Rename: map[string]string{"log.level": "severity", "message": "msg"},
		Add: map[string]string{"corp.name": "acme"}, ContextPrefix: "ctx", StackTrace: StackTrace{RootFirst: true, MaxLength: 30}}
	lines, _, _ := logLines(t, FormatECS, st)
	wantFields(t, "ecs", lines[0], map[string]any{"log.severity": "INFO", "msg": "request", "corp.name": "acme",
		"ctx.traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "ctx.http.route": "/hello"})
	for _, gone := range []string{"process", "log.logger", "log.level", "message", "traceId"} {
		if at(lines[0], gone) != nil {
			t.Errorf("%s is still there: %v", gone, lines[0])
		}
	}
	if got := at(lines[1], "error.stack_trace"); got != "*errors.errorString: connectio" {
		t.Errorf("root first, cut at 30: %q", got)
	}

	st.JSON = JSONMembers{Include: []string{"log.level", "message", "error"}, OmitContext: true}
	lines, _, _ = logLines(t, FormatLogstash, st)
	if len(lines[0]) != 1 || lines[0]["message"] != "request" {
		t.Errorf("include log.level, message and error in a Logstash line: %v", lines[0])
	}
	lines, _, _ = logLines(t, FormatECS, st)
	if len(lines[0]) != 2 || at(lines[0], "log.level") != "INFO" || at(lines[0], "log.logger") != nil || len(lines[1]) != 3 || at(lines[1], "error.type") == nil {
		t.Errorf("include log.level, message and error in ECS lines: %v", lines)
	}
}

// TestTextAndJSONLines: the plain formats name the logger, write the
// error under its one key, durations in milliseconds under _ms, and the
// trace's ids.
func TestTextAndJSONLines(t *testing.T) {
	_, _, text := logLines2(t, FormatText)
	for _, want := range []string{`msg=request method=GET status=200 duration_ms=1.5 http.route=/hello ok=true trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7 logger=greeter.dispatch`,
		`level=ERROR msg="request failed" error="saving the message: connection refused" http.status=500 logger=greeter.dispatch`} {
		if !strings.Contains(text, want) {
			t.Errorf("text lines lack %q:\n%s", want, text)
		}
	}
	_, _, js := logLines2(t, FormatJSON)
	for _, want := range []string{`"msg":"request","method":"GET","status":200,"duration_ms":1.5,`, `"error":"saving the message: connection refused"`, `"logger":"greeter.dispatch"`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lines lack %q:\n%s", want, js)
		}
	}
}

// logLines2 is logLines for the plain formats, whose lines are not all
// JSON.
func logLines2(t *testing.T, format string) ([]map[string]any, [][]string, string) {
	t.Helper()
	var buf bytes.Buffer
	h, err := NewHandler(format, &buf, HandlerOptions{Trace: testTrace})
	if err != nil {
		t.Fatal(err)
	}
	log := NewRegistry(h, Info).Logger("greeter.dispatch")
	log.InfoContext(tracedCtx, "request", "method", "GET", "status", 200, slog.Duration("duration", 1500*time.Microsecond),
		slog.Group("http", "route", "/hello"), "ok", true)
	log.Error("request failed", ErrorKey, errWrapped, "http.status", 500)
	return nil, nil, buf.String()
}

// TestNewHandlerRefusesUnknownFormats names the formats it takes.
func TestNewHandlerRefusesUnknownFormats(t *testing.T) {
	if _, err := NewHandler("xml", &bytes.Buffer{}, HandlerOptions{}); err == nil || !strings.Contains(err.Error(), "ecs") {
		t.Errorf("NewHandler(xml): %v", err)
	}
}

// TestDisabledStructuredLineAllocatesNothing: a line below its logger's
// level costs nothing in a structured format either.
func TestDisabledStructuredLineAllocatesNothing(t *testing.T) {
	h, _ := NewHandler(FormatECS, &bytes.Buffer{}, HandlerOptions{Trace: testTrace})
	log := NewRegistry(h, Info).Logger("greeter.dispatch")
	ctx := context.Background()
	if allocs := testing.AllocsPerRun(1000, func() {
		log.LogAttrs(ctx, slog.LevelDebug, "request", slog.String("path", "/api/hello"), slog.Int("status", 404))
	}); allocs != 0 {
		t.Errorf("%v allocations per disabled line, want 0", allocs)
	}
}
