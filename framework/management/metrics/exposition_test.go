package metrics

import (
	"math"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// expose writes families as a scrape with the headers given would get
// them, and returns the response.
func expose(families []family, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", "/metrics", nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		r.Header.Add(k, v)
	}
	w := httptest.NewRecorder()
	serveExposition(w, r, families)
	return w
}

const openMetricsAccept = "Accept: application/openmetrics-text;version=1.0.0"

// escapes has a HELP and a label value with every character that must
// be escaped.
var escapes = []family{{
	name: "escapes", help: "back\\slash, \"quoted\",\nnew line", typ: gaugeType,
	series: []series{{labels: []labelPair{{"path", "C:\\dir \"x\"\nnext"}}, value: 1}},
}}

func TestEscaping(t *testing.T) {
	// The text format escapes backslash and newline in HELP, and the
	// double quote too in label values; OpenMetrics escapes all three in
	// both.
	const sample = `escapes{path="C:\\dir \"x\"\nnext"}`
	for _, c := range []struct {
		accept, want string
	}{
		{"", "# HELP escapes back\\\\slash, \"quoted\",\\nnew line\n# TYPE escapes gauge\n" + sample + " 1\n"},
		{openMetricsAccept, "# HELP escapes back\\\\slash, \\\"quoted\\\",\\nnew line\n# TYPE escapes gauge\n" + sample + " 1.0\n# EOF\n"},
	} {
		if got := expose(escapes, c.accept).Body.String(); got != c.want {
			t.Errorf("Accept %q:\n%s\nwant\n%s", c.accept, got, c.want)
		}
	}
}

func TestSpecialFloats(t *testing.T) {
	values := []float64{0, 1, -1, 0.5, 100, 1e6, 1.5e-7, math.MaxInt64, math.NaN(), math.Inf(1), math.Inf(-1)}
	var f []family
	for _, v := range values {
		f = append(f, family{name: "v", typ: gaugeType, series: []series{{value: v}}})
	}
	// As expfmt: strconv's shortest 'g' form; OpenMetrics adds ".0" where
	// that would read as an integer.
	text := []string{"0", "1", "-1", "0.5", "100", "1e+06", "1.5e-07", "9.223372036854776e+18", "NaN", "+Inf", "-Inf"}
	openMetrics := []string{"0.0", "1.0", "-1.0", "0.5", "100.0", "1e+06", "1.5e-07", "9.223372036854776e+18", "NaN", "+Inf", "-Inf"}
	for i := range values {
		for _, c := range []struct {
			accept, want string
		}{{"", text[i]}, {openMetricsAccept, openMetrics[i]}} {
			body := expose(f[i:i+1], c.accept).Body.String()
			if !strings.Contains(body, "\nv "+c.want+"\n") {
				t.Errorf("%v with Accept %q:\n%s\nwant v %s", values[i], c.accept, body, c.want)
			}
		}
	}
}

func TestOpenMetricsCounters(t *testing.T) {
	counters := []family{
		{name: "requests_total", help: "Requests.", typ: counterType, series: []series{{value: 3}}},
		{name: "untotalled", help: "A counter without _total.", typ: counterType, series: []series{{value: 2}}},
	}
	const want = "# HELP requests Requests.\n# TYPE requests counter\nrequests_total 3.0\n" +
		"# HELP untotalled A counter without _total.\n# TYPE untotalled unknown\nuntotalled 2.0\n# EOF\n"
	if got := expose(counters, openMetricsAccept).Body.String(); got != want {
		t.Errorf("OpenMetrics counters:\n%s\nwant\n%s", got, want)
	}
	const wantText = "# HELP requests_total Requests.\n# TYPE requests_total counter\nrequests_total 3\n" +
		"# HELP untotalled A counter without _total.\n# TYPE untotalled counter\nuntotalled 2\n"
	if got := expose(counters).Body.String(); got != wantText {
		t.Errorf("text counters:\n%s\nwant\n%s", got, wantText)
	}
}

func TestUnit(t *testing.T) {
	f := []family{{name: "go_gc_gogc_percent", help: "GOGC.", unit: "percent", typ: gaugeType, series: []series{{value: 100}}}}
	if got := expose(f, openMetricsAccept).Body.String(); !strings.Contains(got, "# TYPE go_gc_gogc_percent gauge\n# UNIT go_gc_gogc_percent percent\n") {
		t.Errorf("OpenMetrics lacks the unit:\n%s", got)
	}
	if got := expose(f).Body.String(); strings.Contains(got, "UNIT") {
		t.Errorf("the text format has a unit:\n%s", got)
	}
}

