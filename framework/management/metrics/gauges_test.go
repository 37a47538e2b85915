package metrics

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGauges(t *testing.T) {
	up := true
	m := mustNew(t, Options{})
	m.Gauges(func() []Gauge {
		gauges := []Gauge{{Name: "items_stored_max", Help: "Items held at most.", Value: 1 << 20}}
		if up {
			gauges = append(gauges, Gauge{Name: "items_stored", Help: "Items held now.", Value: 3})
		}
		return gauges
	})

	text := scrape(m)
	for _, want := range []string{
		"# HELP items_stored Items held now.\n# TYPE items_stored gauge\nitems_stored 3\n",
		"items_stored_max 1.048576e+06\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	if meter, ok := m.Metric("items.stored", nil); !ok || meter.Measurements[0].Value != 3 {
		t.Errorf("/actuator/metrics/items.stored: %+v %v, want the value 3", meter, ok)
	}

	up = false
	text = scrape(m)
	if strings.Contains(text, "items_stored ") {
		t.Error("a gauge left out of a read still shows its last value")
	}
	if !strings.Contains(text, "items_stored_max ") {
		t.Error("a gauge read still returns is missing")
	}
}

func scrape(m *HTTP) string {
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	return w.Body.String()
}

func mustNew(t testing.TB, opts Options) *HTTP {
	t.Helper()
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
