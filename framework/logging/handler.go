package logging

import (
	"context"
	"log/slog"
)

// handler passes to next the records its logger's level lets through.
type handler struct {
	next slog.Handler
	node *node
}

// Enabled is the hot path: slog asks it before building a record, on
// every line a request may log, so it reads one atomic word.
func (h *handler) Enabled(ctx context.Context, l slog.Level) bool {
	t := h.node.threshold.Load()
	return Level(t) != Off && int64(l) >= t && h.next.Enabled(ctx, l)
}

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	h.node.events.add(r.Level) // events.go
	return h.next.Handle(ctx, r)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &handler{next: h.next.WithAttrs(attrs), node: h.node}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name), node: h.node}
}
