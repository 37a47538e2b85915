package metrics

import (
	"maps"
	"slices"
	"strings"
)

// The registry read as Micrometer's meters with every series' values, for
// an exporter that pushes them (the OTLP metrics starter's): the same
// gathering and the same names as /actuator/metrics (meters.go), so that
// what is pushed is what a scrape shows, named as Micrometer's push
// registries name it (http.server.requests, not
// http_server_requests_seconds). Nothing here knows of a wire format: a
// service that does not push links no encoder.

// MeterType is what a meter is, as a push registry tells them apart.
type MeterType int

const (
	// CounterMeter only grows (Micrometer's Counter, FunctionCounter).
	CounterMeter MeterType = iota
	// GaugeMeter is a value read now (Gauge, TimeGauge).
	GaugeMeter
	// DistributionMeter is a Timer or a DistributionSummary: a count, a
	// total, the largest of a recent window, and buckets or quantiles.
	DistributionMeter
)

// Snapshot is one meter and the values of its series, read at once.
type Snapshot struct {
	Name        string // Micrometer's dotted name: http.server.requests
	Description string
	// BaseUnit is the unit its values are in, as /actuator/metrics gives
	// it: seconds, bytes, files, or "" for a count. Durations are in
	// seconds, as the scrape has them; an exporter converts them to its
	// base time unit.
	BaseUnit string
	Type     MeterType
	Series   []SeriesSnapshot
}

// SeriesSnapshot is one series of a meter: its tags (the common tags
// among them, under the keys they were set with) and its values.
type SeriesSnapshot struct {
	Tags  []Tag
	Value float64 // a counter's or a gauge's
	// A distribution's count and total, and its largest value of the
	// recent window when the meter keeps one (HasMax).
	Count  uint64
	Sum    float64
	Max    float64
	HasMax bool
	// Buckets are a distribution's histogram, when it is published as one
	// (management.metrics.distribution.percentiles-histogram.*): counts
	// of the values up to each bound, cumulative, the last bound +Inf.
	Buckets []Bucket
	// Quantiles are a distribution's percentiles, when it publishes them
	// (the Go runtime's GC pauses).
	Quantiles []Quantile
}

// Bucket is a histogram's count of the values at most UpperBound.
type Bucket struct {
	UpperBound      float64
	CumulativeCount uint64
}

// Quantile is a distribution's value at a quantile (0.99).
type Quantile struct{ Quantile, Value float64 }

// Snapshot reads every meter, sorted by name, as a scrape would read the
// registry at this moment.
func (m *HTTP) Snapshot() []Snapshot {
	meters := m.meters()
	out := make([]Snapshot, 0, len(meters))
	for _, name := range slices.Sorted(maps.Keys(meters)) {
		mt := meters[name]
		s := Snapshot{Name: mt.name, Description: mt.family.help, BaseUnit: mt.unit}
		switch mt.family.typ {
		case counterType:
			s.Type = CounterMeter
		case gaugeType:
			s.Type = GaugeMeter
		default:
			s.Type = DistributionMeter
		}
		maxima := map[string]float64{}
		if mt.max != nil {
			for _, ms := range mt.max.series {
				maxima[labelKey(ms.labels)] = ms.value
			}
		}
		for _, fs := range mt.family.series {
			ss := SeriesSnapshot{Tags: m.tags(fs.labels), Value: fs.value, Count: fs.count, Sum: fs.sum,
				Buckets: fs.buckets, Quantiles: fs.quantiles}
			ss.Max, ss.HasMax = maxima[labelKey(fs.labels)]
			s.Series = append(s.Series, ss)
		}
		out = append(out, s)
	}
	return out
}

// tags are a series' labels as a meter's tags: the common tags under the
// keys they were set with (cloud.region, which the label cloud_region
// stands for), the others as they are.
func (m *HTTP) tags(labels []labelPair) []Tag {
	tags := make([]Tag, len(labels))
	for i, l := range labels {
		key := l.name
		if k, ok := m.tagKeys[key]; ok {
			key = k
		}
		tags[i] = Tag{Key: key, Value: l.value}
	}
	return tags
}

// labelKey identifies a series by its labels, which a gathering sorts
// by name: a timer's series and its _max gauge's have the same.
func labelKey(labels []labelPair) string {
	var b strings.Builder
	for _, l := range labels {
		b.WriteString(l.name)
		b.WriteByte(0)
		b.WriteString(l.value)
		b.WriteByte(0)
	}
	return b.String()
}