func TestHistogram(t *testing.T) {
	f := []family{{name: "latency_seconds", help: "Latency.", typ: histogramType, series: []series{{
		labels: []labelPair{{"uri", "/a"}}, count: 2_000_000, sum: 1.5,
		buckets: []bucket{{0.001, 1}, {0.5, 1_000_000}},
	}}}}
	// The text format writes counts as floats, as expfmt does.
	const text = "# HELP latency_seconds Latency.\n# TYPE latency_seconds histogram\n" +
		`latency_seconds_bucket{uri="/a",le="0.001"} 1` + "\n" +
		`latency_seconds_bucket{uri="/a",le="0.5"} 1e+06` + "\n" +
		`latency_seconds_bucket{uri="/a",le="+Inf"} 2e+06` + "\n" +
		`latency_seconds_sum{uri="/a"} 1.5` + "\n" +
		`latency_seconds_count{uri="/a"} 2e+06` + "\n"
	if got := expose(f).Body.String(); got != text {
		t.Errorf("text:\n%s\nwant\n%s", got, text)
	}
	const openMetrics = "# HELP latency_seconds Latency.\n# TYPE latency_seconds histogram\n" +
		`latency_seconds_bucket{uri="/a",le="0.001"} 1` + "\n" +
		`latency_seconds_bucket{uri="/a",le="0.5"} 1000000` + "\n" +
		`latency_seconds_bucket{uri="/a",le="+Inf"} 2000000` + "\n" +
		`latency_seconds_sum{uri="/a"} 1.5` + "\n" +
		`latency_seconds_count{uri="/a"} 2000000` + "\n# EOF\n"
	if got := expose(f, openMetricsAccept).Body.String(); got != openMetrics {
		t.Errorf("OpenMetrics:\n%s\nwant\n%s", got, openMetrics)
	}
}

func TestSummary(t *testing.T) {
	f := []family{{name: "pause_seconds", help: "Pauses.", typ: summaryType, series: []series{{
		count: 3, sum: 0.25, quantiles: []quantile{{0, 0.01}, {0.5, 0.05}, {1, 0.2}},
	}}}}
	const text = "# HELP pause_seconds Pauses.\n# TYPE pause_seconds summary\n" +
		`pause_seconds{quantile="0"} 0.01` + "\n" +
		`pause_seconds{quantile="0.5"} 0.05` + "\n" +
		`pause_seconds{quantile="1"} 0.2` + "\n" +
		"pause_seconds_sum 0.25\npause_seconds_count 3\n"
	if got := expose(f).Body.String(); got != text {
		t.Errorf("text:\n%s\nwant\n%s", got, text)
	}
	const openMetrics = "# HELP pause_seconds Pauses.\n# TYPE pause_seconds summary\n" +
		`pause_seconds{quantile="0.0"} 0.01` + "\n" +
		`pause_seconds{quantile="0.5"} 0.05` + "\n" +
		`pause_seconds{quantile="1.0"} 0.2` + "\n" +
		"pause_seconds_sum 0.25\npause_seconds_count 3\n# EOF\n"
	if got := expose(f, openMetricsAccept).Body.String(); got != openMetrics {
		t.Errorf("OpenMetrics:\n%s\nwant\n%s", got, openMetrics)
	}
}

func TestNameFilter(t *testing.T) {
	f := []family{single("a", "A.", gaugeType, 1), single("b", "B.", gaugeType, 2), single("c", "C.", gaugeType, 3)}
	r := httptest.NewRequest("GET", "/metrics?name[]=a&name[]=c", nil)
	w := httptest.NewRecorder()
	serveExposition(w, r, f)
	if got, want := w.Body.String(), "# HELP a A.\n# TYPE a gauge\na 1\n# HELP c C.\n# TYPE c gauge\nc 3\n"; got != want {
		t.Errorf("name[]=a&name[]=c:\n%s\nwant\n%s", got, want)
	}
}

// TestGatherOrder: families by name, series by label values, as
// client_golang's registry orders them; families without series left out.
func TestGatherOrder(t *testing.T) {
	var r registry
	r.register(func() []family {
		return []family{
			{name: "b", typ: gaugeType, series: []series{
				{labels: []labelPair{{"k", "y"}, {"l", "a"}}},
				{labels: []labelPair{{"k", "x"}, {"l", "b"}}},
				{labels: []labelPair{{"k", "x"}, {"l", "a"}}},
			}},
			{name: "empty", typ: gaugeType},
		}
	}, func() []family { return []family{single("a", "", gaugeType, 1)} })
	var got []string
	for _, f := range r.gather() {
		for _, s := range f.series {
			got = append(got, f.name+labelString(s.labels))
		}
	}
	if want := "a b{x,a} b{x,b} b{y,a}"; strings.Join(got, " ") != want {
		t.Errorf("gathered %q, want %q", strings.Join(got, " "), want)
	}
}

