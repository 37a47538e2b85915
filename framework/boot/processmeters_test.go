//go:build linux

package boot_test

// End-to-end tests of Micrometer's process, system and log-event meters
// in /actuator/prometheus and /actuator/metrics: the service runs in this
// test's process, so that the CPU the test burns and the files it opens
// are the service's. They are not parallel: a test that runs beside them
// would burn CPU and open files too.

import (
	"context"
	"math"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/testing/polltest"
)

// logger is a service that logs what it is asked to: POST
// /log?level=WARN&n=3 writes 3 lines at WARN through its logger
// logger.events.
func logger() boot.Service[struct{}] {
	level, n := dispatch.Query[string]("level"), dispatch.Query[int64]("n")
	return boot.Service[struct{}]{
		Name:    "logger",
		Loggers: []string{"events"},
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			events := app.Logger("events")
			app.Routes(dispatch.Route{Method: "POST", Pattern: "/log", Inputs: []dispatch.Input{level, n},
				Handler: dispatch.Runs(func(r *dispatch.Request) error {
					l, err := logging.ParseLevel(level.Get(r))
					if err != nil {
						return &dispatch.Error{Status: 400, Detail: err.Error()}
					}
					for i := range n.Get(r) {
						events.Log(r.Context(), l.Level(), "an event", "i", i)
					}
					return nil
				})})
			return nil
		},
	}
}

// meters scrapes s and returns its families' types and samples.
type meters struct {
	t    *testing.T
	body string
}

func scrapeMeters(t *testing.T, s *boottest.Instance) meters {
	t.Helper()
	r := send(t, nil, "GET", s.URL+"/actuator/prometheus", "")
	if r.status != 200 {
		t.Fatalf("/actuator/prometheus: %d %s", r.status, r.body)
	}
	return meters{t, r.body}
}

// value is the sample of name whose labels are exactly labels; the
// family must be of type typ.
func (m meters) value(name, typ, labels string) float64 {
	m.t.Helper()
	family := strings.TrimSuffix(name, "_total")
	if !strings.Contains(m.body, "# TYPE "+family+" "+typ+"\n") && !strings.Contains(m.body, "# TYPE "+name+" "+typ+"\n") {
		m.t.Fatalf("/actuator/prometheus has no %s of type %s", name, typ)
	}
	found := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name+"{"+labels+"}") + ` (\S+)$`).FindStringSubmatch(m.body)
	if found == nil {
		m.t.Fatalf("/actuator/prometheus has no %s{%s}:\n%s", name, labels, grepLines(m.body, name))
	}
	v, err := strconv.ParseFloat(found[1], 64)
	if err != nil {
		m.t.Fatal(err)
	}
	return v
}

const app = `application="logger"`

