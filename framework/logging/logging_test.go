package logging

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// newTestRegistry returns a registry writing text lines into buf, every
// level let through by the base handler.
func newTestRegistry(buf *bytes.Buffer) *Registry {
	h, err := NewHandler(FormatText, buf, HandlerOptions{})
	if err != nil {
		panic(err)
	}
	return NewRegistry(h, Info)
}

func effective(t *testing.T, r *Registry, name string) Level {
	t.Helper()
	l, ok := r.LookupLogger(name)
	if !ok {
		t.Fatalf("no logger %s", name)
	}
	return l.Effective
}

// TestHierarchy: a logger takes the level of its nearest ancestor that
// has one, ROOT at the top, and follows changes to it.
func TestHierarchy(t *testing.T) {
	r := newTestRegistry(&bytes.Buffer{})
	r.Logger("greeter.dispatch")
	r.Logger("greeter.postgres")
	if got := effective(t, r, "greeter.dispatch"); got != Info {
		t.Errorf("greeter.dispatch: %v, want INFO from ROOT", got)
	}
	r.Configure("greeter", Debug)
	if got := effective(t, r, "greeter.dispatch"); got != Debug {
		t.Errorf("greeter.dispatch: %v, want DEBUG from greeter", got)
	}
	warn := Warn
	if err := r.Set("greeter.postgres", &warn); err != nil {
		t.Fatal(err)
	}
	if got := effective(t, r, "greeter.postgres"); got != Warn {
		t.Errorf("greeter.postgres: %v, want its own WARN", got)
	}
	if err := r.Set("greeter", nil); err != nil {
		t.Fatal(err)
	}
	if got := effective(t, r, "greeter.dispatch"); got != Info {
		t.Errorf("greeter.dispatch after greeter's reset: %v, want INFO from ROOT", got)
	}
	if got := effective(t, r, "greeter.postgres"); got != Warn {
		t.Errorf("greeter.postgres after greeter's reset: %v, want its own WARN", got)
	}
	// A logger registered after its ancestor was set inherits at once.
	r.Configure("greeter", Error)
	r.Logger("greeter.redis.driver")
	if got := effective(t, r, "greeter.redis.driver"); got != Error {
		t.Errorf("greeter.redis.driver: %v, want ERROR from greeter", got)
	}
	// ROOT cannot inherit: a reset returns it to its start-up level.
	off := Off
	if err := r.Set("root", &off); err != nil {
		t.Fatal(err)
	}
	if got := effective(t, r, "greeter.dispatch"); got != Error {
		t.Errorf("greeter.dispatch: %v, want ERROR from greeter whatever ROOT is", got)
	}
	if err := r.Set("ROOT", nil); err != nil {
		t.Fatal(err)
	}
	if l, _ := r.LookupLogger("ROOT"); l.Configured == nil || *l.Configured != Info || l.Effective != Info {
		t.Errorf("ROOT after a reset: %+v, want INFO configured", l)
	}
	if err := r.Set("greeter.nothing", &off); err != ErrUnknown {
		t.Errorf("Set of an unknown logger: %v, want ErrUnknown", err)
	}
}

// TestListing: ROOT first, then the loggers by name, ancestors included.
func TestListing(t *testing.T) {
	r := newTestRegistry(&bytes.Buffer{})
	r.Logger("greeter.dispatch")
	r.Logger("greeter.accesslog")
	var names []string
	for _, l := range r.Loggers() {
		names = append(names, l.Name)
	}
	if got, want := strings.Join(names, " "), "ROOT greeter greeter.accesslog greeter.dispatch"; got != want {
		t.Errorf("loggers %q, want %q", got, want)
	}
}

// TestGroups: setting a group sets each of its loggers; resetting it
// resets them.
func TestGroups(t *testing.T) {
	r := newTestRegistry(&bytes.Buffer{})
	r.Group("web", "greeter.dispatch", "greeter.accesslog")
	r.Configure("web", Debug)
	if got := effective(t, r, "greeter.accesslog"); got != Debug {
		t.Errorf("greeter.accesslog: %v, want DEBUG from the web group", got)
	}
	g, ok := r.LookupGroup("web")
	if !ok || g.Configured == nil || *g.Configured != Debug || len(g.Members) != 2 {
		t.Errorf("web: %+v", g)
	}
	if err := r.Set("web", nil); err != nil {
		t.Fatal(err)
	}
	if l, _ := r.LookupLogger("greeter.dispatch"); l.Configured != nil || l.Effective != Info {
		t.Errorf("greeter.dispatch after the group's reset: %+v, want INFO inherited", l)
	}
}

// TestHandler: lines below the logger's level are dropped, changes apply
// to the next line, attributes and groups keep the logger's level, and
// OFF writes nothing.
func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	r := newTestRegistry(&buf)
	log := r.Logger("greeter.dispatch").With("k", "v").WithGroup("g")
	log.Debug("hidden")
	log.Log(context.Background(), slog.Level(Trace), "hidden too")
	log.Info("shown")
	trace := Trace
	r.Set("greeter.dispatch", &trace)
	log.Log(context.Background(), slog.Level(Trace), "traced")
	off := Off
	r.Set("greeter", &off)
	r.Set("greeter.dispatch", nil)
	log.Error("silenced")
	got := buf.String()
	for _, want := range []string{"msg=shown k=v logger=greeter.dispatch", "level=TRACE msg=traced k=v logger=greeter.dispatch"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"hidden", "silenced"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("log has %q:\n%s", unwanted, got)
		}
	}
}

// TestDisabledAllocatesNothing: a line below the level costs no
// allocation, as the dispatcher's per-request checks require.
func TestDisabledAllocatesNothing(t *testing.T) {
	r := newTestRegistry(&bytes.Buffer{})
	log := r.Logger("greeter.dispatch")
	ctx := context.Background()
	allocs := testing.AllocsPerRun(1000, func() {
		if log.Enabled(ctx, slog.LevelDebug) {
			t.Fatal("DEBUG enabled at INFO")
		}
		log.LogAttrs(ctx, slog.LevelDebug, "request", slog.String("path", "/api/hello"), slog.Int("status", 404))
	})
	if allocs != 0 {
		t.Errorf("%v allocations per disabled line, want 0", allocs)
	}
}

// TestParseLevel: Spring's names in any case, FATAL as ERROR, YAML's
// false as OFF.
func TestParseLevel(t *testing.T) {
	for in, want := range map[string]Level{"trace": Trace, " Debug ": Debug, "INFO": Info, "warn": Warn, "error": Error, "FATAL": Error, "off": Off, "false": Off} {
		if got, err := ParseLevel(in); err != nil || got != want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "VERBOSE", "WARNING"} {
		if _, err := ParseLevel(in); err == nil {
			t.Errorf("ParseLevel(%q) succeeded", in)
		}
	}
	if got := strings.Join(Levels(), ","); got != "OFF,ERROR,WARN,INFO,DEBUG,TRACE" {
		t.Errorf("Levels() = %s", got)
	}
}
