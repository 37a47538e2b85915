package metrics

import (
	"maps"
	"math"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// The registry read back as Micrometer's meters, for /actuator/metrics:
// each Prometheus family is gathered, as a scrape does, and named as the
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
	"process_open_fds":             {"process.files.open", "files"},
	"process_max_fds":              {"process.files.max", "files"},
	"messages_text_bytes_max":      {"messages.text.max", "bytes"},
}

// units are the suffixes of Prometheus names that are a base unit.
var units = []string{"seconds", "bytes"}

// meter is a Micrometer meter and the families it is read from.
type meter struct {
	name, unit string
	family     *dto.MetricFamily
	max        *dto.MetricFamily // the _max gauge of a summary or histogram
}

// meters gathers the registry, by dotted name.
func (m *HTTP) meters() map[string]meter {
	m.withRuntime()
	// A collector that fails leaves its families out and the others in,
	// as in a scrape.
	families, _ := m.registry.Gather()
	byName := make(map[string]*dto.MetricFamily, len(families))
	for _, f := range families {
		byName[f.GetName()] = f
	}
	out := make(map[string]meter, len(families))
	for _, f := range families {
		name := f.GetName()
		if base, ok := strings.CutSuffix(name, "_max"); ok && f.GetType() == dto.MetricType_GAUGE && distribution(byName[base]) {
			continue // the MAX of base
		}
		mt := meter{family: f}
		if n, ok := micrometerNames[name]; ok {
			mt.name, mt.unit = n.name, n.unit
		} else {
			mt.name, mt.unit = dotted(name, f.GetType(), byName)
		}
		if distribution(f) {
			mt.max = byName[name+"_max"]
		}
		out[mt.name] = mt
	}
	return out
}

func distribution(f *dto.MetricFamily) bool {
	return f != nil && (f.GetType() == dto.MetricType_SUMMARY || f.GetType() == dto.MetricType_HISTOGRAM)
}

// dotted is the Micrometer name and base unit of a Prometheus family.
func dotted(name string, typ dto.MetricType, byName map[string]*dto.MetricFamily) (string, string) {
	suffix := ""
	if typ == dto.MetricType_COUNTER {
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
	out := Meter{Name: mt.name, Description: mt.family.GetHelp(), BaseUnit: mt.unit}
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
	for _, s := range mt.family.GetMetric() {
		if !hasTags(s, tags) {
			continue
		}
		matched = true
		for _, l := range s.GetLabel() {
			if values[l.GetName()] == nil {
				values[l.GetName()] = map[string]bool{}
			}
			values[l.GetName()][l.GetValue()] = true
		}
		switch mt.family.GetType() {
		case dto.MetricType_COUNTER:
			add("COUNT", s.GetCounter().GetValue())
		case dto.MetricType_GAUGE:
			add("VALUE", s.GetGauge().GetValue())
		case dto.MetricType_SUMMARY:
			add("COUNT", float64(s.GetSummary().GetSampleCount()))
			add(total, s.GetSummary().GetSampleSum())
		case dto.MetricType_HISTOGRAM:
			add("COUNT", float64(s.GetHistogram().GetSampleCount()))
			add(total, s.GetHistogram().GetSampleSum())
		default:
			add("VALUE", s.GetUntyped().GetValue())
		}
	}
	if !matched {
		return Meter{}, false
	}
	if mt.max != nil {
		for _, s := range mt.max.GetMetric() {
			if hasTags(s, tags) {
				add("MAX", s.GetGauge().GetValue())
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
func hasTags(s *dto.Metric, tags []Tag) bool {
	for _, t := range tags {
		if !slices.ContainsFunc(s.GetLabel(), func(l *dto.LabelPair) bool {
			return l.GetName() == t.Key && l.GetValue() == t.Value
		}) {
			return false
		}
	}
	return true
}
