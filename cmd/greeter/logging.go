package main

import (
	"io"
	"log/slog"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/tracing"
)

// newLogger logs to w as text or, for log collectors, as JSON lines
// (logging.format). It lets every level through: the named loggers over
// it decide what each writes (see loggers.go). A line about a request
// that is in a trace carries its trace_id and span_id.
func newLogger(format string, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: logging.Trace}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(tracing.LogHandler(h))
}

// accessLog returns an observer that logs one line per request.
func accessLog(logger *slog.Logger) func(dispatch.Observation) {
	return func(o dispatch.Observation) {
		logger.LogAttrs(o.Context(), slog.LevelInfo, "request",
			slog.String("method", o.Method), slog.String("path", o.Path()), slog.String("route", o.Route),
			slog.Int("status", o.Status), slog.Int64("bytes", o.Bytes),
			slog.Duration("duration", o.Duration), slog.String("request_id", o.RequestID))
	}
}
