package boot_test

// End-to-end tests of the metrics: /actuator/prometheus in Micrometer's
// names, tags and types, OpenMetrics, bounded series, and
// /actuator/metrics in Spring's shapes, the service's gauges included.

import (
	"fmt"
	"mime"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/promtooltest"
)

const helloSeries = `{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/hello"}`

var seriesLine = regexp.MustCompile(`(?m)^http_server_requests_seconds_count\{[^}]*\} \d+$`)

// TestPrometheus scrapes the metrics after some traffic and a scan of
// random paths: the series count must not grow with the scan, as the uri
// tag is the route's pattern, not the raw path.
func TestPrometheus(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll}, nil)
	send(t, nil, "GET", s.URL+"/hello/1", "")
	send(t, nil, "GET", s.URL+"/hello/2", "")
	send(t, nil, "GET", s.URL+"/hello/x", "")
	scan := func(n int) int {
		for i := range n {
			send(t, nil, "GET", fmt.Sprintf("%s/scan/%d/%d", s.URL, n, i), "")
			send(t, nil, "BREW", fmt.Sprintf("%s/hello/%d", s.URL, i), "")
		}
		r := send(t, nil, "GET", s.URL+"/actuator/prometheus", "")
		// The handler adds a parameter of its own, as promhttp did (escaping=underscores).
		mt, params, err := mime.ParseMediaType(r.header.Get("Content-Type"))
		if r.status != 200 || err != nil || mt != "text/plain" || params["version"] != "0.0.4" || params["charset"] != "utf-8" {
			t.Fatalf("/actuator/prometheus: %d %q, want the text format 0.0.4 in UTF-8", r.status, r.header.Get("Content-Type"))
		}
		return len(seriesLine.FindAllString(r.body, -1))
	}
	scan(0) // the scrape itself is a route of its own: count it in
	before := scan(50)
	after := scan(300)
	if after != before {
		t.Errorf("%d series after scanning 50 random paths, %d after 300 more: labels must not follow raw paths", before, after)
	}
	body := send(t, nil, "GET", s.URL+"/actuator/prometheus", "").body
	for _, want := range []string{
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/hello/{n}"} 2`,
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="400",uri="/hello/{n}"} 1`,
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="404",uri="NOT_FOUND"} 350`,
		`http_server_requests_seconds_count{error="none",exception="none",method="other",outcome="CLIENT_ERROR",status="405",uri="UNKNOWN"} 350`,
		`http_server_requests_seconds_max{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/hello/{n}"} `,
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/actuator/prometheus lacks %s", want)
		}
	}
	if strings.Contains(body, "http_server_requests_seconds_bucket") {
		t.Error("/actuator/prometheus has buckets without management.metrics.distribution.percentiles-histogram.http.server.requests")
	}
}

// TestMicrometerPrometheus: the request metrics have the names, the tags
// and the types that Micrometer's Prometheus registry gives Spring MVC's,
// buckets only with the percentiles histogram, and promtool accepts the
// exposition in both shapes.
func TestMicrometerPrometheus(t *testing.T) {
	t.Parallel()
	for _, histogram := range []bool{false, true} {
		args := []string{exposeAll}
		if histogram {
			args = append(args, "--management.metrics.distribution.percentiles-histogram.http.server.requests=true")
		}
		s := start(t, args, nil)
		for range 3 {
			send(t, nil, "GET", s.URL+"/hello", "")
		}
		body := send(t, nil, "GET", s.URL+"/actuator/prometheus", "").body
		for _, want := range []string{
			"http_server_requests_seconds_count" + helloSeries + " 3\n",
			"http_server_requests_seconds_sum" + helloSeries + " ",
			"http_server_requests_seconds_max" + helloSeries + " ",
			"# TYPE http_server_requests_seconds_max gauge\n",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("histogram %v: /actuator/prometheus lacks %s", histogram, want)
			}
		}
		bucket := "http_server_requests_seconds_bucket" + strings.TrimSuffix(helloSeries, "}") + `,le="+Inf"} 3`
		if got := strings.Contains(body, bucket); got != histogram {
			t.Errorf("histogram %v: /actuator/prometheus has buckets: %v", histogram, got)
		}
		typ := map[bool]string{false: "summary", true: "histogram"}[histogram]
		if !strings.Contains(body, "# TYPE http_server_requests_seconds "+typ+"\n") {
			t.Errorf("histogram %v: http_server_requests_seconds is not a %s", histogram, typ)
		}
		promtoolCheck(t, body)
	}
}

