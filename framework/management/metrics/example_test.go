package metrics_test

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/metrics"
)

// The metrics observe every request a dispatcher answers, and a service
// adds gauges of its own; a Prometheus server scrapes the handler, which a
// service serves at /actuator/prometheus. Requests are counted by route
// pattern, never by raw path, so that /items/1 and /items/2 are one series.
func ExampleNew() {
	m, err := metrics.New(metrics.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	items := map[int32]string{1: "kettle", 2: "teapot"} // a real store is safe for concurrent use
	m.Gauges(func() []metrics.Gauge {
		return []metrics.Gauge{{Name: "items_stored", Help: "Items in the store", Value: float64(len(items))}}
	})

	id := dispatch.Path[int32]("id")
	d, err := dispatch.New(dispatch.Options{Observers: []func(dispatch.Observation){m.Observe}},
		dispatch.Route{Method: "GET", Pattern: "/items/{id}", Inputs: []dispatch.Input{id},
			Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) { return items[id.Get(r)], nil })})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, path := range []string{"/items/1", "/items/2", "/items/x"} {
		d.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}

	scrape := httptest.NewRecorder()
	m.Handler().ServeHTTP(scrape, httptest.NewRequest("GET", "/actuator/prometheus", nil))
	fmt.Println(scrape.Header().Get("Content-Type"))
	lines := bufio.NewScanner(scrape.Body)
	for lines.Scan() {
		if line := lines.Text(); strings.HasPrefix(line, "http_server_requests_seconds_count") || strings.Contains(line, "items_stored") {
			fmt.Println(line)
		}
	}
	// Output:
	// text/plain; version=0.0.4; charset=utf-8; escaping=underscores
	// http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="400",uri="/items/{id}"} 1
	// http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/items/{id}"} 2
	// # HELP items_stored Items in the store
	// # TYPE items_stored gauge
	// items_stored 2
}

// Metric reads the registry back as Spring's /actuator/metrics/{name}
// does: a meter's statistics summed over the series that have the tags
// asked for, and the other tags those series have.
func ExampleHTTP_Metric() {
	m, err := metrics.New(metrics.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, status := range []int{200, 200, 404} { // what a dispatcher reports of each request
		m.Observe(dispatch.Observation{Method: "GET", Route: "/items/{id}", RouteID: 1, Status: status})
	}

	meter, ok := m.Metric("http.server.requests", []metrics.Tag{{Key: "uri", Value: "/items/{id}"}})
	fmt.Println(meter.Name, ok, meter.BaseUnit)
	for _, s := range meter.Measurements {
		if s.Statistic == "COUNT" {
			fmt.Println(s.Statistic, s.Value)
		}
	}
	for _, t := range meter.AvailableTags {
		fmt.Println(t.Tag, t.Values)
	}
	// Output:
	// http.server.requests true seconds
	// COUNT 3
	// error [none]
	// exception [none]
	// method [GET]
	// outcome [CLIENT_ERROR SUCCESS]
	// status [200 404]
}
