package conformance_test

// The management endpoints and the Prometheus series, compared after the
// corpus's traffic (the plain setup): each endpoint's status, Content-Type
// and the shape of its JSON (shapeOf), then the series of
// /actuator/prometheus and the labels the traffic gave them.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// managementCase is one management endpoint, compared by the shape of its
// JSON.
type managementCase struct {
	Name   string // the Case of its differences
	Target string
	Shape  shapeSpec
}

// managementCases are the endpoints compared, in the order each
// application is asked (so that each has served the same requests when
// /actuator/metrics and /actuator/prometheus count them).
var managementCases = []managementCase{
	{"actuator", "/actuator", shapeSpec{
		Values: []string{"$._links.*.templated"}}},
	{"actuator-health", "/actuator/health", shapeSpec{
		Data:   map[string][]string{"$.components": {"diskSpace", "ping"}},
		Values: []string{"$.status", "$.components.*.status", "$.groups[]"}}},
	{"actuator-health-custom", "/actuator/health/custom", shapeSpec{
		Data:   map[string][]string{"$.components": {"ping"}},
		Values: []string{"$.status", "$.components.*.status"}}},
	{"actuator-health-liveness", "/actuator/health/liveness", shapeSpec{
		Data:   map[string][]string{"$.components": nil},
		Values: []string{"$.status", "$.components.*.status"}}},
	{"actuator-info", "/actuator/info", shapeSpec{
		Values: []string{"$.app.*"}}},
	{"actuator-env", "/actuator/env", shapeSpec{
		Data: map[string][]string{"$.propertySources[].properties": {"app.greeting"}},
		Values: []string{"$.activeProfiles[]", "$.defaultProfiles[]",
			"$.propertySources[].properties.*.value"}}},
	{"actuator-env-property", "/actuator/env/app.greeting", shapeSpec{
		Values: []string{"$.activeProfiles[]", "$.defaultProfiles[]",
			"$.property.value", "$.propertySources[].property.value"}}},
	{"actuator-configprops", "/actuator/configprops", shapeSpec{
		Data:   map[string][]string{"$.contexts.*.beans": nil},
		Opaque: []string{"$.contexts.*.beans.*.properties", "$.contexts.*.beans.*.inputs"}}},
	{"actuator-loggers", "/actuator/loggers", shapeSpec{
		Data:   map[string][]string{"$.loggers": {"ROOT"}, "$.groups.*.members": nil},
		Values: []string{"$.levels[]", "$.loggers.ROOT.*"}}},
	{"actuator-loggers-root", "/actuator/loggers/ROOT", shapeSpec{
		Values: []string{"$.*"}}},
	{"actuator-mappings", "/actuator/mappings", shapeSpec{
		Data: map[string][]string{"$.contexts.*.mappings.dispatcherServlets": {"dispatcherServlet"}}}},
	{"actuator-beans", "/actuator/beans", shapeSpec{
		Data:   map[string][]string{"$.contexts.*.beans": {"isoDateFormat"}},
		Values: []string{"$.contexts.*.beans.isoDateFormat.scope"}}},
	{"actuator-metrics", "/actuator/metrics", shapeSpec{
		Data: map[string][]string{"$.names": {"http.server.requests", "process.start.time"}}}},
	{"actuator-metric", "/actuator/metrics/http.server.requests", metricShape},
	{"actuator-metric-tag", "/actuator/metrics/http.server.requests?tag=uri:/api/hello", metricShape},
}

// metricShape is one meter's document: its name, unit, statistics and tag
// names are compared, its numbers and tag values by kind.
var metricShape = shapeSpec{
	Values: []string{"$.name", "$.baseUnit", "$.measurements[].statistic", "$.availableTags[].tag"}}

// prometheusCase is the Case of the Prometheus comparison's differences.
const prometheusCase = "prometheus"

// compareManagement compares greeter's management endpoints with each
// Spring build's, checks the differences against the ledger, and returns
// Spring Boot 4's differences from 3.5.
func (f *fleet) compareManagement(t *testing.T, l *ledger) []difference {
	t.Helper()
	cases := make([]exchange, 0, len(managementCases)+1)
	names := make([]string, 0, len(managementCases)+1)
	for _, m := range managementCases {
		cases = append(cases, exchange{Name: m.Name, Method: "GET", Target: m.Target})
		names = append(names, m.Name)
	}
	// Last, so that it counts the requests above as well.
	cases = append(cases, exchange{Name: prometheusCase, Method: "GET", Target: "/actuator/prometheus"})
	names = append(names, prometheusCase)
	began := time.Now()
	answers := f.sendAll(t, cases)
	t.Logf("%s: the management endpoints and /actuator/prometheus answered all three in %v", f.setup, time.Since(began).Round(time.Millisecond))
	compare := func(a, b []answer) []difference {
		var ds []difference
		for i, m := range managementCases {
			ds = append(ds, compareShapes(m, a[i], b[i])...)
		}
		n := len(managementCases)
		return append(ds, comparePrometheus(t, a[n], b[n])...)
	}
	for k, fl := range springFlavours {
		l.ranCases(fl, names)
		l.check(t, fl, compare(answers[0], answers[k+1]))
	}
	return compare(answers[1], answers[2])
}

