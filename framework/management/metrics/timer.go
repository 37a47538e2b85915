package metrics

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
)

// timer is one series of a Micrometer timer: client_golang's summary (or
// histogram, with the percentiles histogram on) of the series, found once
// when the series is first seen, and the maximum over a decaying window,
// which client_golang does not keep and Micrometer publishes as _max.
type timer struct {
	labels   []string // label values, in the order of timerLabels
	observer prometheus.Observer
	exemplar prometheus.ExemplarObserver // the histogram's; nil for a summary
	max      windowMax                   // nanoseconds
}

func (t *timer) record(d time.Duration, now time.Duration) {
	t.observer.Observe(d.Seconds())
	t.max.record(int64(d), now)
}

// recordWithTrace records d with the span it was traced by as the
// exemplar of its bucket, labelled as Micrometer Tracing labels one.
func (t *timer) recordWithTrace(d time.Duration, now time.Duration, span trace.SpanContext) {
	if t.exemplar == nil {
		t.record(d, now)
		return
	}
	t.exemplar.ObserveWithExemplar(d.Seconds(), prometheus.Labels{
		"trace_id": span.TraceID().String(), "span_id": span.SpanID().String()})
	t.max.record(int64(d), now)
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

// timerLabels are the tags of http.server.requests.
var timerLabels = []string{"error", "exception", "method", "outcome", "status", "uri"}

const (
	timerName = "http_server_requests_seconds"
	timerHelp = "Duration of HTTP server requests, by method, route pattern, status and error."
)

// requestTimers is Micrometer's http.server.requests timer as Micrometer's
// Prometheus registry writes it: per label set, client_golang's summary of
// count and sum (or histogram, with the percentiles histogram on) named
// http_server_requests_seconds, and a gauge http_server_requests_seconds_max.
type requestTimers struct {
	vec       *prometheus.MetricVec // a *SummaryVec's or *HistogramVec's
	observers func(values ...string) prometheus.Observer
	maxima    *maxima
}

func newRequestTimers(histogram bool) requestTimers {
	ts := requestTimers{maxima: &maxima{
		desc: prometheus.NewDesc(timerName+"_max", timerHelp+" Maximum over the last two minutes.", timerLabels, nil),
		now:  time.Now,
	}}
	if histogram {
		buckets := make([]float64, len(timerBuckets))
		for i, b := range timerBuckets {
			buckets[i] = time.Duration(b).Seconds()
		}
		v := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: timerName, Help: timerHelp, Buckets: buckets}, timerLabels)
		ts.vec, ts.observers = v.MetricVec, v.WithLabelValues
	} else {
		// A summary without objectives is a count and a sum, as
		// Micrometer's timer without percentiles.
		v := prometheus.NewSummaryVec(prometheus.SummaryOpts{Name: timerName, Help: timerHelp}, timerLabels)
		ts.vec, ts.observers = v.MetricVec, v.WithLabelValues
	}
	return ts
}

// add makes the series of the label values, once per label set.
func (ts *requestTimers) add(values ...string) *timer {
	t := &timer{labels: values, observer: ts.observers(values...)}
	t.exemplar, _ = t.observer.(prometheus.ExemplarObserver)
	ts.maxima.add(t)
	return t
}

// maxima is the collector of the timers' _max gauges.
type maxima struct {
	desc *prometheus.Desc
	now  func() time.Time

	mu  sync.RWMutex
	all []*timer
}

func (c *maxima) add(t *timer) {
	c.mu.Lock()
	c.all = append(c.all, t)
	c.mu.Unlock()
}

func (c *maxima) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *maxima) Collect(ch chan<- prometheus.Metric) {
	c.mu.RLock()
	all := slices.Clone(c.all)
	c.mu.RUnlock()
	now := clock(c.now())
	for _, t := range all {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, time.Duration(t.max.poll(now)).Seconds(), t.labels...)
	}
}
