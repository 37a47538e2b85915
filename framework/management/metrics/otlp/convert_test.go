package otlp

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/springport/greeter/framework/management/metrics"
)

// A timer published with its percentiles histogram is an explicit-bucket
// histogram in the base time unit, each bucket counting alone (the
// scrape's count cumulatively), the last above the last bound; its
// maximum is the gauge <name>.max; a quantile summary stays a summary.
func TestConvertsATimersHistogram(t *testing.T) {
	snap := []metrics.Snapshot{
		{Name: "http.server.requests", BaseUnit: "seconds", Type: metrics.DistributionMeter, Series: []metrics.SeriesSnapshot{{
			Tags: []metrics.Tag{{Key: "uri", Value: "/orders"}}, Count: 5, Sum: 0.75, Max: 0.5, HasMax: true,
			Buckets: []metrics.Bucket{{UpperBound: 0.1, CumulativeCount: 2}, {UpperBound: 0.25, CumulativeCount: 4}, {UpperBound: math.Inf(1), CumulativeCount: 5}},
		}}},
		{Name: "go.gc.duration", BaseUnit: "seconds", Type: metrics.DistributionMeter, Series: []metrics.SeriesSnapshot{{
			Count: 2, Sum: 0.002, Quantiles: []metrics.Quantile{{Quantile: 0.5, Value: 0.001}},
		}}},
	}
	rm := convert(snap, map[string]string{"service.name": "shop"}, Milliseconds, time.Unix(1, 0), time.Unix(2, 0))
	ms := rm.ScopeMetrics[0].Metrics
	if len(ms) != 3 || ms[0].Name != "http.server.requests" || ms[1].Name != "http.server.requests.max" || ms[2].Name != "go.gc.duration" {
		t.Fatalf("metrics %v", ms)
	}
	p := ms[0].GetHistogram().DataPoints[0]
	if !slices.Equal(p.ExplicitBounds, []float64{100, 250}) || !slices.Equal(p.BucketCounts, []uint64{2, 2, 1}) || p.GetSum() != 750 || p.Count != 5 ||
		p.StartTimeUnixNano != uint64(time.Second) || p.TimeUnixNano != uint64(2*time.Second) {
		t.Errorf("histogram point %v: want bounds 100, 250 ms, counts 2, 2, 1, sum 750 ms", p)
	}
	if v := ms[1].GetGauge().DataPoints[0].GetAsDouble(); v != 500 || ms[1].Unit != "milliseconds" {
		t.Errorf("max %v %s, want 500 milliseconds", v, ms[1].Unit)
	}
	q := ms[2].GetSummary().DataPoints[0]
	if q.Sum != 2 || q.QuantileValues[0].Value != 1 {
		t.Errorf("summary point %v: want sum 2 ms, median 1 ms", q)
	}
}
