package logging

import (
	"log/slog"
	"sync/atomic"
)

// EventCounts are the records a registry's loggers let through, by
// level, since the registry was made: what Micrometer's LogbackMetrics
// counts (logback.events, tagged level) for a Spring service. As there, a
// record counts when its logger's level lets it through, whatever the
// handler below then does with it; a level between two of Spring's
// (slog's INFO+2) counts with the one below it, as its line names it.
type EventCounts struct {
	Trace, Debug, Info, Warn, Error uint64
}

// events counts a registry's records. One per registry, shared by its
// loggers: a record costs one atomic add, no lock and no allocation.
type events struct {
	trace, debug, info, warn, error atomic.Uint64
}

// add counts a record of level l.
func (e *events) add(l slog.Level) {
	switch {
	case l >= slog.Level(Error):
		e.error.Add(1)
	case l >= slog.Level(Warn):
		e.warn.Add(1)
	case l >= slog.Level(Info):
		e.info.Add(1)
	case l >= slog.Level(Debug):
		e.debug.Add(1)
	default:
		e.trace.Add(1)
	}
}

// Events returns the records the registry's loggers have let through so
// far, by level.
func (r *Registry) Events() EventCounts {
	e := r.events
	return EventCounts{Trace: e.trace.Load(), Debug: e.debug.Load(), Info: e.info.Load(), Warn: e.warn.Load(), Error: e.error.Load()}
}
