package metrics

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestMetricNames(t *testing.T) {
	m := mustNew(t, Options{})
	m.Sessions(func() int { return 1 }, 10, func() uint64 { return 0 })
	m.Gauges(storeGauges)
	observeSome(m)
	names := m.MetricNames()
	if !slices.IsSorted(names) {
		t.Errorf("names not sorted: %v", names)
	}
	for _, want := range []string{
		"http.server.requests", "http.sessions.active", "http.sessions.max", "http.sessions.evicted",
		"items.stored", "items.stored.max", "items.text", "items.text.max",
		"go.goroutines", "go.memstats.alloc", "go.memstats.alloc.total", "go.gc.duration",
		"process.cpu.time", "process.start.time", "process.resident.memory",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("names lack %s: %v", want, names)
		}
	}
	for _, unwanted := range []string{"http.server.requests.max", "http.server.requests.seconds"} {
		if slices.Contains(names, unwanted) {
			t.Errorf("names have %s", unwanted)
		}
	}
}

func TestMetric(t *testing.T) {
	m := mustNew(t, Options{})
	m.Gauges(storeGauges)
	observeSome(m)

	got, ok := m.Metric("http.server.requests", []Tag{{"uri", "/a/{id}"}, {"outcome", "SUCCESS"}})
	if !ok {
		t.Fatal("no http.server.requests for uri:/a/{id} and outcome:SUCCESS")
	}
	b, _ := json.Marshal(got)
	want := `{"name":"http.server.requests","description":"Duration of HTTP server requests, by method, route pattern, status and error.","baseUnit":"seconds",` +
		`"measurements":[{"statistic":"COUNT","value":2},{"statistic":"TOTAL_TIME","value":0.005},{"statistic":"MAX","value":0.003}],` +
		`"availableTags":[{"tag":"error","values":["none"]},{"tag":"exception","values":["none"]},{"tag":"method","values":["GET"]},{"tag":"status","values":["200"]}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}

	all, _ := m.Metric("http.server.requests", nil)
	if all.Measurements[0].Value != 9 || all.Measurements[2].Value != 0.003 {
		t.Errorf("over every series: %+v, want COUNT 9 and MAX 0.003", all.Measurements)
	}
	if i := slices.IndexFunc(all.AvailableTags, func(a AvailableTag) bool { return a.Tag == "uri" }); i < 0 ||
		!slices.Equal(all.AvailableTags[i].Values, []string{"/a/{id}", "NOT_FOUND", "REDIRECTION", "UNKNOWN"}) {
		t.Errorf("uri values: %+v", all.AvailableTags)
	}

	if _, ok := m.Metric("http.server.requests", []Tag{{"uri", "/nowhere"}}); ok {
		t.Error("a tag value no series has matches")
	}
	if _, ok := m.Metric("http.server.requests", []Tag{{"colour", "red"}}); ok {
		t.Error("an unknown tag matches")
	}
	if _, ok := m.Metric("jvm.memory.used", nil); ok {
		t.Error("an unknown meter is found")
	}

	stored, ok := m.Metric("items.stored", nil)
	if !ok || stored.Measurements[0] != (Measurement{"VALUE", 3}) || stored.BaseUnit != "" {
		t.Errorf("items.stored: %+v", stored)
	}
	text, ok := m.Metric("items.text", nil)
	if !ok || text.Measurements[0] != (Measurement{"VALUE", 12}) || text.BaseUnit != "bytes" {
		t.Errorf("items.text: %+v", text)
	}
	textMax, ok := m.Metric("items.text.max", nil)
	if !ok || textMax.Measurements[0] != (Measurement{"VALUE", 100}) || textMax.BaseUnit != "bytes" {
		t.Errorf("items.text.max: %+v", textMax)
	}
	cpu, ok := m.Metric("process.cpu.time", nil)
	if !ok || cpu.Measurements[0].Statistic != "COUNT" || cpu.BaseUnit != "seconds" {
		t.Errorf("process.cpu.time: %+v", cpu)
	}
}