// TestProcessAndSystemMeters: the uptime grows and agrees with the start
// time; the CPU usage is a fraction that rises while the process burns
// CPU, measured against the same process idle; the system's is a
// fraction; the processors are GOMAXPROCS; the open files rise by the
// files the process opens; the maximum is the process's limit; every one
// carries the common tags, and /actuator/metrics names them as
// Micrometer does.
func TestProcessAndSystemMeters(t *testing.T) {
	s := boottest.Start(t, logger(), []string{exposeAll, "--management.metrics.tags.application=logger"}, nil)

	first := scrapeMeters(t, s)
	uptime := first.value("process_uptime_seconds", "gauge", app)
	start := first.value("process_start_time_seconds", "gauge", app)
	now := float64(time.Now().UnixNano()) / 1e9
	// client_golang's start time is the kernel's, in whole seconds of
	// its boot time and ticks since; the uptime counts from the Go
	// program's start.
	if math.Abs(start+uptime-now) > 2 {
		t.Errorf("process_start_time_seconds %v + process_uptime_seconds %v = %v, want about now, %v", start, uptime, start+uptime, now)
	}
	boottest.WaitFor(t, "process_uptime_seconds to grow", func() bool {
		return scrapeMeters(t, s).value("process_uptime_seconds", "gauge", app) > uptime
	})
	if got := first.value("system_cpu_count", "gauge", app); got != float64(runtime.GOMAXPROCS(0)) {
		t.Errorf("system_cpu_count = %v, want GOMAXPROCS, %d", got, runtime.GOMAXPROCS(0))
	}
	if got := first.value("system_load_average_1m", "gauge", app); got < 0 {
		t.Errorf("system_load_average_1m = %v, want /proc/loadavg's", got)
	}
	var limit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		t.Fatal(err)
	}
	if got := first.value("process_files_max_files", "gauge", app); got != float64(limit.Cur) {
		t.Errorf("process_files_max_files = %v, want RLIMIT_NOFILE's %d", got, limit.Cur)
	}

	// Open files: the scrape's connection is open already, and stays.
	open := scrapeMeters(t, s).value("process_files_open_files", "gauge", app)
	const n = 40
	files := make([]*os.File, n)
	for i := range files {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = f
	}
	// Another collector of the same scrape may hold a file of /proc.
	if got := scrapeMeters(t, s).value("process_files_open_files", "gauge", app); got < open+n-2 || got > open+n+2 {
		t.Errorf("process_files_open_files = %v after opening %d files, was %v", got, n, open)
	}
	for _, f := range files {
		f.Close()
	}
	if got := scrapeMeters(t, s).value("process_files_open_files", "gauge", app); got < open-2 || got > open+2 {
		t.Errorf("process_files_open_files = %v after closing them, was %v", got, open)
	}

	// The CPU usage is measured over windows of a second from one scrape
	// to the next: idle, a window that began once this test did ends
	// within two seconds of scrapes.
	usage := func() (process, system float64) {
		m := scrapeMeters(t, s)
		process, system = m.value("process_cpu_usage", "gauge", app), m.value("system_cpu_usage", "gauge", app)
		for name, v := range map[string]float64{"process_cpu_usage": process, "system_cpu_usage": system} {
			if v < 0 || v > 1 {
				t.Fatalf("%s = %v, want a fraction in [0, 1]", name, v)
			}
		}
		return process, system
	}
	var idle float64
	for began := time.Now(); time.Since(began) < 2100*time.Millisecond; {
		idle, _ = usage()
		time.Sleep(20 * time.Millisecond) // the pace of the scrapes, not a wait for something
	}
	var stop atomic.Bool
	defer stop.Store(true)
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for !stop.Load() { // spins: burning CPU is its work
			}
		}()
	}
	// Other processes of the machine may take most of its processors:
	// the rise asked for is small, and given time.
	var burning, system float64
	if !polltest.Poll(30*time.Second, func() bool {
		burning, system = usage()
		return burning > idle+0.02
	}) {
		t.Fatalf("process_cpu_usage = %v while the process burns every processor, idle %v: want it to rise", burning, idle)
	}
	if system <= 0 {
		t.Errorf("system_cpu_usage = %v while this process burns every processor it has", system)
	}

	for name, unit := range map[string]string{"process.uptime": "seconds", "process.cpu.usage": "", "system.cpu.usage": "",
		"system.cpu.count": "", "system.load.average.1m": "", "process.files.open": "files", "process.files.max": "files"} {
		r := send(t, nil, "GET", s.URL+"/actuator/metrics/"+name, "")
		if r.status != 200 || !strings.Contains(r.body, `"name":"`+name+`"`) || (unit != "" && !strings.Contains(r.body, `"baseUnit":"`+unit+`"`)) {
			t.Errorf("/actuator/metrics/%s: %d %s; want the meter in %q", name, r.status, r.body, unit)
		}
	}
}

// TestLogEventsMeter: every line a logger's level lets through counts
// once in logback_events_total under its level, with the common tags;
// a line below the logger's level does not; /actuator/metrics names the
// meter logback.events.
func TestLogEventsMeter(t *testing.T) {
	s := boottest.Start(t, logger(), []string{exposeAll, "--management.metrics.tags.application=logger", "--logging.level.logger.events=DEBUG"}, nil)
	count := func(m meters, level string) float64 {
		return m.value("logback_events_total", "counter", app+`,level="`+level+`"`)
	}
	levels := []string{"trace", "debug", "info", "warn", "error"}
	before := map[string]float64{}
	m := scrapeMeters(t, s)
	for _, l := range levels {
		before[l] = count(m, l)
	}
	logged := map[string]int{"TRACE": 4, "DEBUG": 3, "INFO": 5, "WARN": 2, "ERROR": 1}
	for level, n := range logged {
		if r := send(t, nil, "POST", s.URL+"/log?level="+level+"&n="+strconv.Itoa(n), ""); r.status != 200 {
			t.Fatalf("POST /log?level=%s: %d %s", level, r.status, r.body)
		}
	}
	m = scrapeMeters(t, s)
	for _, l := range levels {
		want := float64(logged[strings.ToUpper(l)])
		if l == "trace" {
			want = 0 // below logger.events's DEBUG
		}
		if got := count(m, l) - before[l]; got != want {
			t.Errorf("logback_events_total{level=%q} rose by %v, want %v", l, got, want)
		}
	}
	r := send(t, nil, "GET", s.URL+"/actuator/metrics/logback.events?tag=level:warn", "")
	if r.status != 200 || !strings.Contains(r.body, `"name":"logback.events"`) || !strings.Contains(r.body, `"statistic":"COUNT"`) {
		t.Errorf("/actuator/metrics/logback.events?tag=level:warn: %d %s", r.status, r.body)
	}
}
