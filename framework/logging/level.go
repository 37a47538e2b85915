package logging

import (
	"errors"
	"log/slog"
	"math"
	"strings"
)

// Level is a logger's threshold as Spring names it. Its value is the
// lowest slog.Level a logger at this level writes, so TRACE lies below
// slog.LevelDebug, where slog has no name for it.
type Level int64

// The levels, most verbose first.
const (
	Trace Level = Level(slog.LevelDebug - 4)
	Debug Level = Level(slog.LevelDebug)
	Info  Level = Level(slog.LevelInfo)
	Warn  Level = Level(slog.LevelWarn)
	Error Level = Level(slog.LevelError)
	// Off writes nothing: no record is logged at a level this high.
	Off Level = math.MaxInt64
)

// levels are the levels as Spring's endpoint lists them for Logback: the
// quietest first.
var levels = []Level{Off, Error, Warn, Info, Debug, Trace}

// Levels returns the names of the levels a logger can be set to, in the
// order Spring's /actuator/loggers lists them.
func Levels() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.String()
	}
	return names
}

// Level returns the lowest slog.Level the level lets through, so that a
// handler's options can take it (slog.HandlerOptions.Level).
func (l Level) Level() slog.Level { return slog.Level(l) }

// String returns the level's Spring name.
func (l Level) String() string {
	switch l {
	case Trace:
		return "TRACE"
	case Debug:
		return "DEBUG"
	case Info:
		return "INFO"
	case Warn:
		return "WARN"
	case Error:
		return "ERROR"
	case Off:
		return "OFF"
	}
	return slog.Level(l).String()
}

// errLevel says what ParseLevel takes.
var errLevel = errors.New("want one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL, OFF")

// ParseLevel reads a level as Spring does, in any case: one of the names
// Levels returns, FATAL (which Logback has not, and writes as ERROR), or
// false, which is what YAML makes of an unquoted OFF.
func ParseLevel(s string) (Level, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "TRACE":
		return Trace, nil
	case "DEBUG":
		return Debug, nil
	case "INFO":
		return Info, nil
	case "WARN":
		return Warn, nil
	case "ERROR", "FATAL":
		return Error, nil
	case "OFF", "FALSE":
		return Off, nil
	}
	return 0, errLevel
}
