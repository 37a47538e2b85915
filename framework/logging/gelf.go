package logging

import (
	"log/slog"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// syslogSeverity is a level's GELF level: its syslog severity, as
// Logback's LevelToSyslogSeverity gives it.
func syslogSeverity(l slog.Level) int {
	switch levelName(l) {
	case "ERROR":
		return 3
	case "WARN":
		return 4
	case "INFO":
		return 6
	}
	return 7 // DEBUG and TRACE
}

// gelfFieldName is what GELF allows in a field's name.
var gelfFieldName = regexp.MustCompile(`^[\w.\-]*$`)

// gelfAdditional returns the name of an additional field, "_" put before
// it, and false for a name GELF does not allow (a character other than a
// letter, a digit, _, - or .; or id, which Graylog drops), which Spring
// leaves out too.
func gelfAdditional(name string) (string, bool) {
	if name == "" || !gelfFieldName.MatchString(name) || name == "id" || name == "_id" {
		return "", false
	}
	if !strings.HasPrefix(name, "_") {
		name = "_" + name
	}
	return name, name != "_id"
}

// buildGELF lays out a GELF 1.1 line as Spring Boot's
// GraylogExtendedLogFormatStructuredLogFormatter does, in its order:
// version, short_message ("(blank)" for none: Graylog 6 refuses an empty
// one), timestamp (seconds, to the millisecond), level (syslog's),
// _level_name, _process_pid, _process_thread_name, host,
// _service_version, _log_logger, the context (_traceId, _spanId, the
// attributes: strings or numbers, a group's name joined to its
// attributes' with dots), and for an error full_message, _error_type,
// _error_stack_trace, _error_message; then logging.structured.json.add's
// fields, "_" put before their names as GELF asks (Spring writes them as
// named).
func buildGELF(f *structuredFormat, l *line, root *field) {
	root.set("version", slog.StringValue("1.1"))
	msg := l.msg
	if strings.TrimSpace(msg) == "" {
		msg = "(blank)"
	}
	root.set("short_message", slog.StringValue(msg))
	ms := l.time.UnixMilli()
	root.kids = append(root.kids, field{name: "timestamp", raw: strconv.FormatInt(ms/1000, 10) + "." + threeDigits(ms%1000)})
	root.set("level", slog.IntValue(syslogSeverity(l.level)))
	root.set("_level_name", slog.StringValue(levelName(l.level)))
	root.set("_process_pid", slog.IntValue(f.pid))
	root.set("_process_thread_name", slog.StringValue(threadName))
	root.setString("host", f.s.GELF.Host)
	root.setString("_service_version", f.s.GELF.Version)
	root.setString("_log_logger", l.logger)
	prefix := f.s.JSON.ContextPrefix
	for _, p := range l.pairs {
		if name, ok := gelfAdditional(prefix + strings.Join(p.path, ".")); ok {
			root.set(name, p.value)
		}
	}
	if l.hasErr {
		typ, msg, trace := f.errorParts(l)
		root.set("full_message", slog.StringValue(l.msg+"\n\n"+trace))
		root.setString("_error_type", typ)
		root.set("_error_stack_trace", slog.StringValue(trace))
		root.set("_error_message", slog.StringValue(msg))
	}
	for _, name := range sortedKeys(f.s.JSON.Add) {
		if field, ok := gelfAdditional(name); ok {
			root.set(field, slog.StringValue(f.s.JSON.Add[name]))
		}
	}
}

// threeDigits writes n, below 1000, in three digits.
func threeDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	return strings.Repeat("0", 3-len(s)) + s
}

// sortedKeys are m's keys in order, so that added fields keep their
// places from line to line.
func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
