package logging

import (
	"fmt"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// Structured are logging.structured.*: the structured format of the
// console and of the log file, and what Spring Boot's structured logging
// lets an operator change in their lines.
type Structured struct {
	Console string // logging.structured.format.console: "", ecs, logstash or gelf
	File    string // logging.structured.format.file: the same, for the log file
	ECS     ECSService
	GELF    GELFService
	JSON    JSONMembers
}

// ECSService is logging.structured.ecs.service.*: the ECS lines' service
// object. Name and Version, unset, are filled in by the caller (boot: the
// application's name and version).
type ECSService struct {
	Name, Version, Environment, NodeName string
}

// GELFService is logging.structured.gelf.*: the GELF lines' host and
// _service_version, filled in by the caller when unset as ECSService is.
type GELFService struct {
	Host, Version string
}

// JSONMembers are logging.structured.json.*: the fields of the structured
// formats' lines, as Spring's StructuredLoggingJsonProperties change them.
// Paths are a field's names from the line's root joined by dots
// (log.level in ECS, whose objects are nested; _log_logger in GELF).
type JSONMembers struct {
	// Include, when not empty, keeps only the fields at these paths,
	// with what is under them and the objects that hold them.
	Include []string
	// Exclude drops the fields at these paths and what is under them.
	Exclude []string
	// Rename gives the field at a path a new name, in its place.
	Rename map[string]string
	// Add writes these fields, with these string values, on every line.
	Add map[string]string
	// OmitContext leaves out the context of a line (its attributes, and
	// the trace and span ids, which Spring takes from the MDC), as
	// logging.structured.json.context.include=false does.
	OmitContext bool
	// ContextPrefix is put before the name of each of them.
	ContextPrefix string
	// StackTrace says how an error's stack_trace is written.
	StackTrace StackTrace
}

// StackTrace is logging.structured.json.stacktrace.*. A Go error has no
// frames, so its "stack trace" is its chain of wrapped errors, each a
// line, as Java's causes are.
type StackTrace struct {
	RootFirst bool // root=first: the innermost error first, "Wrapped by:" the others
	MaxLength int  // max-length: the text is cut there; 0: whole
	MaxDepth  int  // max-throwable-depth: how many errors of the chain; 0: all
}

// The structured formats, as Spring Boot names them.
const (
	FormatECS      = "ecs"
	FormatLogstash = "logstash"
	FormatGELF     = "gelf"
)

// parseStructuredFormat reads logging.structured.format.*: one of Spring's
// common formats, in any case. Spring also takes the name of a Java class
// that formats the lines; there is none to load here.
func parseStructuredFormat(s string) (string, error) {
	switch f := strings.ToLower(strings.TrimSpace(s)); f {
	case "", FormatECS, FormatLogstash, FormatGELF:
		return f, nil
	}
	if strings.Contains(s, ".") {
		return "", fmt.Errorf("want ecs, logstash or gelf: a formatter class (%s) is Java, and cannot be loaded here", s)
	}
	return "", fmt.Errorf("want ecs, logstash or gelf")
}

// stackTracePrinter reads logging.structured.json.stacktrace.printer:
// Spring's two printers, which write an error the same way here, or the
// name of a Java class, which cannot be loaded.
func stackTracePrinter(s string) (string, error) {
	switch p := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", ""); p {
	case "", "standard", "loggingsystem":
		return p, nil
	}
	return "", fmt.Errorf("want standard or logging-system: a StackTracePrinter class (%s) is Java, and cannot be loaded here", s)
}

// refuseCustomizer refuses logging.structured.json.customizer, which
// names Java classes that change the fields.
func refuseCustomizer(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	return "", fmt.Errorf("a StructuredLoggingJsonMembersCustomizer (%s) is a Java class, and cannot be loaded here: logging.structured.json.include, exclude, rename and add change the fields", s)
}

