package actuator

import (
	"encoding/json"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/metrics"
)

// TestIndex checks the index against Spring's: a link to itself and to
// each exposed endpoint, the templated links, absolute from the Host.
func TestIndex(t *testing.T) {
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{"health", "env", "threaddump"}}, BasePath: "/manage"})...)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/manage", nil)
	req.Host = "example.com:8081"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	want := `{"_links":{` +
		`"env":{"href":"http://example.com:8081/manage/env","templated":false},` +
		`"env-toMatch":{"href":"http://example.com:8081/manage/env/{toMatch}","templated":true},` +
		`"health":{"href":"http://example.com:8081/manage/health","templated":false},` +
		`"health-path":{"href":"http://example.com:8081/manage/health/{*path}","templated":true},` +
		`"self":{"href":"http://example.com:8081/manage","templated":false},` +
		`"threaddump":{"href":"http://example.com:8081/manage/threaddump","templated":false}}}`
	if rec.Code != 200 || rec.Body.String() != want {
		t.Errorf("index: %d %s\nwant %s", rec.Code, rec.Body, want)
	}
}

// TestIndexListsEveryExposedEndpoint exposes every endpoint, each with
// what it needs, and checks that the index links to each of them, and to
// nothing else, with Spring's templated links; the loggers endpoint, added
// last, included.
func TestIndexListsEveryExposedEndpoint(t *testing.T) {
	var catalog dispatch.Catalog
	opts := Options{Exposure: Exposure{Include: []string{"*"}}, Env: emptyEnv(t), Mappings: &catalog,
		Components: func() []component.Info { return nil }, Exchanges: NewExchanges(), Shutdown: func() {}, Access: map[string]string{Shutdown: "unrestricted", HeapDump: "unrestricted"},
		Prometheus: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), Metrics: noMeters{}, Loggers: logging.NewRegistry(slog.DiscardHandler, logging.Info)}
	h, err := dispatch.New(dispatch.Options{Catalog: &catalog}, Routes(opts)...)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/actuator", nil))
	var got index
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("index: %d %s: %v", rec.Code, rec.Body, err)
	}
	want := map[string]link{"self": {Href: "http://localhost/actuator"}}
	for _, id := range IDs {
		want[id] = link{Href: "http://localhost/actuator/" + id}
		if tl, ok := templatedLinks[id]; ok {
			want[tl.name] = link{Href: "http://localhost/actuator/" + id + tl.path, Templated: true}
		}
	}
	if !maps.Equal(got.Links, want) {
		t.Errorf("index links:\ngot  %v\nwant %v", got.Links, want)
	}
	// Every endpoint the index lists answers (but for those that take
	// seconds, or stop the service).
	for name, l := range got.Links {
		if l.Templated || name == Shutdown || name == CPUProfile || name == HeapDump {
			continue
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", l.Href, nil))
		if rec.Code == 404 || rec.Code == 405 {
			t.Errorf("GET %s (%s): %d", l.Href, name, rec.Code)
		}
	}
}

// noMeters is a MeterRegistry with no meters.
type noMeters struct{}

func (noMeters) MetricNames() []string { return nil }

func (noMeters) Metric(string, []metrics.Tag) (metrics.Meter, bool) { return metrics.Meter{}, false }
