package metrics

import (
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The process and system meters that Micrometer's binders give a Spring
// service (UptimeMetrics, ProcessorMetrics, FileDescriptorMetrics), under
// their names, for what they mean in a Go process. They are added beside
// client_golang's process collector, whose names (process_open_fds,
// process_cpu_seconds_total...) stay: none of Micrometer's is written
// twice. process_start_time_seconds, which both have, is client_golang's.
// Linux is read from /proc and the process's own counters (see
// process_linux.go); elsewhere only the uptime and the processor count
// are reported, and the rest is left out, as Micrometer leaves out what
// the JVM cannot read.

// started is when the process started, as near as a package knows it:
// package variables are set before main runs, as the JVM's uptime counts
// from the JVM's own start.
var started = time.Now()

// cpuWindow is the shortest time the CPU usage is measured over: a
// reading sooner than that after the last measured window (a second
// scraper, /actuator/metrics) gets that window's value, rather than the
// noise of a few milliseconds. Prometheus scrapes much less often, so
// that each of its scrapes reads the usage since the one before, as the
// JVM's getProcessCpuLoad reads it since its last call.
const cpuWindow = time.Second

var (
	uptimeDesc = prometheus.NewDesc("process_uptime_seconds",
		"The uptime of the Go process", nil, nil)
	processCPUDesc = prometheus.NewDesc("process_cpu_usage",
		`The "recent cpu usage" for the Go process`, nil, nil)
	systemCPUDesc = prometheus.NewDesc("system_cpu_usage",
		`The "recent cpu usage" of the system the application is running in`, nil, nil)
	cpuCountDesc = prometheus.NewDesc("system_cpu_count",
		"The number of processors available to the Go runtime (GOMAXPROCS)", nil, nil)
	loadDesc = prometheus.NewDesc("system_load_average_1m",
		"The sum of the number of runnable entities queued to available processors and the number "+
			"of runnable entities running on the available processors averaged over a period of time", nil, nil)
	openFilesDesc = prometheus.NewDesc("process_files_open_files",
		"The open file descriptor count", nil, nil)
	maxFilesDesc = prometheus.NewDesc("process_files_max_files",
		"The maximum file descriptor count", nil, nil)
)

// processMeters collects the meters at each scrape; nothing runs between
// scrapes.
type processMeters struct {
	cpu  cpuUsage
	load bool // whether the system has a load average, as Micrometer asks once
}

func newProcessMeters() *processMeters {
	p := &processMeters{cpu: cpuUsage{window: cpuWindow, sample: readCPU}}
	p.cpu.base, p.cpu.readable = readCPU()
	_, p.load = loadAverage1m()
	return p
}

func (p *processMeters) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{uptimeDesc, processCPUDesc, systemCPUDesc, cpuCountDesc, loadDesc, openFilesDesc, maxFilesDesc} {
		ch <- d
	}
}

func (p *processMeters) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	gauge(uptimeDesc, time.Since(started).Seconds())
	cpus := runtime.GOMAXPROCS(0)
	gauge(cpuCountDesc, float64(cpus))
	if process, system, ok := p.cpu.read(cpus); ok {
		gauge(processCPUDesc, process)
		gauge(systemCPUDesc, system)
	}
	if p.load {
		load, ok := loadAverage1m()
		if !ok {
			load = -1 // as the JVM's getSystemLoadAverage says it cannot tell
		}
		gauge(loadDesc, load)
	}
	if n, ok := openFiles(); ok {
		gauge(openFilesDesc, float64(n))
	}
	if n, ok := maxFiles(); ok {
		gauge(maxFilesDesc, float64(n))
	}
}

// cpuSample is what the CPU usage is computed from: the process's CPU
// time and the system's busy and total time, at a moment.
type cpuSample struct {
	at          time.Time
	process     time.Duration // user and system time of the process, all its threads
	busy, total uint64        // the system's time, in clock ticks of all its processors
}

// cpuUsage is the recent CPU usage of the process and of the system,
// measured between readings at least window apart.
type cpuUsage struct {
	window   time.Duration
	sample   func() (cpuSample, bool) // readCPU
	readable bool                     // whether the system lets the samples be read at all

	mu              sync.Mutex
	base            cpuSample // the start of the window being measured
	measured        bool      // whether a whole window has been measured
	process, system float64   // the usage over the last window measured
}

// read returns the process's CPU usage, as a fraction of cpus processors,
// and the system's, as a fraction of all of its own, both in [0, 1].
// Until a whole window has passed since the meters were made, each
// reading measures from then; after, the value of the last whole window,
// which a reading a window after it replaces.
func (c *cpuUsage) read(cpus int) (process, system float64, ok bool) {
	if !c.readable {
		return 0, 0, false
	}
	now, ok := c.sample()
	if !ok {
		return 0, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	wall := now.at.Sub(c.base.at)
	if wall > 0 && (wall >= c.window || !c.measured) {
		c.process = fraction(float64(now.process-c.base.process), float64(wall)*float64(cpus))
		if now.total > c.base.total {
			c.system = fraction(float64(now.busy-c.base.busy), float64(now.total-c.base.total))
		}
		if wall >= c.window {
			c.base, c.measured = now, true
		}
	}
	return c.process, c.system, true
}

// fraction is used/of, within [0, 1]: the kernel counts a process's time
// and a processor's in ticks of their own, so that a window may come out
// a little over.
func fraction(used, of float64) float64 {
	return math.Max(0, math.Min(1, used/of))
}
