package metrics

import (
	"maps"
	"math"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// The registry read back as Micrometer's meters, for /actuator/metrics:
// each family is gathered, as a scrape does, and named as the
// Micrometer meter that PrometheusNamingConvention would have written
// under that name. There is no second bookkeeping to drift from the
// exposition, and reading costs nothing until someone asks.
//
// A family's dotted name is its name with underscores turned into dots,
// less the _total of a counter and a unit suffix (_seconds, _bytes), which
// becomes the meter's baseUnit. Where that would name two meters alike
// (go_memstats_alloc_bytes, a gauge, and go_memstats_alloc_bytes_total, a
// counter), the counter keeps ".total". A timer's or a summary's _max
// gauge is its MAX statistic rather than a meter of its own. A few names
// are Micrometer's own instead (see micrometerNames).

// Tag is a tag a meter is narrowed to: key:value of ?tag=.
type Tag struct{ Key, Value string }

// Meter is a meter in Spring Boot's /actuator/metrics/{name} shape.
type Meter struct {
	Name          string         `json:"name"`
	Description   string         `json:"description,omitempty"`
	BaseUnit      string         `json:"baseUnit,omitempty"`
	Measurements  []Measurement  `json:"measurements"`
	AvailableTags []AvailableTag `json:"availableTags"`
}

// Measurement is one statistic of a meter, summed over its series (MAX is
// the largest instead), as Spring's MetricsEndpoint merges them.
type Measurement struct {
	Statistic string  `json:"statistic"`
	Value     float64 `json:"value"`
}

// AvailableTag lists the values a tag takes among a meter's series.
type AvailableTag struct {
	Tag    string   `json:"tag"`
	Values []string `json:"values"`
}

// micrometerNames are the families whose Micrometer meter has a name of
// its own: Spring's timer, and the process metrics that Micrometer's
// binders also publish (ProcessorMetrics, FileDescriptorMetrics).
var micrometerNames = map[string]struct{ name, unit string }{
	"http_server_requests_seconds": {"http.server.requests", "seconds"},
	"process_cpu_seconds_total":    {"process.cpu.time", "seconds"},
	"process_files_open_files":     {"process.files.open", "files"},
	"process_files_max_files":      {"process.files.max", "files"},
}

// units are the suffixes of Prometheus names that are a base unit.
var units = []string{"seconds", "bytes"}

// meter is a Micrometer meter and the families it is read from.
type meter struct {
	name, unit string
	family     *family
	max        *family // the _max gauge of a summary or histogram
}

// meters gathers the registry, by dotted name.
func (m *HTTP) meters() map[string]meter {
	families := m.families()
	byName := make(map[string]*family, len(families))
	for i := range families {
		byName[families[i].name] = &families[i]
	}
	out := make(map[string]meter, len(families))
	for i := range families {
		f := &families[i]
		name := f.name
		if base, ok := strings.CutSuffix(name, "_max"); ok && f.typ == gaugeType && distribution(byName[base]) {
			continue // the MAX of base
		}
		mt := meter{family: f}
		if n, ok := micrometerNames[name]; ok {
			mt.name, mt.unit = n.name, n.unit
		} else {
			mt.name, mt.unit = dotted(name, f.typ, byName)
		}
		if distribution(f) {
			mt.max = byName[name+"_max"]
		}
		out[mt.name] = mt
	}
	return out
}

func distribution(f *family) bool {
	return f != nil && (f.typ == summaryType || f.typ == histogramType)
}

// dotted is the Micrometer name and base unit of a Prometheus family.
func dotted(name string, typ metricType, byName map[string]*family) (string, string) {
	suffix := ""
	if typ == counterType {
		if base, ok := strings.CutSuffix(name, "_total"); ok {
			name = base
			if byName[base] != nil {
				suffix = ".total" // a gauge has the name without
			}
		}
	}
	unit := ""
	for _, u := range units {
		if base, ok := strings.CutSuffix(name, "_"+u); ok && base != "" {
			name, unit = base, u
			break
		}
		// A bound written with its unit before _max (items_text_bytes_max)
		// is the meter items.text.max, in that unit.
		if base, ok := strings.CutSuffix(name, "_"+u+"_max"); ok && base != "" {
			name, unit = base+"_max", u
			break
		}
	}
	return strings.ReplaceAll(name, "_", ".") + suffix, unit
}

// MetricNames lists the meters, sorted, as /actuator/metrics does.
func (m *HTTP) MetricNames() []string {
	return slices.Sorted(maps.Keys(m.meters()))
}

// Metric returns the meter name, its statistics merged over the series
// that have every one of tags, and the other tags those series have;
// false when there is no such meter, or no series has the tags (an
// unknown tag included), as Spring answers 404 to both.
func (m *HTTP) Metric(name string, tags []Tag) (Meter, bool) {
	mt, ok := m.meters()[name]
	if !ok {
		return Meter{}, false
	}
	out := Meter{Name: mt.name, Description: mt.family.help, BaseUnit: mt.unit}
	values := map[string]map[string]bool{}
	stats := map[string]float64{}
	var order []string
	add := func(statistic string, v float64) {
		if old, ok := stats[statistic]; !ok {
			order = append(order, statistic)
			stats[statistic] = v
		} else if statistic == "MAX" {
			stats[statistic] = math.Max(old, v)
		} else {
			stats[statistic] = old + v
		}
	}
	total := "TOTAL"
	if mt.unit == "seconds" {
		total = "TOTAL_TIME"
	}
	matched := false
	for _, s := range mt.family.series {
		if !hasTags(s, tags) {
			continue
		}
		matched = true
		for _, l := range s.labels {
			if values[l.name] == nil {
				values[l.name] = map[string]bool{}
			}
			values[l.name][l.value] = true
		}
		switch mt.family.typ {
		case counterType:
			add("COUNT", s.value)
		case gaugeType:
			add("VALUE", s.value)
		case summaryType, histogramType:
			add("COUNT", float64(s.count))
			add(total, s.sum)
		}
	}
	if !matched {
		return Meter{}, false
	}
	if mt.max != nil {
		for _, s := range mt.max.series {
			if hasTags(s, tags) {
				add("MAX", s.value)
			}
		}
	}
	out.Measurements = make([]Measurement, len(order))
	for i, st := range order {
		out.Measurements[i] = Measurement{Statistic: st, Value: stats[st]}
	}
	// As Spring, the tags asked for are not offered again.
	for _, t := range tags {
		delete(values, t.Key)
	}
	out.AvailableTags = []AvailableTag{}
	for _, tag := range slices.Sorted(maps.Keys(values)) {
		out.AvailableTags = append(out.AvailableTags, AvailableTag{Tag: tag, Values: slices.Sorted(maps.Keys(values[tag]))})
	}
	return out, true
}

// hasTags reports whether a series has every one of tags.
func hasTags(s series, tags []Tag) bool {
	for _, t := range tags {
		if !slices.Contains(s.labels, labelPair{t.Key, t.Value}) {
			return false
		}
	}
	return true
}

// family is one metric family of a scrape, as the meters read it.
type family struct {
	name, help string
	typ        metricType
	series     []series
}

type metricType int

const (
	counterType metricType = iota
	gaugeType
	summaryType
	histogramType
)

// series is one series of a family: its labels and its value, which for a
// summary or a histogram is its count and sum.
type series struct {
	labels []labelPair
	value  float64 // counter and gauge
	count  uint64  // summary and histogram
	sum    float64 // summary and histogram
	// buckets (histogram, cumulative) and quantiles (summary), for the
	// OTLP export (snapshot.go).
	buckets   []Bucket
	quantiles []Quantile
}

type labelPair struct{ name, value string }

// families gathers the registry as a scrape does. What cannot be gathered
// is logged, as a scrape logs it, and the rest is read.
func (m *HTTP) families() []family {
	gathered, err := m.registry.Gather()
	if err != nil {
		scrapeLog{m.logger}.Println(err)
	}
	out := make([]family, 0, len(gathered))
	for _, mf := range gathered {
		f := family{name: mf.GetName(), help: mf.GetHelp()}
		switch mf.GetType() {
		case dto.MetricType_COUNTER:
			f.typ = counterType
		case dto.MetricType_SUMMARY:
			f.typ = summaryType
		case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
			f.typ = histogramType
		default:
			f.typ = gaugeType // gauges and untyped values
		}
		for _, mt := range mf.GetMetric() {
			s := series{labels: make([]labelPair, len(mt.GetLabel()))}
			for i, l := range mt.GetLabel() {
				s.labels[i] = labelPair{l.GetName(), l.GetValue()}
			}
			switch {
			case mt.Counter != nil:
				s.value = mt.Counter.GetValue()
			case mt.Gauge != nil:
				s.value = mt.Gauge.GetValue()
			case mt.Untyped != nil:
				s.value = mt.Untyped.GetValue()
			case mt.Summary != nil:
				s.count, s.sum = mt.Summary.GetSampleCount(), mt.Summary.GetSampleSum()
				for _, q := range mt.Summary.GetQuantile() {
					s.quantiles = append(s.quantiles, Quantile{q.GetQuantile(), q.GetValue()})
				}
			case mt.Histogram != nil:
				s.count, s.sum = mt.Histogram.GetSampleCount(), mt.Histogram.GetSampleSum()
				for _, b := range mt.Histogram.GetBucket() {
					s.buckets = append(s.buckets, Bucket{b.GetUpperBound(), b.GetCumulativeCount()})
				}
			}
			f.series = append(f.series, s)
		}
		out = append(out, f)
	}
	return out
}
