package logging

import (
	"strings"

	"github.com/springport/greeter/framework/config"
)

// Settings are logging.*: the format of the lines, and the levels of the
// loggers.
type Settings struct {
	Format     string           // "text" or "json"
	Root       Level            // logging.level.root
	Levels     map[string]Level // logging.level.<name>: a logger's or a group's
	Structured Structured       // logging.structured.*
	// FormatNotRead: logging.format is set, and
	// logging.structured.format.console too, which decides.
	FormatNotRead bool
}

// ConsoleFormat is the format of the console's lines: the structured
// format logging.structured.format.console names, which decides when it
// is set, as it is Spring's only key; else logging.format.
func (s Settings) ConsoleFormat() string {
	if s.Structured.Console != "" {
		return s.Structured.Console
	}
	return s.Format
}

// FileFormat is the format of the log file's lines (logging.file.*):
// the structured format logging.structured.format.file names, else
// logging.format's, as a service that writes JSON lines on stdout wants
// them in its file too.
func (s Settings) FileFormat() string {
	if s.Structured.File != "" {
		return s.Structured.File
	}
	return s.Format
}

// Bind reads logging.format and the levels through b. The environment
// sets a level only for a name in known (LOGGING_LEVEL_GREETER_DISPATCH),
// since a variable's name does not say where the dots were; files and
// arguments may name any logger, as in Spring.
func Bind(b *config.Binder, known []string) Settings {
	s := Settings{
		Format: config.Bind(b, "logging.format", "text", config.OneOf("text", "json"), "text or json log lines on stdout; logging.structured.format.console, when set, decides instead"),
		Root:   config.Bind(b, "logging.level.root", Info, ParseLevel, "level of every logger: TRACE, DEBUG, INFO, WARN, ERROR, OFF; --logging.level.<name> sets the logger <name> and those below it (<service>, <service>.dispatch, <service>.accesslog, ...; see /actuator/loggers) or a group (web, and the service's own)"),
	}
	s.Structured = bindStructured(b)
	s.FormatNotRead = s.Structured.Console != "" && b.IsSet("logging.format")
	s.Levels = config.BindPrefixed(b, "logging.level.", known, ParseLevel,
		func(name string) string { return "level of the logger or group " + name })
	for name, l := range s.Levels {
		if strings.EqualFold(name, Root) {
			// ROOT, as Spring users may write it (logging.level.root
			// itself is bound above).
			s.Root = l
			delete(s.Levels, name)
		}
	}
	return s
}
