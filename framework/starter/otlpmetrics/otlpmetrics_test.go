package otlpmetrics_test

// End to end: a service with the starter, run by boot.Run on port 0,
// pushes its meters to an OTLP/HTTP receiver inside the test, which
// decodes every export with the collector's own request type.

import (
	"compress/gzip"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/proto"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/starter/otlpmetrics"
)

// receiver is a collector's OTLP/HTTP metrics endpoint: it decodes each
// export as an ExportMetricsServiceRequest and keeps it with its
// headers.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	exports []export
}

type export struct {
	header  http.Header
	request *collectorpb.ExportMetricsServiceRequest
}

func newReceiver(t *testing.T) *receiver { return newReceiverOver(t, nil) }

// newReceiverOver is a receiver over TLS with cfg, or in plain text when
// cfg is nil.
func newReceiverOver(t *testing.T, cfg *tls.Config) *receiver {
	rcv := &receiver{}
	rcv.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				t.Errorf("a gzip export that is not gzip: %v", err)
				return
			}
			body = zr
		}
		raw, err := io.ReadAll(body)
		req := &collectorpb.ExportMetricsServiceRequest{}
		if err == nil {
			err = proto.Unmarshal(raw, req)
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/metrics" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("the receiver got %s %s (%s), not an OTLP/HTTP metrics export: %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
			http.Error(w, "not an export", http.StatusBadRequest)
			return
		}
		rcv.mu.Lock()
		rcv.exports = append(rcv.exports, export{r.Header.Clone(), req})
		rcv.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	if cfg != nil {
		rcv.TLS = cfg
		rcv.StartTLS()
	} else {
		rcv.Start()
	}
	t.Cleanup(rcv.Close)
	return rcv
}

func (rcv *receiver) received() []export {
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	return slices.Clone(rcv.exports)
}

// shop is a service with a route, a gauge and a counter of its own.
func shop(placed prometheus.Counter) boot.Service[struct{}] {
	return boot.Service[struct{}]{
		Name:     "shop",
		Starters: []boot.Starter{otlpmetrics.Starter},
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Gauges(func() []metrics.Gauge {
				return []metrics.Gauge{{Name: "orders_queued", Help: "Orders waiting.", Value: 4}}
			})
			app.MetricsRegisterer().MustRegister(placed)
			app.Routes(dispatch.Route{Method: "POST", Pattern: "/orders", Handler: dispatch.Returns(func(*dispatch.Request) (string, error) {
				placed.Inc()
				return "placed", nil
			})})
			return nil
		},
	}
}

func newPlaced() prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: "orders_placed_total", Help: "Orders placed."})
}

// metric finds the metric name in an export, or nil.
func metric(req *collectorpb.ExportMetricsServiceRequest, name string) *metricspb.Metric {
	for _, rm := range req.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if m.Name == name {
					return m
				}
			}
		}
	}
	return nil
}

func attributes(kvs []*commonpb.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[kv.Key] = kv.Value.GetStringValue()
	}
	return out
}

