package logging

import (
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// ecsVersion is the version of the Elastic Common Schema the lines
// follow, as Spring Boot writes it.
const ecsVersion = "8.11"

// buildECS lays out an Elastic Common Schema line as Spring Boot's
// ElasticCommonSchemaStructuredLogFormatter does since 3.5: nested
// objects, not dotted names, in its order: @timestamp, log (level,
// logger), process (pid, thread.name), service (name, version,
// environment, node.name), message, the context (traceId, spanId, the
// attributes; nested at their dots and groups), error (type, message,
// stack_trace), ecs.version, then logging.structured.json.add's fields.
func buildECS(f *structuredFormat, l *line, root *field) {
	root.set("@timestamp", slog.StringValue(string(appendInstant(l.buf[len(l.buf):], l.time))))
	log := root.object("log")
	log.setString("level", levelName(l.level))
	log.setString("logger", l.logger)
	process := root.object("process")
	process.set("pid", slog.IntValue(f.pid))
	process.object("thread").setString("name", threadName)
	svc, service := f.s.ECS, root.object("service")
	service.setString("name", svc.Name)
	service.setString("version", svc.Version)
	service.setString("environment", svc.Environment)
	service.object("node").setString("name", svc.NodeName)
	root.set("message", slog.StringValue(l.msg))
	prefix := f.s.JSON.ContextPrefix
	for _, p := range l.pairs {
		root.put(strings.Split(joinName(prefix, strings.Join(p.path, "."), "."), "."), p.value)
	}
	if l.hasErr {
		typ, msg, trace := f.errorParts(l)
		e := root.object("error")
		if e != nil {
			e.setString("type", typ)
			e.set("message", slog.StringValue(msg))
			e.setString("stack_trace", trace)
		}
	}
	root.object("ecs").set("version", slog.StringValue(ecsVersion))
	for _, name := range sortedKeys(f.s.JSON.Add) {
		root.put(strings.Split(name, "."), slog.StringValue(f.s.JSON.Add[name]))
	}
}

// joinName joins a context prefix and a name with delimiter, as Spring's
// ContextPairs does: not twice, and not at all without a prefix.
func joinName(prefix, name, delimiter string) string {
	if prefix == "" || strings.HasSuffix(prefix, delimiter) || strings.HasPrefix(name, delimiter) {
		return prefix + name
	}
	return prefix + delimiter + name
}

// appendInstant writes t in UTC as Java's Instant.toString does, which
// Spring's ECS lines carry: the fraction of a second in groups of three
// digits, none when it is whole.
func appendInstant(b []byte, t time.Time) []byte {
	t = t.UTC()
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	ns := t.Nanosecond()
	digits := 9
	switch {
	case ns == 0:
		digits = 0
	case ns%1e6 == 0:
		ns, digits = ns/1e6, 3
	case ns%1e3 == 0:
		ns, digits = ns/1e3, 6
	}
	if digits > 0 {
		b = append(b, '.')
		s := strconv.Itoa(ns)
		for range digits - len(s) {
			b = append(b, '0')
		}
		b = append(b, s...)
	}
	return append(b, 'Z')
}