// promtoolCheck runs promtool check metrics on an exposition, when
// promtool is installed (.ci/run installs it).
func promtoolCheck(t *testing.T, exposition string) {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Log("promtool is not on PATH (Debian's prometheus package has it): the exposition is not checked with it")
		return
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(exposition)
	if out, err := cmd.CombinedOutput(); err != nil && !promtooltest.OnlyMicrometersLint(err, out) {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestOpenMetrics: Prometheus asks for OpenMetrics first, and gets it.
func TestOpenMetrics(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll}, nil)
	send(t, nil, "GET", s.URL+"/hello", "")
	const prometheusAccept = "application/openmetrics-text;version=1.0.0;escaping=underscores;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=underscores;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1"
	r := send(t, nil, "GET", s.URL+"/actuator/prometheus", "", "Accept: "+prometheusAccept)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/openmetrics-text; version=1.0.0") {
		t.Fatalf("answered %d %q, want OpenMetrics 1.0.0", r.status, r.header.Get("Content-Type"))
	}
	if !strings.HasSuffix(r.body, "# EOF\n") || !strings.Contains(r.body, "http_server_requests_seconds_count"+helloSeries+" 1\n") {
		t.Errorf("not the OpenMetrics exposition of the requests:\n%.1000s", r.body)
	}
	// Protobuf, which Prometheus asks for first to scrape native
	// histograms, is served too.
	r = send(t, nil, "GET", s.URL+"/actuator/prometheus", "", "Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited")
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited") {
		t.Errorf("protobuf: answered %d %q", r.status, r.header.Get("Content-Type"))
	}
	// What none of the formats is refused.
	r = send(t, nil, "GET", s.URL+"/actuator/prometheus", "", "Accept: application/json")
	if r.status != 406 {
		t.Errorf("Accept: application/json answered %d %q, want 406", r.status, r.header.Get("Content-Type"))
	}
}

type metricsNames struct {
	Names []string `json:"names"`
}

type meter struct {
	Name         string `json:"name"`
	BaseUnit     string `json:"baseUnit"`
	Measurements []struct {
		Statistic string  `json:"statistic"`
		Value     float64 `json:"value"`
	} `json:"measurements"`
	AvailableTags []struct {
		Tag    string   `json:"tag"`
		Values []string `json:"values"`
	} `json:"availableTags"`
}

// TestActuatorMetrics: /actuator/metrics and /actuator/metrics/{name} in
// Spring's shapes, read from the registry that /actuator/prometheus
// serves, the service's gauges included.
func TestActuatorMetrics(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll}, nil)
	send(t, nil, "GET", s.URL+"/hello", "")
	send(t, nil, "GET", s.URL+"/hello", "")
	send(t, nil, "GET", s.URL+"/nowhere", "")

	names := decode[metricsNames](t, send(t, nil, "GET", s.URL+"/actuator/metrics", ""))
	for _, want := range []string{"http.server.requests", "http.sessions.active", "tester.store.up",
		"go.goroutines", "process.cpu.time", "process.start.time"} {
		if !strings.Contains(strings.Join(names.Names, " ")+" ", want+" ") {
			t.Errorf("/actuator/metrics lacks %s: %v", want, names.Names)
		}
	}

	r := send(t, nil, "GET", s.URL+"/actuator/metrics/http.server.requests?tag=uri:/hello", "")
	m := decode[meter](t, r)
	if m.Name != "http.server.requests" || m.BaseUnit != "seconds" || len(m.Measurements) != 3 ||
		m.Measurements[0].Statistic != "COUNT" || m.Measurements[0].Value != 2 ||
		m.Measurements[1].Statistic != "TOTAL_TIME" || m.Measurements[1].Value <= 0 ||
		m.Measurements[2].Statistic != "MAX" || m.Measurements[2].Value <= 0 {
		t.Errorf("http.server.requests?tag=uri:/hello: %s", r.body)
	}
	tags := map[string][]string{}
	for _, at := range m.AvailableTags {
		tags[at.Tag] = at.Values
	}
	if _, ok := tags["uri"]; ok || strings.Join(tags["outcome"], ",") != "SUCCESS" || strings.Join(tags["exception"], ",") != "none" {
		t.Errorf("availableTags: %v", tags)
	}
	if !strings.Contains(r.header.Get("Content-Type"), "json") {
		t.Errorf("Content-Type %q", r.header.Get("Content-Type"))
	}

	all := decode[meter](t, send(t, nil, "GET", s.URL+"/actuator/metrics/http.server.requests?tag=method:GET&tag=status:404", ""))
	if len(all.Measurements) == 0 || all.Measurements[0].Value != 1 {
		t.Errorf("two tags: %+v", all)
	}
	up := decode[meter](t, send(t, nil, "GET", s.URL+"/actuator/metrics/tester.store.up", ""))
	if len(up.Measurements) != 1 || up.Measurements[0].Statistic != "VALUE" || up.Measurements[0].Value != 1 {
		t.Errorf("tester.store.up: %+v", up)
	}

	for path, status := range map[string]int{
		"/actuator/metrics/jvm.memory.used":                       404,
		"/actuator/metrics/http.server.requests?tag=uri:/nowhere": 404,
		"/actuator/metrics/http.server.requests?tag=colour:red":   404,
		"/actuator/metrics/http.server.requests?tag=uri":          400,
		"/actuator/metrics/http.server.requests?tag=uri:/hello&x": 200,
	} {
		r := send(t, nil, "GET", s.URL+path, "")
		if r.status != status {
			t.Errorf("%s answered %d, want %d: %s", path, r.status, status, r.body)
		}
		if status != 200 && r.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s answered %q, want a problem document", path, r.header.Get("Content-Type"))
		}
	}
}

