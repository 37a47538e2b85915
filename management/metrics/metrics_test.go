package metrics

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

func TestObserve(t *testing.T) {
	m := New()
	for _, o := range []dispatch.Observation{
		{Method: "GET", Route: "/a/{id}", Status: 200, Duration: 2 * time.Millisecond},
		{Method: "GET", Route: "/a/{id}", Status: 200, Duration: 3 * time.Millisecond},
		{Method: "BREW", Route: dispatch.Unknown, Status: 405, Duration: time.Millisecond},
		{Method: "PROPFIND", Route: dispatch.Unknown, Status: 405, Duration: time.Millisecond},
	} {
		m.Observe(o)
	}
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	text := w.Body.String()
	for _, want := range []string{
		`http_server_requests_seconds_count{method="GET",status="200",uri="/a/{id}"} 2`,
		`http_server_requests_seconds_sum{method="GET",status="200",uri="/a/{id}"} 0.005`,
		`http_server_requests_seconds_bucket{method="GET",status="200",uri="/a/{id}",le="0.0025"} 1`,
		`http_server_requests_seconds_count{method="other",status="405",uri="UNKNOWN"} 2`,
		"# TYPE go_goroutines gauge",
		"# TYPE process_cpu_seconds_total counter",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestObserveAllocatesNothingOnceWarm(t *testing.T) {
	m := New()
	o := dispatch.Observation{Method: "GET", Route: "/a", Status: 200, Duration: time.Millisecond}
	m.Observe(o)
	if n := testing.AllocsPerRun(100, func() { m.Observe(o) }); n != 0 {
		t.Errorf("Observe allocates %v times per call once its labels are known, want 0", n)
	}
}
