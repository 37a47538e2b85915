package logging

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
)

// The formats NewHandler writes: slog's text and JSON lines, and the
// structured formats Spring Boot writes since 3.4.
const (
	FormatText = "text"
	FormatJSON = "json"
)

// Formats are the names NewHandler takes.
var Formats = []string{FormatText, FormatJSON, FormatECS, FormatLogstash, FormatGELF}

// The keys every format gives the same meaning.
const (
	// LoggerKey names, in text and JSON lines, the logger that wrote the
	// line (greeter.dispatch); the structured formats have names of their
	// own for it (log.logger, logger_name, _log_logger).
	LoggerKey = "logger"
	// ErrorKey is the key of the error a line is about, and the only one:
	// logger.Error("...", logging.ErrorKey, err). The structured formats
	// write it as Spring writes an exception (error.*, stack_trace,
	// _error_*).
	ErrorKey = "error"
	// DurationSuffix is added to the key of a duration, which every format
	// writes as a number of milliseconds, to the microsecond
	// (duration_ms=1.234): a number a log pipeline can sum, with its unit
	// in its name.
	DurationSuffix = "_ms"
)

// HandlerOptions configure NewHandler.
type HandlerOptions struct {
	// Level is the lowest level written; nil writes every level, for a
	// Registry whose loggers decide.
	Level slog.Leveler
	// Trace, when set, gives the trace and span ids of a line's context,
	// ok false when it is in no trace: text and JSON lines carry them as
	// trace_id and span_id, the structured formats where Spring puts its
	// MDC's traceId and spanId.
	Trace func(ctx context.Context) (traceID, spanID string, ok bool)
	// Structured are the structured formats' settings (service, host,
	// fields); text and JSON lines ignore them.
	Structured Structured
}

// NewHandler returns the handler that writes lines to w in format: text
// or json (slog's own lines), or ecs, logstash or gelf (as Spring Boot
// writes them). w may be any writer: the console, a log file. A Registry
// over it puts each logger's name on its lines.
func NewHandler(format string, w io.Writer, opts HandlerOptions) (slog.Handler, error) {
	level := opts.Level
	if level == nil {
		level = Trace
	}
	switch format {
	case FormatText, FormatJSON:
		o := &slog.HandlerOptions{Level: level, ReplaceAttr: replaceAttr}
		var h slog.Handler = slog.NewTextHandler(w, o)
		if format == FormatJSON {
			h = slog.NewJSONHandler(w, o)
		}
		return plainHandler{next: h, trace: opts.Trace}, nil
	case FormatECS, FormatLogstash, FormatGELF:
		return newStructuredHandler(format, w, level, opts), nil
	}
	return nil, fmt.Errorf("logging: no format %q: want one of %v", format, Formats)
}

// namedHandler is a handler that writes its logger's name in a place of
// its own; Registry.Handler gives the others the name as an attribute.
type namedHandler interface {
	withLogger(name string) slog.Handler
}

// withLoggerName returns h writing the name of the logger name.
func withLoggerName(h slog.Handler, name string) slog.Handler {
	if n, ok := h.(namedHandler); ok {
		return n.withLogger(name)
	}
	return h.WithAttrs([]slog.Attr{slog.String(LoggerKey, name)})
}

// msKeys caches key+DurationSuffix by key, so that a duration on a
// request's line (the access log's) costs no allocation once its key has
// been seen: the keys are the code's, a few.
var msKeys sync.Map

// replaceAttr is the text and JSON lines' slog ReplaceAttr: a duration
// is written as a number of milliseconds under its key with
// DurationSuffix, and a level below DEBUG as TRACE (slog's DEBUG-4).
func replaceAttr(groups []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindDuration:
		return slog.Float64(msKey(a.Key), milliseconds(a.Value.Duration()))
	case slog.KindAny:
		if l, ok := a.Value.Any().(slog.Level); ok && len(groups) == 0 && a.Key == slog.LevelKey && l < slog.LevelDebug {
			return slog.String(slog.LevelKey, "TRACE")
		}
	}
	return a
}

func msKey(key string) string {
	if k, ok := msKeys.Load(key); ok {
		return k.(string)
	}
	k := key + DurationSuffix
	msKeys.Store(key, k)
	return k
}

// plainHandler is slog's text or JSON handler, given the logger's name
// and the trace's ids.
type plainHandler struct {
	next  slog.Handler
	trace func(context.Context) (string, string, bool)
	// logger is the logger's name, written last on the line, after the
	// attributes, so that a line reads as it did before it was there:
	// msg, then what the code logged. Empty once WithGroup has put it
	// before the group's attributes instead.
	logger string
}

func (h plainHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h plainHandler) Handle(ctx context.Context, r slog.Record) error {
	if h.trace != nil {
		if traceID, spanID, ok := h.trace(ctx); ok {
			r.AddAttrs(slog.String("trace_id", traceID), slog.String("span_id", spanID))
		}
	}
	if h.logger != "" {
		r.AddAttrs(slog.String(LoggerKey, h.logger))
	}
	return h.next.Handle(ctx, r)
}

func (h plainHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h.next = h.next.WithAttrs(attrs)
	return h
}

// WithGroup puts the logger's name before the group, which would hold
// it if it came last.
func (h plainHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	if h.logger != "" {
		h.next, h.logger = h.next.WithAttrs([]slog.Attr{slog.String(LoggerKey, h.logger)}), ""
	}
	h.next = h.next.WithGroup(name)
	return h
}

func (h plainHandler) withLogger(name string) slog.Handler {
	h.logger = name
	return h
}