func labelString(labels []labelPair) string {
	if len(labels) == 0 {
		return ""
	}
	var values []string
	for _, l := range labels {
		values = append(values, l.value)
	}
	return "{" + strings.Join(values, ",") + "}"
}

// TestPromtoolParses checks, with promtool, that the writer's escapes and
// special values are read back as Prometheus reads them.
func TestPromtoolParses(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not on PATH (Debian's prometheus package has it): the exposition is not checked")
	}
	f := append([]family{
		{name: "odd_values", help: "Values promtool must parse.", typ: gaugeType, series: []series{
			{labels: []labelPair{{"v", "nan"}}, value: math.NaN()},
			{labels: []labelPair{{"v", "+inf"}}, value: math.Inf(1)},
			{labels: []labelPair{{"v", "-inf"}}, value: math.Inf(-1)},
			{labels: []labelPair{{"v", "small"}}, value: 1.5e-7},
		}},
		{name: "latency_seconds", help: "Latency.", typ: histogramType, series: []series{{count: 2, sum: 1, buckets: []bucket{{0.5, 1}}}}},
		{name: "pause_seconds", help: "Pauses.", typ: summaryType, series: []series{{count: 1, sum: 0.5, quantiles: []quantile{{0.5, 0.5}}}}},
	}, escapes...)
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(expose(f).Body.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestRuntimeAndProcessFamilies checks, through the HTTP handler, that a
// scrape has the runtime and process families client_golang's collectors
// gave, with their types.
func TestRuntimeAndProcessFamilies(t *testing.T) {
	m := New(Options{})
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if w.Code != http.StatusOK {
		t.Fatalf("answered %d", w.Code)
	}
	body := w.Body.String()
	want := []string{
		"# TYPE go_gc_duration_seconds summary\n", `go_gc_duration_seconds{quantile="0.75"} `,
		"# TYPE go_gc_gogc_percent gauge\n", "# TYPE go_gc_gomemlimit_bytes gauge\n", "# TYPE go_goroutines gauge\n",
		"# TYPE go_info gauge\n", `go_info{version="go`,
		"# TYPE go_memstats_alloc_bytes gauge\n", "# TYPE go_memstats_alloc_bytes_total counter\n",
		"# TYPE go_memstats_buck_hash_sys_bytes gauge\n", "# TYPE go_memstats_frees_total counter\n",
		"# TYPE go_memstats_gc_sys_bytes gauge\n", "# TYPE go_memstats_heap_alloc_bytes gauge\n",
		"# TYPE go_memstats_heap_idle_bytes gauge\n", "# TYPE go_memstats_heap_inuse_bytes gauge\n",
		"# TYPE go_memstats_heap_objects gauge\n", "# TYPE go_memstats_heap_released_bytes gauge\n",
		"# TYPE go_memstats_heap_sys_bytes gauge\n", "# TYPE go_memstats_last_gc_time_seconds gauge\n",
		"# TYPE go_memstats_mallocs_total counter\n", "# TYPE go_memstats_mcache_inuse_bytes gauge\n",
		"# TYPE go_memstats_mcache_sys_bytes gauge\n", "# TYPE go_memstats_mspan_inuse_bytes gauge\n",
		"# TYPE go_memstats_mspan_sys_bytes gauge\n", "# TYPE go_memstats_next_gc_bytes gauge\n",
		"# TYPE go_memstats_other_sys_bytes gauge\n", "# TYPE go_memstats_stack_inuse_bytes gauge\n",
		"# TYPE go_memstats_stack_sys_bytes gauge\n", "# TYPE go_memstats_sys_bytes gauge\n",
		"# TYPE go_sched_gomaxprocs_threads gauge\n", "# TYPE go_threads gauge\n",
	}
	if runtime.GOOS == "linux" { // the process metrics are read from /proc
		want = append(want,
			"# TYPE process_cpu_seconds_total counter\n", "# TYPE process_max_fds gauge\n",
			"# TYPE process_network_receive_bytes_total counter\n", "# TYPE process_network_transmit_bytes_total counter\n",
			"# TYPE process_open_fds gauge\n", "# TYPE process_resident_memory_bytes gauge\n",
			"# TYPE process_start_time_seconds gauge\n", "# TYPE process_virtual_memory_bytes gauge\n",
			"# TYPE process_virtual_memory_max_bytes gauge\n")
	}
	for _, want := range want {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q", want)
		}
	}
}
