package metrics

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// metricType is the type of a family, as the exposition formats name it.
type metricType int

const (
	counterType metricType = iota
	gaugeType
	summaryType
	histogramType
)

// family is one metric family of a scrape: its series, read at the
// moment of the scrape.
type family struct {
	name, help string
	// unit is written only by OpenMetrics (# UNIT), and only the runtime
	// metrics client_golang's Go collector read from runtime/metrics
	// have one.
	unit   string
	typ    metricType
	series []series
}

// series is one series of a family: its labels, sorted by name, and its
// value, which for a summary is count, sum and quantiles, and for a
// histogram count, sum and buckets.
type series struct {
	labels    []labelPair
	value     float64 // counter and gauge
	count     uint64  // summary and histogram
	sum       float64 // summary and histogram
	quantiles []quantile
	buckets   []bucket // cumulative, by upper bound, +Inf left out
}

type labelPair struct{ name, value string }

type quantile struct{ quantile, value float64 }

type bucket struct {
	upperBound float64
	count      uint64
}

// single is a family of one series without labels.
func single(name, help string, typ metricType, value float64) family {
	return family{name: name, help: help, typ: typ, series: []series{{value: value}}}
}

// collector yields families read at the moment of a scrape; a value it
// cannot read is left out (client_golang's process collector does the
// same), and so is a family with no series.
type collector func() []family

// registry is the collectors a scrape reads.
type registry struct {
	mu         sync.Mutex
	collectors []collector
}

func (r *registry) register(c ...collector) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.collectors = append(r.collectors, c...)
}

// gather reads every collector, in the order client_golang's registry
// hands families to promhttp: by name, and the series of each by their
// label values; families without series are dropped.
func (r *registry) gather() []family {
	r.mu.Lock()
	collectors := slices.Clone(r.collectors)
	r.mu.Unlock()
	var all []family
	for _, c := range collectors {
		for _, f := range c() {
			if len(f.series) > 0 {
				all = append(all, f)
			}
		}
	}
	slices.SortFunc(all, func(a, b family) int { return strings.Compare(a.name, b.name) })
	for _, f := range all {
		slices.SortStableFunc(f.series, func(a, b series) int {
			if c := cmp.Compare(len(a.labels), len(b.labels)); c != 0 {
				return c
			}
			for i := range a.labels {
				if c := strings.Compare(a.labels[i].value, b.labels[i].value); c != 0 {
					return c
				}
			}
			return 0
		})
	}
	return all
}
