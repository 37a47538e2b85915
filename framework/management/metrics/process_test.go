package metrics

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// gathered returns the registry's families by name.
func gathered(t *testing.T, m *HTTP) map[string]*dto.MetricFamily {
	t.Helper()
	families, err := m.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range families {
		out[f.GetName()] = f
	}
	return out
}

// gaugeOf is the value of a family of one gauge, which carries the
// common tag application=svc and no other label.
func gaugeOf(t *testing.T, families map[string]*dto.MetricFamily, name string) float64 {
	t.Helper()
	f := families[name]
	if f == nil {
		t.Fatalf("the scrape has no %s", name)
	}
	if f.GetType() != dto.MetricType_GAUGE || len(f.Metric) != 1 {
		t.Fatalf("%s is a %v of %d series, want one gauge", name, f.GetType(), len(f.Metric))
	}
	labels := f.Metric[0].GetLabel()
	if len(labels) != 1 || labels[0].GetName() != "application" || labels[0].GetValue() != "svc" {
		t.Errorf("%s is labelled %v, want the common tag application=svc alone", name, labels)
	}
	return f.Metric[0].GetGauge().GetValue()
}

// TestProcessMeters: Micrometer's process and system meters are gauges
// under its names and help texts, with the common tags, beside
// client_golang's process collector; their values mean what Micrometer's
// do.
func TestProcessMeters(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPU usage, the load and the files are read on Linux only")
	}
	m := mustNew(t, Options{CommonTags: map[string]string{"application": "svc"}})
	families := gathered(t, m)
	for name, help := range map[string]string{
		"process_uptime_seconds":   "The uptime of the Go process",
		"process_cpu_usage":        `The "recent cpu usage" for the Go process`,
		"system_cpu_usage":         `The "recent cpu usage" of the system the application is running in`,
		"system_cpu_count":         "The number of processors available to the Go runtime (GOMAXPROCS)",
		"system_load_average_1m":   "The sum of the number of runnable entities queued to available processors and the number of runnable entities running on the available processors averaged over a period of time",
		"process_files_open_files": "The open file descriptor count",
		"process_files_max_files":  "The maximum file descriptor count",
	} {
		if got := families[name].GetHelp(); got != help {
			t.Errorf("%s's help is %q, want %q", name, got, help)
		}
	}
	if uptime := gaugeOf(t, families, "process_uptime_seconds"); uptime <= 0 || uptime > time.Since(started).Seconds() {
		t.Errorf("process_uptime_seconds = %v, want the time since the package's variables were set", uptime)
	}
	if got := gaugeOf(t, families, "system_cpu_count"); got != float64(runtime.GOMAXPROCS(0)) {
		t.Errorf("system_cpu_count = %v, want GOMAXPROCS, %d", got, runtime.GOMAXPROCS(0))
	}
	for _, name := range []string{"process_cpu_usage", "system_cpu_usage"} {
		if v := gaugeOf(t, families, name); v < 0 || v > 1 {
			t.Errorf("%s = %v, want a fraction in [0, 1]", name, v)
		}
	}
	if load := gaugeOf(t, families, "system_load_average_1m"); load < 0 {
		t.Errorf("system_load_average_1m = %v on Linux, which has /proc/loadavg", load)
	}
	var limit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		t.Fatal(err)
	}
	if got := gaugeOf(t, families, "process_files_max_files"); got != float64(limit.Cur) {
		t.Errorf("process_files_max_files = %v, want RLIMIT_NOFILE's %d", got, limit.Cur)
	}
	open := gaugeOf(t, families, "process_files_open_files")
	const n = 25
	for range n {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
	}
	// The registry gathers its collectors at once, and client_golang's
	// may hold a file of /proc open while this one counts.
	if got := gaugeOf(t, gathered(t, m), "process_files_open_files"); got < open+n-2 || got > open+n+2 {
		t.Errorf("process_files_open_files = %v after opening %d files, want about %v", got, n, open+n)
	}
}

// TestCPUUsage: the process's usage is its CPU time over the window's
// wall time times the processors, the system's its busy ticks over all
// its ticks, both within [0, 1]; until a whole window has passed each
// reading measures from the start, and after, a reading within a window
// of the last measured one gives that one's value.
func TestCPUUsage(t *testing.T) {
	start := time.Now()
	samples := []cpuSample{
		{at: start.Add(100 * time.Millisecond), process: 100 * time.Millisecond, busy: 30, total: 100},    // 0.25 of 4 processors
		{at: start.Add(1000 * time.Millisecond), process: 2000 * time.Millisecond, busy: 90, total: 400},  // a window: 0.5
		{at: start.Add(1500 * time.Millisecond), process: 3000 * time.Millisecond, busy: 100, total: 600}, // within it
		{at: start.Add(2000 * time.Millisecond), process: 6000 * time.Millisecond, busy: 390, total: 800}, // over 1: 1
	}
	c := cpuUsage{window: time.Second, readable: true, base: cpuSample{at: start}}
	c.sample = func() (cpuSample, bool) {
		s := samples[0]
		samples = samples[1:]
		return s, true
	}
	for i, want := range [][2]float64{{0.25, 0.3}, {0.5, 0.225}, {0.5, 0.225}, {1, 0.75}} {
		process, system, ok := c.read(4)
		if !ok || process != want[0] || system != want[1] {
			t.Errorf("reading %d: process %v, system %v, %v; want %v, %v", i, process, system, ok, want[0], want[1])
		}
	}
	if _, _, ok := (&cpuUsage{}).read(4); ok {
		t.Error("a system whose samples cannot be read gave a usage")
	}
}

// TestLogEvents: the log records are Micrometer's logback.events counter,
// one series per level, with the common tags; /actuator/metrics names it
// logback.events.
func TestLogEvents(t *testing.T) {
	m := mustNew(t, Options{CommonTags: map[string]string{"application": "svc"}})
	m.LogEvents(func() LogEventCounts { return LogEventCounts{Trace: 1, Debug: 2, Info: 3, Warn: 4, Error: 5} })
	body := scrape(m)
	for _, want := range []string{
		"# HELP logback_events_total Number of log events that were enabled by the effective log level\n# TYPE logback_events_total counter\n",
		`logback_events_total{application="svc",level="debug"} 2`,
		`logback_events_total{application="svc",level="error"} 5`,
		`logback_events_total{application="svc",level="info"} 3`,
		`logback_events_total{application="svc",level="trace"} 1`,
		`logback_events_total{application="svc",level="warn"} 4`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	mt, ok := m.Metric("logback.events", []Tag{{"level", "warn"}})
	if !ok || len(mt.Measurements) != 1 || mt.Measurements[0] != (Measurement{"COUNT", 4}) {
		t.Errorf("/actuator/metrics/logback.events?tag=level:warn = %+v, %v", mt, ok)
	}
	if _, err := New(Options{CommonTags: map[string]string{"level": "x"}}); err == nil {
		t.Error("a common tag named level was accepted: logback_events_total would have two")
	}
}