// bindStructured reads logging.structured.*.
func bindStructured(b *config.Binder) Structured {
	const json = "logging.structured.json."
	s := Structured{
		Console: config.Bind(b, "logging.structured.format.console", "", parseStructuredFormat, "the console's lines in a structured format: ecs (Elastic Common Schema), logstash or gelf (Graylog Extended Log Format 1.1), as Spring Boot writes them; unset, logging.format says"),
		File:    config.Bind(b, "logging.structured.format.file", "", parseStructuredFormat, "the log file's lines in a structured format: ecs, logstash or gelf; unset, as logging.format"),
		ECS: ECSService{
			Name:        config.Bind(b, "logging.structured.ecs.service.name", "", config.String, "the ECS lines' service.name; unset, app.application.name, else the service's name"),
			Version:     config.Bind(b, "logging.structured.ecs.service.version", "", config.String, "the ECS lines' service.version; unset, the service's module version"),
			Environment: config.Bind(b, "logging.structured.ecs.service.environment", "", config.String, "the ECS lines' service.environment; unset, none"),
			NodeName:    config.Bind(b, "logging.structured.ecs.service.node-name", "", config.String, "the ECS lines' service.node.name; unset, none"),
		},
		GELF: GELFService{
			Host:    config.Bind(b, "logging.structured.gelf.host", "", config.String, "the GELF lines' host; unset, app.application.name, else the service's name"),
			Version: config.Bind(b, "logging.structured.gelf.service.version", "", config.String, "the GELF lines' _service_version; unset, the service's module version"),
		},
		JSON: JSONMembers{
			Include:       config.Bind(b, json+"include", []string(nil), config.List, "the paths of the only fields the structured lines keep (log.level, message, ...), with what is under them; unset, all"),
			Exclude:       config.Bind(b, json+"exclude", []string(nil), config.List, "the paths of the fields the structured lines leave out, with what is under them"),
			OmitContext:   !config.Bind(b, json+"context.include", true, config.Bool, "false: the structured lines leave out a line's attributes and its traceId and spanId"),
			ContextPrefix: config.Bind(b, json+"context.prefix", "", config.String, "put before the name of each of a structured line's attributes, traceId and spanId"),
		},
	}
	s.JSON.Rename = config.BindPrefixed(b, json+"rename.", nil, config.String, nil)
	b.Describe(json+"rename.<path>", "the new name of the structured lines' field at <path> (log.level, say), in its place")
	s.JSON.Add = config.BindPrefixed(b, json+"add.", nil, config.String, nil)
	b.Describe(json+"add.<name>", "a field <name> with this value on every structured line (nested at its dots in ECS)")
	st := &s.JSON.StackTrace
	config.Bind(b, json+"stacktrace.printer", "", stackTracePrinter, "standard or logging-system: both write an error's chain of wrapped errors, one a line; a class name is refused")
	st.RootFirst = config.Bind(b, json+"stacktrace.root", "last", config.OneOf("last", "first"), "last: the error logged first and what it wraps after (Caused by:); first: the innermost error first (Wrapped by:)") == "first"
	st.MaxLength = config.Bind(b, json+"stacktrace.max-length", 0, config.IntIn(0, 1<<30), "the longest stack_trace written, in characters; 0: whole")
	st.MaxDepth = config.Bind(b, json+"stacktrace.max-throwable-depth", 0, config.IntIn(0, 1<<20), "how many errors of a wrapped chain the stack_trace writes; 0: all")
	config.Bind(b, json+"customizer", "", refuseCustomizer, "refused: a customizer is a Java class; include, exclude, rename and add change the fields")
	return s
}

// WithService fills in what Spring takes from spring.application.name and
// .version: the ECS service's name and version and the GELF host and
// _service_version, where their settings leave them unset. A version of
// "(devel)" is none: no version is written, as Spring writes none.
func (s Structured) WithService(name, version string) Structured {
	if version == "(devel)" {
		version = ""
	}
	for _, f := range []struct {
		field *string
		def   string
	}{{&s.ECS.Name, name}, {&s.ECS.Version, version}, {&s.GELF.Host, name}, {&s.GELF.Version, version}} {
		if *f.field == "" {
			*f.field = f.def
		}
	}
	return s
}

// FailureFormat is the format a failed start-up's report is logged in as
// a record too, as far as setting, which looks a key up in what was
// given, can tell: the structured console format, or json; "" for text,
// whose report is on stderr alone.
func FailureFormat(setting func(key string) string) string {
	switch f := strings.ToLower(setting("logging.structured.format.console")); f {
	case FormatECS, FormatLogstash, FormatGELF:
		return f
	}
	if strings.EqualFold(setting("logging.format"), FormatJSON) {
		return FormatJSON
	}
	return ""
}
