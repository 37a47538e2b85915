package metrics

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"go.opentelemetry.io/otel/trace"

	"github.com/springport/greeter/framework/dispatch"
)

// scrapeAs scrapes the handler with an Accept header, as Prometheus does.
func scrapeAs(t *testing.T, m *HTTP, accept string) (string, string) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/actuator/prometheus", nil)
	r.Header.Set("Accept", accept)
	m.Handler().ServeHTTP(w, r)
	if w.Code != 200 {
		t.Fatalf("scrape answered %d: %s", w.Code, w.Body)
	}
	return w.Header().Get("Content-Type"), w.Body.String()
}

const openMetricsAccept = "application/openmetrics-text;version=1.0.0;escaping=underscores;q=0.5,text/plain;version=0.0.4;q=0.2,*/*;q=0.1"

// TestExemplar: a request traced by a sampled span leaves its trace and
// span ids as the exemplar of its bucket in OpenMetrics, as Micrometer
// Tracing does; an unsampled one leaves none.
func TestExemplar(t *testing.T) {
	m := mustNew(t, Options{PercentilesHistogram: true, Exemplars: true})
	traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	request := func(flags trace.TraceFlags, route string) *dispatch.Observation {
		sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, TraceFlags: flags})
		r := httptest.NewRequest("GET", route, nil)
		r = r.WithContext(trace.ContextWithSpanContext(context.Background(), sc))
		return &dispatch.Observation{Method: "GET", Route: route, Status: 200, Duration: 5 * time.Millisecond, End: time.Now(), Request: r}
	}
	m.Observe(*request(trace.FlagsSampled, "/traced"))
	m.Observe(*request(0, "/unsampled"))
	_, body := scrapeAs(t, m, openMetricsAccept)
	var traced, unsampled string
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, "http_server_requests_seconds_bucket{") && strings.Contains(line, `le="0.005592405"`) {
			if strings.Contains(line, `uri="/traced"`) {
				traced = line
			} else if strings.Contains(line, `uri="/unsampled"`) {
				unsampled = line
			}
		}
	}
	_, exemplar, _ := strings.Cut(traced, " # ")
	if !strings.Contains(exemplar, `trace_id="4bf92f3577b34da6a3ce929d0e0e4736"`) || !strings.Contains(exemplar, `span_id="00f067aa0ba902b7"`) ||
		!strings.Contains(exemplar, "} 0.005 ") {
		t.Errorf("the traced request's bucket has no exemplar with its trace: %q", traced)
	}
	if unsampled == "" || strings.Contains(unsampled, "#") {
		t.Errorf("the unsampled request's bucket: %q, want one without an exemplar", unsampled)
	}
	// The text format 0.0.4 has no exemplars.
	if _, text := scrapeAs(t, m, "text/plain;version=0.0.4"); strings.Contains(text, "trace_id") {
		t.Error("an exemplar in the text format")
	}
}