// compareShapes compares two answers of a management endpoint: status,
// Content-Type, and the shapes of JSON bodies (a body that is not JSON on
// both sides is compared whole, when the statuses agree).
func compareShapes(m managementCase, a, b answer) []difference {
	var out []difference
	add := func(aspect, x, y string) {
		out = append(out, difference{Case: m.Name, Aspect: aspect, Greeter: x, Spring: y})
	}
	if a.Status != b.Status {
		add("status", strconv.Itoa(a.Status), strconv.Itoa(b.Status))
	}
	if x, y := headerValue(a.Header, "Content-Type"), headerValue(b.Header, "Content-Type"); x != y {
		add("header:Content-Type", x, y)
	}
	var x, y any
	if isJSON(a.Header.Get("Content-Type")) && isJSON(b.Header.Get("Content-Type")) &&
		json.Unmarshal(a.Body, &x) == nil && json.Unmarshal(b.Body, &y) == nil {
		var ds [][3]string
		compareJSON("$", m.Shape.shapeOf("$", x), m.Shape.shapeOf("$", y), false, &ds)
		for _, d := range ds {
			add(d[0], d[1], d[2])
		}
	} else if a.Status == b.Status && !bytes.Equal(a.Body, b.Body) {
		add("body", quoteBody(a.Body), quoteBody(b.Body))
	}
	return out
}

// shapeSpec says how shapeOf reduces one endpoint's JSON to its shape.
// Its paths are the shape's: $ the root, .name a member, [] an array's
// items, .* the values of a map whose keys are data; * in a spec's path
// matches any run of characters, as in differences.txt.
type shapeSpec struct {
	// Data are the maps whose keys are data (property names, bean
	// names, logger names), each with the keys that both sides must have;
	// and the arrays whose items are data strings (metric names), each
	// with the items that both must hold.
	Data map[string][]string
	// Values are compared as they are, not by kind: the members that
	// hold one of a few words (a status, a level, a statistic).
	Values []string
	// Opaque values are compared by kind only: trees whose member names
	// are data at every depth (configprops' properties).
	Opaque []string
}

// Shapes. A scalar is its kind (these strings), or its value at a
// Values path; an empty array's items are noItems; a listed item that an
// array holds is present.
const (
	kindString  = "<string>"
	kindNumber  = "<number>"
	kindBoolean = "<boolean>"
	kindNull    = "<null>"
	kindObject  = "<object>"
	kindArray   = "<array>"
	noItems     = "(no items)"
	present     = "(present)"
)

// shapeOf reduces a JSON value at path to its shape, a JSON value itself,
// so that compareJSON compares two shapes member by member:
//   - an object keeps its members, each reduced;
//   - a map whose keys are data (Data) becomes {"*": the merged shape of
//     its values (mergeShapes), "KEY": the shape of each key that both
//     must have, where it has it};
//   - an array becomes {"[]": the merged shape of its items, "[ITEM]":
//     present for each item that both must hold, where it holds it};
//   - a scalar becomes its kind, unless its path is one of Values.
func (s *shapeSpec) shapeOf(path string, v any) any {
	if s.matches(s.Opaque, path) {
		return kindOf(v)
	}
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		must, data := s.dataAt(path)
		if !data {
			for k, x := range v {
				out[k] = s.shapeOf(path+"."+k, x)
			}
			return out
		}
		var all any
		for _, k := range slices.Sorted(maps.Keys(v)) {
			all = mergeShapes(all, s.shapeOf(path+".*", v[k]))
		}
		if all != nil {
			out["*"] = all
		}
		for _, k := range must {
			if x, ok := v[k]; ok {
				out[k] = s.shapeOf(path+"."+k, x)
			}
		}
		return out
	case []any:
		var all any = noItems
		for _, x := range v {
			all = mergeShapes(all, s.shapeOf(path+"[]", x))
		}
		out := map[string]any{"[]": all}
		must, _ := s.dataAt(path)
		for _, item := range must {
			if slices.Contains(v, any(item)) {
				out["["+item+"]"] = present
			}
		}
		return out
	}
	if s.matches(s.Values, path) {
		return v
	}
	return kindOf(v)
}

// dataAt says whether the value at path is data-keyed (Data), and which
// keys or items both sides must have.
func (s *shapeSpec) dataAt(path string) ([]string, bool) {
	for p, must := range s.Data {
		if glob(p).MatchString(path) {
			return must, true
		}
	}
	return nil, false
}

