package otlpmetrics_test

// End to end: a service with the starter, run by boot.Run on port 0,
// pushes its meters to an OTLP/HTTP receiver inside the test, which
// decodes every export with the collector's own request type.

import (
	"compress/gzip"
	"context"
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

func newReceiver(t *testing.T) *receiver {
	rcv := &receiver{}
	rcv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
