package logging

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
)

// TestEventsCountWhatLevelsLetThrough: every record a logger's level lets
// through counts once under its level, as Logback's turbo filter counts
// them for Micrometer; a record below its logger's level, or a mere
// Enabled question, does not; slog's levels between Spring's count with
// the one below; the loggers of a registry share its counts.
func TestEventsCountWhatLevelsLetThrough(t *testing.T) {
	r := newTestRegistry(&bytes.Buffer{})
	r.Configure("svc.quiet", Warn)
	r.Configure("svc.loud", Trace)
	quiet, loud := r.Logger("svc.quiet"), r.Logger("svc.loud")
	ctx := context.Background()

	quiet.Info("dropped")
	quiet.Debug("dropped")
	quiet.Warn("counted")
	quiet.Error("counted")
	quiet.With("k", "v").WithGroup("g").Error("counted, through WithAttrs and WithGroup")
	loud.Log(ctx, slog.Level(Trace), "counted")
	loud.Log(ctx, slog.Level(Trace)+2, "a trace+2, counted as trace")
	loud.Debug("counted")
	loud.Info("counted")
	loud.Log(ctx, slog.LevelInfo+2, "an info+2, counted as info")
	loud.Enabled(ctx, slog.LevelError) // a question, not a record
	r.Logger("svc.other").Info("counted: a third logger of the same registry")

	want := EventCounts{Trace: 2, Debug: 1, Info: 3, Warn: 1, Error: 2}
	if got := r.Events(); got != want {
		t.Errorf("Events() = %+v, want %+v", got, want)
	}
	if got := NewRegistry(slog.DiscardHandler, Info).Events(); got != (EventCounts{}) {
		t.Errorf("a new registry's Events() = %+v, want none: each registry counts its own", got)
	}
}

// takeAll takes every record and writes nothing: unlike
// slog.DiscardHandler, it is enabled, so that the loggers over it pass
// their records on.
type takeAll struct{}

func (takeAll) Enabled(context.Context, slog.Level) bool  { return true }
func (takeAll) Handle(context.Context, slog.Record) error { return nil }
func (h takeAll) WithAttrs([]slog.Attr) slog.Handler      { return h }
func (h takeAll) WithGroup(string) slog.Handler           { return h }

// TestCountingAllocatesNothing: counting a record adds no allocation to
// a line that a handler writing nothing does not allocate for.
func TestCountingAllocatesNothing(t *testing.T) {
	r := NewRegistry(takeAll{}, Info)
	logger := r.Logger("svc")
	if n := testing.AllocsPerRun(100, func() { logger.Info("counted") }); n != 0 {
		t.Errorf("a counted line allocates %v times, want 0", n)
	}
	if got := r.Events().Info; got < 100 {
		t.Errorf("Events().Info = %d after 100 lines and more", got)
	}
}