func (s *shapeSpec) matches(patterns []string, path string) bool {
	for _, p := range patterns {
		if glob(p).MatchString(path) {
			return true
		}
	}
	return false
}

// kindOf is a JSON value's kind, as a shape shows it.
func kindOf(v any) string {
	switch v.(type) {
	case string:
		return kindString
	case float64:
		return kindNumber
	case bool:
		return kindBoolean
	case nil:
		return kindNull
	case []any:
		return kindArray
	}
	return kindObject
}

// mergeShapes is the shape that a and b, two items of one array or two
// values of one data-keyed map, have together: objects merge member by
// member (a member of either is a member of both); a null, an empty
// array's items and nil (nothing merged yet) give way to the other side,
// so that a value that is sometimes missing is compared where it is
// there; anything else that differs becomes the alternatives "x | y",
// kinds or values, sorted.
func mergeShapes(a, b any) any {
	if a == nil || a == kindNull || a == noItems {
		return b
	}
	if b == nil || b == kindNull || b == noItems {
		return a
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		out := maps.Clone(am)
		for k, v := range bm {
			out[k] = mergeShapes(out[k], v)
		}
		return out
	}
	if jsonEqual(a, b) {
		return a
	}
	set := map[string]bool{}
	for _, v := range []any{a, b} {
		for _, alt := range strings.Split(alternative(v), " | ") {
			set[alt] = true
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(set)), " | ")
}