// TestCommonTags: management.metrics.tags.* are labels of every series,
// the runtime's included, named as Micrometer names a tag key; a tag that
// would clash with a label of the framework's own is refused.
func TestCommonTags(t *testing.T) {
	m := mustNew(t, Options{CommonTags: map[string]string{"application": "greeter", "cloud.region": "eu-1", "2nd": "x"}})
	m.Observe(dispatch.Observation{Method: "GET", Route: "/a", Status: 200, Duration: time.Millisecond, End: time.Now()})
	body := scrape(m)
	for _, want := range []string{
		`http_server_requests_seconds_count{application="greeter",cloud_region="eu-1",error="none",exception="none",m_2nd="x",method="GET",outcome="SUCCESS",status="200",uri="/a"} 1`,
		`http_server_requests_seconds_max{application="greeter",cloud_region="eu-1",error="none",`,
		`go_goroutines{application="greeter",cloud_region="eu-1",m_2nd="x"} `,
		`process_cpu_seconds_total{application="greeter",cloud_region="eu-1",m_2nd="x"} `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	for _, bad := range []string{"uri", "status", "le", "name", "__x", ""} {
		if _, err := New(Options{CommonTags: map[string]string{bad: "v"}}); err == nil || !strings.Contains(err.Error(), "management.metrics.tags."+bad) {
			t.Errorf("common tag %q: %v, want an error naming management.metrics.tags.%s", bad, err, bad)
		}
	}
}

// TestScrapeFormats: promhttp serves OpenMetrics, the text format,
// protobuf (delimited MetricFamily messages) and gzip, as Prometheus asks.
func TestScrapeFormats(t *testing.T) {
	m := mustNew(t, Options{})
	m.Observe(dispatch.Observation{Method: "GET", Route: "/a", Status: 200, Duration: time.Millisecond, End: time.Now()})

	ct, body := scrapeAs(t, m, openMetricsAccept)
	if !strings.HasPrefix(ct, "application/openmetrics-text; version=1.0.0") || !strings.HasSuffix(body, "# EOF\n") {
		t.Errorf("OpenMetrics: %q\n%.300s", ct, body)
	}
	ct, body = scrapeAs(t, m, "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;q=0.1")
	if !strings.HasPrefix(ct, "application/vnd.google.protobuf") {
		t.Fatalf("protobuf: Content-Type %q", ct)
	}
	dec := expfmt.NewDecoder(strings.NewReader(body), expfmt.NewFormat(expfmt.TypeProtoDelim))
	found := false
	for {
		mf := new(dto.MetricFamily)
		if err := dec.Decode(mf); err != nil {
			if err != io.EOF {
				t.Fatalf("decoding protobuf: %v", err)
			}
			break
		}
		if mf.GetName() == "http_server_requests_seconds" && mf.GetMetric()[0].GetSummary().GetSampleCount() == 1 {
			found = true
		}
	}
	if !found {
		t.Error("the protobuf scrape lacks http_server_requests_seconds with its one request")
	}

	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/actuator/prometheus", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	m.Handler().ServeHTTP(w, r)
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("Accept-Encoding: gzip answered Content-Encoding %q", w.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Contains(plain, []byte("http_server_requests_seconds_count{")) {
		t.Errorf("the gzipped scrape: %.300s", plain)
	}
}

// TestConnectionPool: a pool's state under Micrometer's names for a
// Spring DataSource and for HikariCP.
func TestConnectionPool(t *testing.T) {
	m := mustNew(t, Options{CommonTags: map[string]string{"application": "shop"}})
	m.ConnectionPool("dataSource", "HikariPool-1", func() PoolStats {
		return PoolStats{Active: 3, Idle: 2, Max: 10, Min: 1, Pending: 6, Acquires: 40, AcquireTime: 2 * time.Second, Timeouts: 4,
			Creations: 7, CreationTime: 350 * time.Millisecond, Usages: 37, UsageTime: 9 * time.Second}
	})
	body := scrape(m)
	for _, want := range []string{
		`jdbc_connections_active{application="shop",name="dataSource"} 3`,
		`jdbc_connections_idle{application="shop",name="dataSource"} 2`,
		`jdbc_connections_max{application="shop",name="dataSource"} 10`,
		`jdbc_connections_min{application="shop",name="dataSource"} 1`,
		`hikaricp_connections{application="shop",pool="HikariPool-1"} 5`,
		`hikaricp_connections_active{application="shop",pool="HikariPool-1"} 3`,
		`hikaricp_connections_idle{application="shop",pool="HikariPool-1"} 2`,
		`hikaricp_connections_max{application="shop",pool="HikariPool-1"} 10`,
		`hikaricp_connections_min{application="shop",pool="HikariPool-1"} 1`,
		`hikaricp_connections_timeout_total{application="shop",pool="HikariPool-1"} 4`,
		`hikaricp_connections_acquire_seconds_count{application="shop",pool="HikariPool-1"} 40`,
		`hikaricp_connections_acquire_seconds_sum{application="shop",pool="HikariPool-1"} 2`,
		"# TYPE hikaricp_connections_acquire_seconds summary",
		`hikaricp_connections_pending{application="shop",pool="HikariPool-1"} 6`,
		`hikaricp_connections_creation_seconds_count{application="shop",pool="HikariPool-1"} 7`,
		`hikaricp_connections_creation_seconds_sum{application="shop",pool="HikariPool-1"} 0.35`,
		`hikaricp_connections_usage_seconds_count{application="shop",pool="HikariPool-1"} 37`,
		`hikaricp_connections_usage_seconds_sum{application="shop",pool="HikariPool-1"} 9`,
	} {
		if !strings.Contains(body, want+"\n") && !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	if mt, ok := m.Metric("hikaricp.connections.active", nil); !ok || mt.Measurements[0].Value != 3 {
		t.Errorf("/actuator/metrics/hikaricp.connections.active: %+v %v", mt, ok)
	}
}

// TestClientGolangCollectors: the Go runtime and process families are
// client_golang's own.
func TestClientGolangCollectors(t *testing.T) {
	body := scrape(mustNew(t, Options{}))
	for _, want := range []string{"go_goroutines ", "go_gc_duration_seconds{quantile=", "go_memstats_heap_alloc_bytes ",
		"go_info{version=", "go_threads ", "process_resident_memory_bytes ", "process_open_fds ", "process_start_time_seconds "} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
}
