package main

import (
	"os/exec"
	"strings"
	"testing"
)

const helloSeries = `{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/api/hello"}`

// TestMicrometerPrometheus: the request metrics have the names, the tags
// and the types that Micrometer's Prometheus registry gives Spring MVC's,
// buckets only with the percentiles histogram, and promtool accepts the
// exposition in both shapes.
func TestMicrometerPrometheus(t *testing.T) {
	for _, histogram := range []bool{false, true} {
		args := everything
		if histogram {
			args = append(args, "--management.metrics.distribution.percentiles-histogram.http.server.requests=true")
		}
		s := start(t, args, nil)
		for range 3 {
			s.do(t, "GET", "/api/hello", "")
		}
		body := s.do(t, "GET", "/actuator/prometheus", "").body
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
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestOpenMetrics: Prometheus asks for OpenMetrics first, and gets it.
func TestOpenMetrics(t *testing.T) {
	s := start(t, everything, nil)
	s.do(t, "GET", "/api/hello", "")
	const prometheusAccept = "application/openmetrics-text;version=1.0.0;escaping=underscores;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=underscores;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1"
	r := s.do(t, "GET", "/actuator/prometheus", "", "Accept: "+prometheusAccept)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/openmetrics-text; version=1.0.0") {
		t.Fatalf("answered %d %q, want OpenMetrics 1.0.0", r.status, r.header.Get("Content-Type"))
	}
	if !strings.HasSuffix(r.body, "# EOF\n") || !strings.Contains(r.body, "http_server_requests_seconds_count"+helloSeries+" 1\n") {
		t.Errorf("not the OpenMetrics exposition of the requests:\n%.1000s", r.body)
	}
	// Protobuf is not served (see framework/management/metrics' exposition.go): a
	// scraper that accepts nothing else is told so.
	r = s.do(t, "GET", "/actuator/prometheus", "", "Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited")
	if r.status != 406 {
		t.Errorf("protobuf only: answered %d %q, want 406", r.status, r.header.Get("Content-Type"))
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
// serves, the stores' gauges included.
func TestActuatorMetrics(t *testing.T) {
	s := start(t, everything, nil)
	s.do(t, "GET", "/api/hello", "")
	s.do(t, "GET", "/api/hello", "")
	s.do(t, "GET", "/nowhere", "")

	names := decodeJSON[metricsNames](t, s.do(t, "GET", "/actuator/metrics", ""))
	for _, want := range []string{"http.server.requests", "http.sessions.active", "messages.stored", "messages.text",
		"go.goroutines", "process.cpu.time", "process.start.time"} {
		if !strings.Contains(strings.Join(names.Names, " ")+" ", want+" ") {
			t.Errorf("/actuator/metrics lacks %s: %v", want, names.Names)
		}
	}

	r := s.do(t, "GET", "/actuator/metrics/http.server.requests?tag=uri:/api/hello", "")
	m := decodeJSON[meter](t, r)
	if m.Name != "http.server.requests" || m.BaseUnit != "seconds" || len(m.Measurements) != 3 ||
		m.Measurements[0].Statistic != "COUNT" || m.Measurements[0].Value != 2 ||
		m.Measurements[1].Statistic != "TOTAL_TIME" || m.Measurements[1].Value <= 0 ||
		m.Measurements[2].Statistic != "MAX" || m.Measurements[2].Value <= 0 {
		t.Errorf("http.server.requests?tag=uri:/api/hello: %s", r.body)
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

	all := decodeJSON[meter](t, s.do(t, "GET", "/actuator/metrics/http.server.requests?tag=method:GET&tag=status:404", ""))
	if all.Measurements[0].Value != 1 {
		t.Errorf("two tags: %+v", all)
	}
	stored := decodeJSON[meter](t, s.do(t, "GET", "/actuator/metrics/messages.stored", ""))
	if len(stored.Measurements) != 1 || stored.Measurements[0].Statistic != "VALUE" {
		t.Errorf("messages.stored: %+v", stored)
	}

	for path, status := range map[string]int{
		"/actuator/metrics/jvm.memory.used":                           404,
		"/actuator/metrics/http.server.requests?tag=uri:/nowhere":     404,
		"/actuator/metrics/http.server.requests?tag=colour:red":       404,
		"/actuator/metrics/http.server.requests?tag=uri":              400,
		"/actuator/metrics/http.server.requests?tag=uri:/api/hello&x": 200,
	} {
		r := s.do(t, "GET", path, "")
		if r.status != status {
			t.Errorf("%s answered %d, want %d: %s", path, r.status, status, r.body)
		}
		if status != 200 && r.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s answered %q, want a problem document", path, r.header.Get("Content-Type"))
		}
	}
}