// With a step longer than the test, the one export is the last one, at
// shutdown: it holds every request made, under Micrometer's names, as a
// cumulative histogram in milliseconds, with the service's own gauge and
// counter, the common tags, the resource's service.name, and the headers
// set; and every meter that /actuator/metrics lists.
func TestPushesTheMetersAtShutdown(t *testing.T) {
	rcv := newReceiver(t)
	s := boottest.Start(t, shop(newPlaced()), []string{
		"--management.otlp.metrics.export.url=" + rcv.URL + "/v1/metrics",
		"--management.otlp.metrics.export.step=1h",
		"--management.otlp.metrics.export.headers.Authorization=Bearer s3cret",
		"--management.metrics.tags.application=shop-eu",
		"--app.application.name=shop-api",
		"--management.endpoints.web.exposure.include=metrics,env",
	}, nil)
	for range 3 {
		if r := boottest.Send(t, http.DefaultClient, "POST", s.URL+"/orders", ""); r.Status != 200 {
			t.Fatalf("POST /orders: %d", r.Status)
		}
	}
	if r := boottest.Send(t, http.DefaultClient, "GET", s.URL+"/orders", ""); r.Status != 405 {
		t.Fatalf("GET /orders: %d, want 405", r.Status)
	}
	var names struct{ Names []string }
	if err := json.Unmarshal([]byte(boottest.Send(t, http.DefaultClient, "GET", s.URL+"/actuator/metrics", "").Body), &names); err != nil || len(names.Names) < 10 {
		t.Fatalf("/actuator/metrics: %v %v", names.Names, err)
	}
	env := boottest.Send(t, http.DefaultClient, "GET", s.URL+"/actuator/env/management.otlp.metrics.export.headers.Authorization", "")
	if strings.Contains(env.Body, "s3cret") || !strings.Contains(env.Body, "******") {
		t.Errorf("/actuator/env shows the header: %s", env.Body)
	}
	if n := len(rcv.received()); n != 0 {
		t.Fatalf("%d exports before the first step of an hour", n)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	got := rcv.received()
	if len(got) != 1 {
		t.Fatalf("%d exports at shutdown, want 1", len(got))
	}
	e := got[0]
	if e.header.Get("Authorization") != "Bearer s3cret" {
		t.Errorf("Authorization %q, want the header set", e.header.Get("Authorization"))
	}
	if strings.Contains(s.Stdout.String(), "s3cret") {
		t.Error("the log shows the header's value")
	}
	if len(e.request.ResourceMetrics) != 1 {
		t.Fatalf("%d resources, want 1", len(e.request.ResourceMetrics))
	}
	resource := attributes(e.request.ResourceMetrics[0].Resource.GetAttributes())
	if resource["service.name"] != "shop-api" || resource["service.instance.id"] == "" {
		t.Errorf("resource %v, want service.name shop-api and an instance ID", resource)
	}

	requests := metric(e.request, "http.server.requests")
	if requests == nil || requests.GetHistogram() == nil {
		t.Fatalf("http.server.requests is not a histogram in the export: %v", requests)
	}
	if requests.Unit != "milliseconds" || requests.GetHistogram().AggregationTemporality != metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Errorf("http.server.requests in %q, %v; want milliseconds, cumulative", requests.Unit, requests.GetHistogram().AggregationTemporality)
	}
	counts := map[string]uint64{}
	for _, p := range requests.GetHistogram().DataPoints {
		a := attributes(p.Attributes)
		if a["application"] != "shop-eu" {
			t.Errorf("a data point without the common tag: %v", a)
		}
		counts[a["method"]+" "+a["uri"]+" "+a["status"]+" "+a["outcome"]] += p.Count
		if p.GetSum() <= 0 || len(p.BucketCounts) != 1 || p.BucketCounts[0] != p.Count {
			t.Errorf("data point %v: want a positive sum and one bucket of every request", p)
		}
	}
	if counts["POST /orders 200 SUCCESS"] != 3 || counts["GET UNKNOWN 405 CLIENT_ERROR"] != 1 {
		t.Errorf("requests by method, uri, status and outcome: %v; want 3 POSTs of /orders and 1 GET no route took (UNKNOWN)", counts)
	}
	if m := metric(e.request, "http.server.requests.max"); m == nil || m.GetGauge() == nil || m.Unit != "milliseconds" {
		t.Errorf("http.server.requests.max: %v, want a gauge in milliseconds", m)
	}
	if m := metric(e.request, "orders.queued"); m == nil || m.GetGauge() == nil || m.GetGauge().DataPoints[0].GetAsDouble() != 4 {
		t.Errorf("orders.queued: %v, want the gauge at 4", m)
	}
	placed := metric(e.request, "orders.placed")
	if placed == nil || placed.GetSum() == nil || !placed.GetSum().IsMonotonic || placed.GetSum().DataPoints[0].GetAsDouble() != 3 {
		t.Errorf("orders.placed: %v, want a monotonic sum of 3", placed)
	}
	for _, name := range names.Names {
		if metric(e.request, name) == nil {
			t.Errorf("/actuator/metrics lists %s, which the export does not hold", name)
		}
	}
}

// Every step an export goes, gzip-compressed when asked; OpenTelemetry's
// variables stand in for the settings that are not set
// (OTEL_EXPORTER_OTLP_ENDPOINT, a base to which /v1/metrics is added,
// and OTEL_METRIC_EXPORT_INTERVAL, in milliseconds), and a header of
// OTEL_EXPORTER_OTLP_METRICS_HEADERS wins over the same one in
// OTEL_EXPORTER_OTLP_HEADERS.
func TestPushesEveryStep(t *testing.T) {
	rcv := newReceiver(t)
	s := boottest.Start(t, shop(newPlaced()), []string{"--management.otlp.metrics.export.compression-mode=gzip"}, map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT":        rcv.URL,
		"OTEL_METRIC_EXPORT_INTERVAL":        "1000",
		"OTEL_EXPORTER_OTLP_HEADERS":         "x-tenant=blue,x-team=core",
		"OTEL_EXPORTER_OTLP_METRICS_HEADERS": "x-tenant=green",
	})
	boottest.Send(t, http.DefaultClient, "POST", s.URL+"/orders", "")
	boottest.WaitFor(t, "two exports a step apart", func() bool { return len(rcv.received()) >= 2 })
	e := rcv.received()[1]
	if e.header.Get("Content-Encoding") != "gzip" || e.header.Get("X-Tenant") != "green" || e.header.Get("X-Team") != "core" {
		t.Errorf("headers %v: want gzip, and the metrics' own X-Tenant with the common X-Team", e.header)
	}
	if m := metric(e.request, "orders.placed"); m == nil || m.GetSum().DataPoints[0].GetAsDouble() != 1 {
		t.Errorf("orders.placed: %v, want 1", m)
	}
}

