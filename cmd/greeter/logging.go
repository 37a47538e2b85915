package main

import (
	"context"
	"io"
	"log/slog"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
)

// newLogger logs to w as text or, for log collectors, as JSON lines
// (logging.format). It lets every level through: the named loggers over
// it decide what each writes (see loggers.go).
func newLogger(format string, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: logging.Trace}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// accessLog returns an observer that logs one line per request.
func accessLog(logger *slog.Logger) func(dispatch.Observation) {
	return func(o dispatch.Observation) {
		logger.LogAttrs(context.Background(), slog.LevelInfo, "request",
			slog.String("method", o.Method), slog.String("path", o.Path), slog.String("route", o.Route),
			slog.Int("status", o.Status), slog.Int64("bytes", o.Bytes),
			slog.Duration("duration", o.Duration), slog.String("request_id", o.RequestID))
	}
}
