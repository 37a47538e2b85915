package metrics

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The Go runtime metrics, as client_golang 1.25's
// collectors.NewGoCollector() wrote them with its default options, so
// that dashboards for Go services keep working: the MemStats-like
// go_memstats_* computed from runtime/metrics, goroutines, threads, GC
// pauses, go_info, and the three runtime/metrics gauges it exposes by
// default.

// runtimeGauges are the runtime metrics client_golang exposes by default
// (GoCollectorDefaultRuntimeMetrics), named as it names them; their HELP
// is the runtime's own description, and their OpenMetrics UNIT the unit
// of their runtime name.
var runtimeGauges = []struct{ name, runtimeName, unit string }{
	{"go_gc_gogc_percent", "/gc/gogc:percent", "percent"},
	{"go_gc_gomemlimit_bytes", "/gc/gomemlimit:bytes", "bytes"},
	{"go_sched_gomaxprocs_threads", "/sched/gomaxprocs:threads", "threads"},
}

// memStat is a go_memstats_* family: a runtime.MemStats field, computed
// from runtime/metrics as client_golang's memStatsFromRM does (reading
// MemStats itself would stop the world).
type memStat struct {
	name, help string
	typ        metricType
	value      func(*runtime.MemStats) uint64
}

var memStats = []memStat{
	{"go_memstats_alloc_bytes", "Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.Alloc }},
	{"go_memstats_alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.",
		counterType, func(ms *runtime.MemStats) uint64 { return ms.TotalAlloc }},
	{"go_memstats_sys_bytes", "Number of bytes obtained from system. Equals to /memory/classes/total:byte.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.Sys }},
	{"go_memstats_mallocs_total", "Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects.",
		counterType, func(ms *runtime.MemStats) uint64 { return ms.Mallocs }},
	{"go_memstats_frees_total", "Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects.",
		counterType, func(ms *runtime.MemStats) uint64 { return ms.Frees }},
	{"go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.HeapAlloc }},
	{"go_memstats_heap_sys_bytes", "Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.HeapSys }},
	{"go_memstats_heap_idle_bytes", "Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.HeapIdle }},
	{"go_memstats_heap_inuse_bytes", "Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.HeapInuse }},
	{"go_memstats_heap_released_bytes", "Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.HeapReleased }},
	{"go_memstats_heap_objects", "Number of currently allocated objects. Equals to /gc/heap/objects:objects.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.HeapObjects }},
	{"go_memstats_stack_inuse_bytes", "Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.StackInuse }},
	{"go_memstats_stack_sys_bytes", "Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.StackSys }},
	{"go_memstats_mspan_inuse_bytes", "Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.MSpanInuse }},
	{"go_memstats_mspan_sys_bytes", "Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.MSpanSys }},
	{"go_memstats_mcache_inuse_bytes", "Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.MCacheInuse }},
	{"go_memstats_mcache_sys_bytes", "Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.MCacheSys }},
	{"go_memstats_buck_hash_sys_bytes", "Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.BuckHashSys }},
	{"go_memstats_gc_sys_bytes", "Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.GCSys }},
	{"go_memstats_other_sys_bytes", "Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.OtherSys }},
	{"go_memstats_next_gc_bytes", "Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.",
		gaugeType, func(ms *runtime.MemStats) uint64 { return ms.NextGC }},
}

// memStatsSources are the runtime metrics memStatsFrom reads.
var memStatsSources = []string{
	"/gc/heap/tiny/allocs:objects",
	"/gc/heap/allocs:objects",
	"/gc/heap/frees:objects",
	"/gc/heap/allocs:bytes",
	"/gc/heap/objects:objects",
	"/gc/heap/goal:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/memory/classes/os-stacks:bytes",
	"/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/mspan/free:bytes",
	"/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/metadata/mcache/free:bytes",
	"/memory/classes/profiling/buckets:bytes",
	"/memory/classes/metadata/other:bytes",
	"/memory/classes/other:bytes",
}

// goCollector reads the runtime metrics of the families above, in one
// metrics.Read per scrape.
type goCollector struct {
	mu      sync.Mutex // samples is read into
	samples []metrics.Sample
	byName  map[string]int // index in samples
	gauges  []runtimeGauge
}

// runtimeGauge is a runtimeGauges entry this runtime has.
type runtimeGauge struct {
	name, help, unit string
	sample           int
}

// newGoCollector looks up which of the runtime metrics it reads this Go
// has: reading one it lacks would panic.
func newGoCollector() *goCollector {
	c := &goCollector{byName: map[string]int{}}
	add := func(name string) int {
		c.samples = append(c.samples, metrics.Sample{Name: name})
		c.byName[name] = len(c.samples) - 1
		return len(c.samples) - 1
	}
	for _, d := range metrics.All() {
		if d.Kind != metrics.KindUint64 && d.Kind != metrics.KindFloat64 {
			continue
		}
		for _, g := range runtimeGauges {
			if d.Name == g.runtimeName {
				c.gauges = append(c.gauges, runtimeGauge{name: g.name, help: d.Description + " Sourced from " + d.Name + ".", unit: g.unit, sample: add(d.Name)})
			}
		}
		for _, name := range memStatsSources {
			if d.Name == name && d.Kind == metrics.KindUint64 {
				add(name)
			}
		}
	}
	return c
}

func (c *goCollector) collect() []family {
	var gc debug.GCStats
	gc.PauseQuantiles = make([]time.Duration, 5) // minimum, quartiles, maximum
	debug.ReadGCStats(&gc)
	pauses := series{count: uint64(gc.NumGC), sum: gc.PauseTotal.Seconds()}
	for i, p := range gc.PauseQuantiles {
		pauses.quantiles = append(pauses.quantiles, quantile{float64(i) / 4, p.Seconds()})
	}
	threads, _ := runtime.ThreadCreateProfile(nil)

	all := []family{
		single("go_goroutines", "Number of goroutines that currently exist.", gaugeType, float64(runtime.NumGoroutine())),
		single("go_threads", "Number of OS threads created.", gaugeType, float64(threads)),
		{name: "go_gc_duration_seconds", help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.",
			typ: summaryType, series: []series{pauses}},
		single("go_memstats_last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection.", gaugeType,
			float64(gc.LastGC.UnixNano())/1e9),
		{name: "go_info", help: "Information about the Go environment.", typ: gaugeType,
			series: []series{{labels: []labelPair{{"version", runtime.Version()}}, value: 1}}},
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	metrics.Read(c.samples)
	for _, g := range c.gauges {
		var value float64
		switch v := c.samples[g.sample].Value; v.Kind() {
		case metrics.KindUint64:
			value = float64(v.Uint64())
		case metrics.KindFloat64:
			value = v.Float64()
		}
		all = append(all, family{name: g.name, help: g.help, unit: g.unit, typ: gaugeType, series: []series{{value: value}}})
	}
	ms := c.memStatsFrom()
	for _, s := range memStats {
		all = append(all, single(s.name, s.help, s.typ, float64(s.value(&ms))))
	}
	return all
}

// memStatsFrom fills the MemStats fields of memStats from the samples,
// as client_golang's memStatsFromRM does.
func (c *goCollector) memStatsFrom() runtime.MemStats {
	read := func(name string) uint64 {
		if i, ok := c.byName[name]; ok {
			return c.samples[i].Value.Uint64()
		}
		return 0
	}
	var ms runtime.MemStats
	tiny := read("/gc/heap/tiny/allocs:objects")
	ms.Mallocs = read("/gc/heap/allocs:objects") + tiny
	ms.Frees = read("/gc/heap/frees:objects") + tiny
	ms.TotalAlloc = read("/gc/heap/allocs:bytes")
	ms.Sys = read("/memory/classes/total:bytes")
	ms.HeapAlloc = read("/memory/classes/heap/objects:bytes")
	ms.Alloc = ms.HeapAlloc
	ms.HeapInuse = ms.HeapAlloc + read("/memory/classes/heap/unused:bytes")
	ms.HeapReleased = read("/memory/classes/heap/released:bytes")
	ms.HeapIdle = ms.HeapReleased + read("/memory/classes/heap/free:bytes")
	ms.HeapSys = ms.HeapInuse + ms.HeapIdle
	ms.HeapObjects = read("/gc/heap/objects:objects")
	ms.StackInuse = read("/memory/classes/heap/stacks:bytes")
	ms.StackSys = ms.StackInuse + read("/memory/classes/os-stacks:bytes")
	ms.MSpanInuse = read("/memory/classes/metadata/mspan/inuse:bytes")
	ms.MSpanSys = ms.MSpanInuse + read("/memory/classes/metadata/mspan/free:bytes")
	ms.MCacheInuse = read("/memory/classes/metadata/mcache/inuse:bytes")
	ms.MCacheSys = ms.MCacheInuse + read("/memory/classes/metadata/mcache/free:bytes")
	ms.BuckHashSys = read("/memory/classes/profiling/buckets:bytes")
	ms.GCSys = read("/memory/classes/metadata/other:bytes")
	ms.OtherSys = read("/memory/classes/other:bytes")
	ms.NextGC = read("/gc/heap/goal:bytes")
	return ms
}
