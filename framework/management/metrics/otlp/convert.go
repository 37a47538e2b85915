package otlp

import (
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"

	"github.com/springport/greeter/framework/management/metrics"
)

// The meters as Micrometer's OtlpMeterRegistry sends them, with its
// defaults (cumulative temporality, explicit-bucket histograms,
// publishMaxGaugeForHistograms):
//
//   - a counter is a monotonic cumulative Sum;
//   - a gauge is a Gauge;
//   - a timer or a distribution summary is a cumulative Histogram with
//     its count and total, whose buckets are the percentiles histogram's
//     when it is published and else one bucket holding every value (no
//     bounds); its largest value of the recent window is a gauge of its
//     own, <name>.max, since a cumulative histogram has no maximum; one
//     that publishes percentiles is a Summary instead;
//   - durations (a timer's, a time gauge's) are in the base time unit
//     (milliseconds by default), named in the unit as Micrometer names
//     it: "milliseconds";
//   - a meter's name is its dotted name (NamingConvention.dot), its tags
//     are the data points' attributes, the common tags among them; the
//     resource carries service.name and the other resource attributes,
//     and the scope is empty, as Micrometer leaves it.

// TimeUnit is a base time unit: how long one is, and its name as
// Micrometer writes it in a meter's unit (TimeUnit's, in lower case).
type TimeUnit struct {
	Length time.Duration
	Name   string
}

// Milliseconds is Micrometer's default base time unit for OTLP.
var Milliseconds = TimeUnit{time.Millisecond, "milliseconds"}

// convert builds the export of snapshots, read at now, cumulative since
// start, under resource.
func convert(snapshots []metrics.Snapshot, resource map[string]string, unit TimeUnit, start, now time.Time) *metricspb.ResourceMetrics {
	c := converter{unit: unit, start: uint64(start.UnixNano()), now: uint64(now.UnixNano())}
	var out []*metricspb.Metric
	for _, s := range snapshots {
		out = append(out, c.metric(s)...)
	}
	return &metricspb.ResourceMetrics{
		Resource:     &resourcepb.Resource{Attributes: stringAttributes(resource)},
		ScopeMetrics: []*metricspb.ScopeMetrics{{Scope: &commonpb.InstrumentationScope{}, Metrics: out}},
	}
}

type converter struct {
	unit       TimeUnit
	start, now uint64
}

// metric is s as OTLP metrics: one, or two for a distribution with a
// maximum.
func (c converter) metric(s metrics.Snapshot) []*metricspb.Metric {
	scale, unit := 1.0, s.BaseUnit
	if s.BaseUnit == "seconds" && s.Type != metrics.CounterMeter {
		// A Timer's and a TimeGauge's values are in the registry's base
		// time unit; a counter keeps the unit its binder gave it.
		scale, unit = float64(time.Second)/float64(c.unit.Length), c.unit.Name
	}
	m := &metricspb.Metric{Name: s.Name, Description: s.Description, Unit: unit}
	switch s.Type {
	case metrics.CounterMeter:
		points := make([]*metricspb.NumberDataPoint, len(s.Series))
		for i, ss := range s.Series {
			points[i] = c.number(ss, ss.Value, true)
		}
		m.Data = &metricspb.Metric_Sum{Sum: &metricspb.Sum{DataPoints: points,
			AggregationTemporality: metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE, IsMonotonic: true}}
		return []*metricspb.Metric{m}
	case metrics.GaugeMeter:
		points := make([]*metricspb.NumberDataPoint, len(s.Series))
		for i, ss := range s.Series {
			points[i] = c.number(ss, ss.Value*scale, false)
		}
		m.Data = &metricspb.Metric_Gauge{Gauge: &metricspb.Gauge{DataPoints: points}}
		return []*metricspb.Metric{m}
	}
	out := []*metricspb.Metric{m}
	if slices.ContainsFunc(s.Series, func(ss metrics.SeriesSnapshot) bool { return len(ss.Quantiles) > 0 }) {
		points := make([]*metricspb.SummaryDataPoint, len(s.Series))
		for i, ss := range s.Series {
			p := &metricspb.SummaryDataPoint{Attributes: tagAttributes(ss.Tags), StartTimeUnixNano: c.start, TimeUnixNano: c.now,
				Count: ss.Count, Sum: ss.Sum * scale}
			for _, q := range ss.Quantiles {
				p.QuantileValues = append(p.QuantileValues, &metricspb.SummaryDataPoint_ValueAtQuantile{Quantile: q.Quantile, Value: q.Value * scale})
			}
			points[i] = p
		}
		m.Data = &metricspb.Metric_Summary{Summary: &metricspb.Summary{DataPoints: points}}
	} else {
		points := make([]*metricspb.HistogramDataPoint, len(s.Series))
		for i, ss := range s.Series {
			points[i] = c.histogram(ss, scale)
		}
		m.Data = &metricspb.Metric_Histogram{Histogram: &metricspb.Histogram{DataPoints: points,
			AggregationTemporality: metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE}}
	}
	var maxima []*metricspb.NumberDataPoint
	for _, ss := range s.Series {
		if ss.HasMax {
			maxima = append(maxima, c.number(ss, ss.Max*scale, false))
		}
	}
	if len(maxima) > 0 {
		out = append(out, &metricspb.Metric{Name: s.Name + ".max", Description: s.Description, Unit: unit,
			Data: &metricspb.Metric_Gauge{Gauge: &metricspb.Gauge{DataPoints: maxima}}})
	}
	return out
}