// management.otlp.metrics.export.enabled=false starts nothing: no export,
// not even at shutdown.
func TestDisabledPushesNothing(t *testing.T) {
	rcv := newReceiver(t)
	s := boottest.Start(t, shop(newPlaced()), []string{
		"--management.otlp.metrics.export.url=" + rcv.URL + "/v1/metrics",
		"--management.otlp.metrics.export.enabled=false",
	}, nil)
	boottest.Send(t, http.DefaultClient, "POST", s.URL+"/orders", "")
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := len(rcv.received()); n != 0 {
		t.Errorf("%d exports, want none", n)
	}
}

// A URL or a step that cannot be used stops start-up, naming the
// setting; so does a temporality the starter does not push.
func TestBadSettingsStopStartUp(t *testing.T) {
	for _, tt := range []struct{ arg, key string }{
		{"--management.otlp.metrics.export.url=collector:4318", "management.otlp.metrics.export.url"},
		{"--management.otlp.metrics.export.url=http://collector:4318/v1/metrics?x=1", "management.otlp.metrics.export.url"},
		{"--management.otlp.metrics.export.step=10", "management.otlp.metrics.export.step"},
		{"--management.otlp.metrics.export.step=soon", "management.otlp.metrics.export.step"},
		{"--management.otlp.metrics.export.aggregation-temporality=delta", "management.otlp.metrics.export.aggregation-temporality"},
		{"--management.otlp.metrics.export.base-time-unit=fortnights", "management.otlp.metrics.export.base-time-unit"},
	} {
		stderr, err := boottest.FailToStart(t, shop(newPlaced()), []string{tt.arg}, nil)
		if err == nil || !strings.Contains(stderr, tt.key) {
			t.Errorf("%s: %v, stderr:\n%s\nwant start-up refused naming %s", tt.arg, err, stderr, tt.key)
		}
	}
	stderr, err := boottest.FailToStart(t, shop(newPlaced()), nil, map[string]string{"OTEL_METRIC_EXPORT_INTERVAL": "5s"})
	if err == nil || !strings.Contains(stderr, "OTEL_METRIC_EXPORT_INTERVAL") {
		t.Errorf("OTEL_METRIC_EXPORT_INTERVAL=5s: %v, stderr:\n%s\nwant start-up refused naming the variable", err, stderr)
	}
}

// Without the starter, its settings are read by nothing: start-up says
// which starter reads them, and nothing is pushed. With it, --help lists
// them with their defaults.
func TestSettingsWithoutTheStarter(t *testing.T) {
	rcv := newReceiver(t)
	svc := shop(newPlaced())
	svc.Starters = nil
	s := boottest.Start(t, svc, []string{"--management.otlp.metrics.export.url=" + rcv.URL + "/v1/metrics"}, nil)
	want := `key=management.otlp.metrics.export.url origin="command-line argument --management.otlp.metrics.export.url" hint="read by the starter ` + otlpmetrics.Starter.Name
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if out := s.Stdout.String(); !strings.Contains(out, want) {
		t.Errorf("the log does not say %s:\n%s", want, out)
	}
	if n := len(rcv.received()); n != 0 {
		t.Errorf("%d exports without the starter", n)
	}
	list, err := boot.Settings(shop(newPlaced()))
	if err != nil {
		t.Fatal(err)
	}
	defaults := map[string]string{}
	for _, st := range list {
		defaults[st.Key] = st.Default
	}
	for key, def := range map[string]string{"url": "http://localhost:4318/v1/metrics", "step": "1m", "enabled": "true", "base-time-unit": "milliseconds",
		"read-timeout": "10s", "connect-timeout": "1s", "aggregation-temporality": "cumulative", "compression-mode": "none"} {
		if got, ok := defaults["management.otlp.metrics.export."+key]; !ok || got != def {
			t.Errorf("--help lists management.otlp.metrics.export.%s with the default %q (listed: %t), want %q", key, got, ok, def)
		}
	}
}