// TestCommonTagsAndExemplars: management.metrics.tags.* label every
// series; with spans exported, the request timer is a histogram whose
// OpenMetrics buckets carry the trace of a sampled request as an
// exemplar, unless the histogram is set off.
func TestCommonTagsAndExemplars(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	tracingOn := []string{exposeAll, "--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces",
		"--management.tracing.sampling.probability=1", "--management.metrics.tags.application=shop", "--management.metrics.tags.region=eu"}
	s := start(t, tracingOn, nil)
	send(t, nil, "GET", s.URL+"/hello", "", traceparent)
	const openMetrics = "Accept: application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.2"
	body := send(t, nil, "GET", s.URL+"/actuator/prometheus", "", openMetrics).body
	var exemplars []string
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, `http_server_requests_seconds_bucket{application="shop",`) && strings.Contains(line, `uri="/hello"`) &&
			strings.Contains(line, " # {") {
			exemplars = append(exemplars, line)
		}
	}
	if len(exemplars) != 1 || !strings.Contains(exemplars[0], `trace_id="`+callerTrace+`"`) || !strings.Contains(exemplars[0], `span_id="`) {
		t.Errorf("the /hello buckets' exemplars: %q, want one with trace_id %s", exemplars, callerTrace)
	}
	for _, want := range []string{`go_goroutines{application="shop",region="eu"} `, `http_sessions_active{application="shop",region="eu"} `} {
		if !strings.Contains(body, want) {
			t.Errorf("/actuator/prometheus lacks %s", want)
		}
	}

	off := start(t, append(tracingOn, "--management.metrics.distribution.percentiles-histogram.http.server.requests=false"), nil)
	send(t, nil, "GET", off.URL+"/hello", "", traceparent)
	if body := send(t, nil, "GET", off.URL+"/actuator/prometheus", "", openMetrics).body; strings.Contains(body, "_bucket{") ||
		!strings.Contains(body, "# TYPE http_server_requests_seconds summary") {
		t.Errorf("with the histogram set off, the timer is not a summary:\n%.2000s", body)
	}
}

// TestCommonTagClash: a common tag that would be a second label of the
// same name on the framework's metrics stops start-up, naming the setting
// and where it came from.
func TestCommonTagClash(t *testing.T) {
	t.Parallel()
	stderr, err := boottest.FailToStart(t, tester(), []string{"--management.metrics.tags.status=up"}, nil)
	if err == nil || !strings.Contains(stderr, "Property: management.metrics.tags.status") || !strings.Contains(stderr, `Value: "up"`) ||
		!strings.Contains(stderr, "Origin: command-line argument") || !strings.Contains(stderr, "a label named status, which the framework's metrics have already") {
		t.Errorf("a common tag named status: %v\n%s", err, stderr)
	}
}