// number is a counter's or a gauge's data point: a counter's counts from
// start, a gauge's is a value now.
func (c converter) number(ss metrics.SeriesSnapshot, v float64, cumulative bool) *metricspb.NumberDataPoint {
	p := &metricspb.NumberDataPoint{Attributes: tagAttributes(ss.Tags), TimeUnixNano: c.now,
		Value: &metricspb.NumberDataPoint_AsDouble{AsDouble: v}}
	if cumulative {
		p.StartTimeUnixNano = c.start
	}
	return p
}

// histogram is a distribution's data point. The scrape's buckets count
// cumulatively up to each bound; OTLP's count each bucket alone, with a
// last one above the last bound.
func (c converter) histogram(ss metrics.SeriesSnapshot, scale float64) *metricspb.HistogramDataPoint {
	sum := ss.Sum * scale
	p := &metricspb.HistogramDataPoint{Attributes: tagAttributes(ss.Tags), StartTimeUnixNano: c.start, TimeUnixNano: c.now,
		Count: ss.Count, Sum: &sum}
	var below uint64
	for _, b := range ss.Buckets {
		if math.IsInf(b.UpperBound, 1) {
			continue
		}
		p.ExplicitBounds = append(p.ExplicitBounds, b.UpperBound*scale)
		p.BucketCounts = append(p.BucketCounts, b.CumulativeCount-min(below, b.CumulativeCount))
		below = max(below, b.CumulativeCount)
	}
	p.BucketCounts = append(p.BucketCounts, ss.Count-min(below, ss.Count))
	return p
}

func tagAttributes(tags []metrics.Tag) []*commonpb.KeyValue {
	kvs := make([]*commonpb.KeyValue, len(tags))
	for i, t := range tags {
		kvs[i] = stringAttribute(t.Key, t.Value)
	}
	return kvs
}

func stringAttributes(attrs map[string]string) []*commonpb.KeyValue {
	kvs := make([]*commonpb.KeyValue, 0, len(attrs))
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		kvs = append(kvs, stringAttribute(k, attrs[k]))
	}
	return kvs
}

// stringAttribute is k=v, each made valid UTF-8: protobuf refuses to
// encode a string that is not, and with it the whole export.
func stringAttribute(k, v string) *commonpb.KeyValue {
	k, v = strings.ToValidUTF8(k, "\uFFFD"), strings.ToValidUTF8(v, "\uFFFD")
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

// String is the unit's name, as a setting gives it.
func (u TimeUnit) String() string { return u.Name }