// alternative shows one side of mergeShapes' alternatives: an object or an
// array shape by its kind, a string as it is, another value as JSON.
func alternative(v any) string {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["[]"]; ok {
			return kindArray
		}
		return kindObject
	case string:
		return v
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// runtimeSeries are the Prometheus series set aside, by the prefix of
// their names: each measures the runtime or the server the application
// runs on, not the application, and has no counterpart on the other side
// by nature. Every other series is compared; where one side lacks it, the
// difference is listed in differences.txt with its reason.
var runtimeSeries = []struct{ Prefix, Why string }{
	// The JVM's memory pools, collector, class loading, threads, buffers
	// and JIT compiler (Micrometer's JvmMemoryMetrics, JvmGcMetrics,
	// ClassLoaderMetrics, JvmThreadMetrics, JvmCompilationMetrics,
	// JvmInfoMetrics): a Go binary has none of them.
	{"jvm_", "the JVM's"},
	// client_golang's Go runtime collector (heap, GC, goroutines,
	// scheduler, build): jvm_'s counterpart, which a JVM has none of.
	{"go_", "the Go runtime's"},
	// Tomcat's session manager (TomcatMetrics): greeter has no servlet
	// container; its own session store counts as http_sessions_*, which
	// are compared.
	{"tomcat_", "Tomcat's"},
	// The thread pools of Spring's task executors (applicationTaskExecutor,
	// ExecutorServiceMetrics): goroutines are not pooled.
	{"executor_", "Java's thread pools'"},
	// Logback's events by level (LogbackMetrics): greeter logs with
	// log/slog.
	{"logback_", "Logback's"},
}

// setAside says whether a series is one of runtimeSeries.
func setAside(name string) bool {
	for _, r := range runtimeSeries {
		if strings.HasPrefix(name, r.Prefix) {
			return true
		}
	}
	return false
}

// series are the samples of a scrape by name (a summary's NAME_count and
// NAME_sum, a histogram's NAME_bucket..., as the text format writes them):
// each sample's labels.
type series map[string][]map[string]string

// parsePrometheus reads a scrape in the Prometheus text format.
func parsePrometheus(body []byte) (series, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	out := series{}
	for name, fam := range families {
		for _, m := range fam.GetMetric() {
			labels := map[string]string{}
			for _, lp := range m.GetLabel() {
				labels[lp.GetName()] = lp.GetValue()
			}
			with := func(k, v string) map[string]string {
				l := maps.Clone(labels)
				l[k] = v
				return l
			}
			switch fam.GetType() {
			case dto.MetricType_SUMMARY:
				out[name+"_count"] = append(out[name+"_count"], with("{count}", strconv.FormatUint(m.GetSummary().GetSampleCount(), 10)))
				out[name+"_sum"] = append(out[name+"_sum"], labels)
				for _, q := range m.GetSummary().GetQuantile() {
					out[name] = append(out[name], with("quantile", fmt.Sprint(q.GetQuantile())))
				}
			case dto.MetricType_HISTOGRAM:
				out[name+"_count"] = append(out[name+"_count"], with("{count}", strconv.FormatUint(m.GetHistogram().GetSampleCount(), 10)))
				out[name+"_sum"] = append(out[name+"_sum"], labels)
				for _, b := range m.GetHistogram().GetBucket() {
					out[name+"_bucket"] = append(out[name+"_bucket"], with("le", fmt.Sprint(b.GetUpperBound())))
				}
			default:
				out[name] = append(out[name], labels)
			}
		}
	}
	return out, nil
}

// labelNames are the label names of a series' samples, sorted, without
// the count parsePrometheus keeps.
func (s series) labelNames(name string) string {
	set := map[string]bool{}
	for _, l := range s[name] {
		for k := range l {
			if k != "{count}" {
				set[k] = true
			}
		}
	}
	return "{" + strings.Join(slices.Sorted(maps.Keys(set)), ",") + "}"
}

// requestsSeries is the series whose label values the corpus's traffic
// decides, and requestLabels the labels compared, besides uri, by which
// they are grouped (application is the setting's, the same on all sides).
const requestsSeries = "http_server_requests_seconds_count"

var requestLabels = []string{"method", "status", "outcome", "exception", "error"}

// comparePrometheus compares two scrapes of /actuator/prometheus: status
// and Content-Type; the set of series, each a name and its label names,
// less those set aside (runtimeSeries): aspect series:NAME{LABELS} where
// one side lacks it, labels:NAME where both have it with other labels;
// and, for each uri of the request timer, the requests counted under it,
// by method, status, outcome, exception and error, with their counts:
// aspect values:http_server_requests_seconds_count{uri="..."}.
func comparePrometheus(t *testing.T, a, b answer) []difference {
	t.Helper()
	var out []difference
	add := func(aspect, x, y string) {
		out = append(out, difference{Case: prometheusCase, Aspect: aspect, Greeter: x, Spring: y})
	}
	if a.Status != b.Status {
		add("status", strconv.Itoa(a.Status), strconv.Itoa(b.Status))
	}
	if x, y := headerValue(a.Header, "Content-Type"), headerValue(b.Header, "Content-Type"); x != y {
		add("header:Content-Type", x, y)
	}
	if a.Status != 200 || b.Status != 200 {
		return out
	}
	x, err := parsePrometheus(a.Body)
	if err != nil {
		t.Errorf("/actuator/prometheus: %v", err)
		return out
	}
	y, err := parsePrometheus(b.Body)
	if err != nil {
		t.Errorf("/actuator/prometheus: %v", err)
		return out
	}
	names := map[string]bool{}
	for n := range x {
		names[n] = true
	}
	for n := range y {
		names[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if setAside(n) {
			continue
		}
		_, inX := x[n]
		_, inY := y[n]
		switch {
		case !inX:
			add("series:"+n+y.labelNames(n), absent, "present")
		case !inY:
			add("series:"+n+x.labelNames(n), "present", absent)
		case x.labelNames(n) != y.labelNames(n):
			add("labels:"+n, x.labelNames(n), y.labelNames(n))
		}
	}
	xs, ys := x.requestsByURI(), y.requestsByURI()
	uris := map[string]bool{}
	for u := range xs {
		uris[u] = true
	}
	for u := range ys {
		uris[u] = true
	}
	for _, u := range slices.Sorted(maps.Keys(uris)) {
		onlyX, onlyY := setDifference(xs[u], ys[u]), setDifference(ys[u], xs[u])
		if len(onlyX) == 0 && len(onlyY) == 0 {
			continue
		}
		add(fmt.Sprintf("values:%s{uri=%q}", requestsSeries, u), requestList(xs[u], onlyX), requestList(ys[u], onlyY))
	}
	return out
}

// requestsByURI lists the request timer's samples by uri: each
// "METHOD STATUS OUTCOME exception=E error=R ×COUNT".
func (s series) requestsByURI() map[string][]string {
	out := map[string][]string{}
	for _, l := range s[requestsSeries] {
		vs := make([]string, 0, len(requestLabels)+1)
		for _, k := range requestLabels {
			v, ok := l[k]
			if !ok {
				v = absent
			}
			if k == "exception" || k == "error" {
				v = k + "=" + v
			}
			vs = append(vs, v)
		}
		vs = append(vs, "×"+l["{count}"])
		out[l["uri"]] = append(out[l["uri"]], strings.Join(vs, " "))
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// setDifference is what a holds that b does not.
func setDifference(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// requestList shows one side of a uri's difference: the samples only it
// has, or absent when it has no sample of the uri at all.
func requestList(all, only []string) string {
	if len(all) == 0 {
		return absent
	}
	if len(only) == 0 {
		return "(the same)"
	}
	return strings.Join(only, "; ")
}

// globs holds the spec's paths compiled, by path.
var globs sync.Map

// glob compiles a spec's path as differences.txt's patterns are
// compiled, once.
func glob(p string) *regexp.Regexp {
	if re, ok := globs.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re := pattern(p)
	globs.Store(p, re)
	return re
}
