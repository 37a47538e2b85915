package logging

import (
	"log/slog"
	"strings"
)

// levelValue is a level's number in Logback, which logstash-logback-
// encoder writes as level_value.
func levelValue(l slog.Level) int {
	switch levelName(l) {
	case "ERROR":
		return 40000
	case "WARN":
		return 30000
	case "INFO":
		return 20000
	case "DEBUG":
		return 10000
	}
	return 5000
}

// buildLogstash lays out a line with logstash-logback-encoder's default
// field names, as Spring Boot's LogstashStructuredLogFormatter does, in
// its order: @timestamp (the local time with its offset), @version,
// message, logger_name, thread_name, level, level_value, the context
// (traceId, spanId, the attributes; flat, a group's name joined to its
// attributes' with dots), stack_trace, then
// logging.structured.json.add's fields.
func buildLogstash(f *structuredFormat, l *line, root *field) {
	ts := l.time.Local().AppendFormat(l.buf[len(l.buf):], "2006-01-02T15:04:05.999999999Z07:00")
	root.set("@timestamp", slog.StringValue(string(ts)))
	root.set("@version", slog.StringValue("1"))
	root.set("message", slog.StringValue(l.msg))
	root.setString("logger_name", l.logger)
	root.set("thread_name", slog.StringValue(threadName))
	root.set("level", slog.StringValue(levelName(l.level)))
	root.set("level_value", slog.IntValue(levelValue(l.level)))
	prefix := f.s.JSON.ContextPrefix
	for _, p := range l.pairs {
		root.set(joinName(prefix, strings.Join(p.path, "."), "_"), p.value)
	}
	if l.hasErr {
		_, _, trace := f.errorParts(l)
		root.set("stack_trace", slog.StringValue(trace))
	}
	for _, name := range sortedKeys(f.s.JSON.Add) {
		root.set(name, slog.StringValue(f.s.JSON.Add[name]))
	}
}
