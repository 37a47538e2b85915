package metrics

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// timer is one series of a Micrometer timer: a count, a total time, the
// maximum over a decaying window, and, with the percentiles histogram on,
// a count per bucket. Every field is updated with atomics, so recording
// neither locks nor allocates. Times are kept in nanoseconds.
type timer struct {
	labels  []string // label values, in the order of timerLabels
	count   atomic.Uint64
	sum     atomic.Int64 // nanoseconds
	max     windowMax
	buckets []atomic.Uint64 // per bucket of timerBuckets, not cumulative; nil without the histogram
}

func (t *timer) record(d time.Duration, now time.Duration) {
	ns := int64(d)
	t.count.Add(1)
	t.sum.Add(ns)
	t.max.record(ns, now)
	if t.buckets != nil {
		i, _ := slices.BinarySearch(timerBuckets, ns) // the first bound ≥ ns; len for +Inf
		if i < len(t.buckets) {
			t.buckets[i].Add(1)
		}
	}
}

// Micrometer's TimeWindowMax defaults (DistributionStatisticConfig): the
// maximum is kept over a window of two minutes, rotated through three
// buffers, so that a scrape sees the largest duration of the last 80 to
// 120 seconds.
const (
	maxExpiry  = 2 * time.Minute
	maxBuffers = 3
)

// windowMax is Micrometer's TimeWindowMax: every record raises all the
// buffers; a read returns the current one; every maxExpiry/maxBuffers the
// current buffer is cleared and the next becomes current. Times are
// monotonic durations since the process began (see clock).
type windowMax struct {
	next atomic.Int64 // when the next rotation is due
	cur  atomic.Uint32
	ring [maxBuffers]atomic.Int64
	mu   sync.Mutex // rotations only
}

const maxRotation = int64(maxExpiry / maxBuffers)

func (w *windowMax) record(v int64, now time.Duration) {
	if int64(now) >= w.next.Load() {
		w.rotate(now)
	}
	for i := range w.ring {
		for {
			old := w.ring[i].Load()
			if v <= old || w.ring[i].CompareAndSwap(old, v) {
				break
			}
		}
	}
}

// poll returns the maximum of the window that ends now.
func (w *windowMax) poll(now time.Duration) int64 {
	w.rotate(now)
	return w.ring[w.cur.Load()].Load()
}

func (w *windowMax) rotate(now time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	next := w.next.Load()
	if next == 0 { // the first record starts the window
		w.next.Store(int64(now) + maxRotation)
		return
	}
	for i := 0; int64(now) >= next && i < maxBuffers; i++ {
		c := w.cur.Load()
		w.ring[c].Store(0)
		w.cur.Store((c + 1) % maxBuffers)
		next += maxRotation
	}
	if int64(now) >= next { // idle for a whole window: every buffer is clear
		next = int64(now) + maxRotation
	}
	w.next.Store(next)
}

// epoch is where clock counts from: the monotonic clock, which a change of
// the wall clock does not move.
var epoch = time.Now()

// clock returns now as windowMax counts time.
func clock(now time.Time) time.Duration { return now.Sub(epoch) }

// timerBuckets are the bounds, in nanoseconds, of the buckets Micrometer
// publishes for a timer with percentiles-histogram on and no SLOs:
// PercentileHistogramBuckets (powers of 4, each range split in three)
// between the timer's minimum and maximum expected values, 1 ms and 30 s
// by default, plus those two (DistributionStatisticConfig
// .getHistogramBuckets). Prometheus adds +Inf.
var timerBuckets = micrometerBuckets(int64(time.Millisecond), int64(30*time.Second))

func micrometerBuckets(lo, hi int64) []int64 {
	all := []int64{1, 2, 3}
	for exp := 2; exp < 64; exp += 2 {
		current := int64(1) << exp
		delta := current / 3
		next := current<<2 - delta
		if next < 0 { // past int64: Micrometer stops at Long.MAX_VALUE
			next = math.MaxInt64
		}
		for ; current < next && current > 0; current += delta {
			all = append(all, current)
		}
	}
	bounds := []int64{lo, hi}
	for _, b := range all {
		if b >= lo && b <= hi {
			bounds = append(bounds, b)
		}
	}
	slices.Sort(bounds)
	return slices.Compact(bounds)
}

// timerLabels are the tags of http.server.requests, in the order
// Micrometer's Prometheus registry writes them (by name).
var timerLabels = []string{"error", "exception", "method", "outcome", "status", "uri"}

// timers is a Micrometer timer as a collector: per label set, a summary
// of count and sum (or a histogram, with the percentiles histogram on)
// named name_seconds, and a gauge name_seconds_max, as Micrometer's
// Prometheus registry writes a timer.
type timers struct {
	name, help string
	histogram  bool
	now        func() time.Time

	mu  sync.RWMutex
	all []*timer
}

func newTimers(name, help string, histogram bool) *timers {
	return &timers{name: name, help: help, histogram: histogram, now: time.Now}
}

// add makes the series of the label values, once per label set.
func (ts *timers) add(values ...string) *timer {
	t := &timer{labels: values}
	if ts.histogram {
		t.buckets = make([]atomic.Uint64, len(timerBuckets))
	}
	ts.mu.Lock()
	ts.all = append(ts.all, t)
	ts.mu.Unlock()
	return t
}

// collect reads every series: the timer's family and its _max gauge.
func (ts *timers) collect() []family {
	ts.mu.RLock()
	all := slices.Clone(ts.all)
	ts.mu.RUnlock()
	durations := family{name: ts.name, help: ts.help, typ: summaryType, series: make([]series, 0, len(all))}
	if ts.histogram {
		durations.typ = histogramType
	}
	maxima := family{name: ts.name + "_max", help: ts.help + " Maximum over the last two minutes.", typ: gaugeType,
		series: make([]series, 0, len(all))}
	now := clock(ts.now())
	for _, t := range all {
		labels := make([]labelPair, len(timerLabels))
		for i, name := range timerLabels {
			labels[i] = labelPair{name, t.labels[i]}
		}
		s := series{labels: labels, count: t.count.Load(), sum: time.Duration(t.sum.Load()).Seconds()}
		if ts.histogram {
			s.buckets = make([]bucket, len(timerBuckets))
			var cumulative uint64
			for i, b := range timerBuckets {
				cumulative += t.buckets[i].Load()
				s.buckets[i] = bucket{time.Duration(b).Seconds(), cumulative}
			}
			// A record between the loads above can leave count short of
			// the buckets; Prometheus wants +Inf (the count) to cover them.
			s.count = max(s.count, cumulative)
		}
		durations.series = append(durations.series, s)
		maxima.series = append(maxima.series, series{labels: labels, value: time.Duration(t.max.poll(now)).Seconds()})
	}
	return []family{durations, maxima}
}
