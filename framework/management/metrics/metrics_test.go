package metrics

import (
	"errors"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/testing/promtooltest"
)

type notFoundError struct{}

func (*notFoundError) Error() string { return "not found" }

func observeSome(m *HTTP) {
	now := time.Now()
	for _, o := range []dispatch.Observation{
		{Method: "GET", Route: "/a/{id}", Status: 200, Duration: 2 * time.Millisecond, End: now},
		{Method: "GET", Route: "/a/{id}", Status: 200, Duration: 3 * time.Millisecond, End: now},
		// An error answered with a 4xx is the client's, as Spring MVC
		// answers one: none.
		{Method: "GET", Route: "/a/{id}", Status: 404, Duration: time.Millisecond, End: now, Err: &notFoundError{}},
		{Method: "GET", Route: "/a/{id}", Status: 500, Duration: time.Millisecond, End: now,
			Err: &dispatch.Error{Status: 500, Err: errors.New("boom")}},
		{Method: "BREW", Route: dispatch.Unknown, Status: 405, Duration: time.Millisecond, End: now},
		{Method: "PROPFIND", Route: dispatch.Unknown, Status: 405, Duration: time.Millisecond, End: now},
		{Method: "GET", Route: dispatch.NotFound, Status: 404, Duration: time.Millisecond, End: now},
		{Method: "GET", Route: dispatch.Redirection, Status: 301, Duration: time.Millisecond, End: now},
		{Method: "GET", Route: "/a/{id}", Status: 599, Duration: time.Millisecond, End: now},
	} {
		m.Observe(o)
	}
}

func TestObserve(t *testing.T) {
	m := mustNew(t, Options{})
	observeSome(m)
	text := scrape(m)
	for _, want := range []string{
		"# TYPE http_server_requests_seconds summary\n",
		"# TYPE http_server_requests_seconds_max gauge\n",
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/a/{id}"} 2` + "\n",
		`http_server_requests_seconds_sum{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/a/{id}"} 0.005` + "\n",
		`http_server_requests_seconds_max{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/a/{id}"} 0.003` + "\n",
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="404",uri="/a/{id}"} 1`,
		// A server error is named by its error's type, a *dispatch.Error
		// by its cause.
		`http_server_requests_seconds_count{error="RuntimeException",exception="RuntimeException",method="GET",outcome="SERVER_ERROR",status="500",uri="/a/{id}"} 1`,
		`http_server_requests_seconds_count{error="none",exception="none",method="other",outcome="CLIENT_ERROR",status="405",uri="UNKNOWN"} 2`,
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="404",uri="NOT_FOUND"} 1`,
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="REDIRECTION",status="301",uri="REDIRECTION"} 1`,
		`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="UNKNOWN",status="599",uri="/a/{id}"} 1`,
		"# TYPE go_goroutines gauge",
		"# TYPE process_cpu_seconds_total counter",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(text, "http_server_requests_seconds_bucket") || strings.Contains(text, "http_server_requests_seconds{") {
		t.Error("buckets or quantiles without the percentiles histogram")
	}
}

func TestPercentilesHistogram(t *testing.T) {
	m := mustNew(t, Options{PercentilesHistogram: true})
	observeSome(m)
	text := scrape(m)
	const series = `error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/a/{id}"`
	for _, want := range []string{
		"# TYPE http_server_requests_seconds histogram\n",
		"# TYPE http_server_requests_seconds_max gauge\n",
		"http_server_requests_seconds_bucket{" + series + `,le="0.001"} 0` + "\n",
		"http_server_requests_seconds_bucket{" + series + `,le="0.002097151"} 1` + "\n",
		"http_server_requests_seconds_bucket{" + series + `,le="0.003145726"} 2` + "\n",
		"http_server_requests_seconds_bucket{" + series + `,le="28.633115306"} 2` + "\n",
		"http_server_requests_seconds_bucket{" + series + `,le="30"} 2` + "\n",
		"http_server_requests_seconds_bucket{" + series + `,le="+Inf"} 2` + "\n",
		"http_server_requests_seconds_count{" + series + "} 2\n",
		"http_server_requests_seconds_max{" + series + "} 0.003\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if n := strings.Count(text, "http_server_requests_seconds_bucket{"+series); n != len(timerBuckets)+1 {
		t.Errorf("%d buckets, want %d and +Inf", n, len(timerBuckets))
	}
}

// TestMicrometerBuckets checks the buckets against those Micrometer
// publishes for a timer with the percentiles histogram on (1 ms to 30 s).
func TestMicrometerBuckets(t *testing.T) {
	if len(timerBuckets) != 68 {
		t.Errorf("%d buckets, Micrometer has 68 between 1 ms and 30 s", len(timerBuckets))
	}
	for i, want := range map[int]int64{0: 1_000_000, 1: 1_048_576, 2: 1_398_101, 10: 4_194_304, 66: 28_633_115_306, 67: 30_000_000_000} {
		if i < len(timerBuckets) && timerBuckets[i] != want {
			t.Errorf("bucket %d is %d ns, want %d", i, timerBuckets[i], want)
		}
	}
}

func TestWindowMax(t *testing.T) {
	// Micrometer's TimeWindowMax: 2 minutes in 3 buffers, rotated every
	// 40 s; a value lives until the rotation after 80 s from the start of
	// its 40 s.
	var w windowMax
	w.record(int64(5*time.Millisecond), 0)
	w.record(int64(2*time.Millisecond), 50*time.Second)
	w.record(int64(time.Millisecond), 60*time.Second)
	for _, c := range []struct{ at, want time.Duration }{
		{30 * time.Second, 5 * time.Millisecond},
		{110 * time.Second, 5 * time.Millisecond},
		{125 * time.Second, 2 * time.Millisecond}, // the 5 ms of 0 s expired at 120 s
		{165 * time.Second, 0},                    // the others at 160 s
		{time.Hour, 0},
	} {
		if got := w.poll(c.at); got != int64(c.want) {
			t.Errorf("max at %v is %v, want %v", c.at, time.Duration(got), c.want)
		}
	}
	w.record(int64(7*time.Millisecond), time.Hour+time.Second)
	if got := w.poll(time.Hour + 2*time.Second); got != int64(7*time.Millisecond) {
		t.Errorf("max after an idle hour is %v, want 7ms", time.Duration(got))
	}
}

func TestOpenMetrics(t *testing.T) {
	m := mustNew(t, Options{})
	observeSome(m)
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/metrics", nil)
	r.Header.Set("Accept", "application/openmetrics-text;version=1.0.0")
	m.Handler().ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") {
		t.Fatalf("Content-Type %q, want OpenMetrics", ct)
	}
	if body := w.Body.String(); !strings.HasSuffix(body, "# EOF\n") || !strings.Contains(body, "http_server_requests_seconds_count{") {
		t.Errorf("not an OpenMetrics exposition of the requests:\n%s", body)
	}
}

// TestObserveByRouteID checks that observations that name their route by
// RouteID land in the series their labels name, as those without do.
func TestObserveByRouteID(t *testing.T) {
	end := time.Now()
	var obs []dispatch.Observation
	for i, status := range []int{200, 200, 404, 200, 500, 404, 200} {
		o := dispatch.Observation{Method: "GET", Route: "/a/{id}", RouteID: 7, Status: status, Duration: time.Duration(i+1) * time.Millisecond, End: end}
		if status == 500 {
			o.Err = errors.New("boom")
		}
		obs = append(obs, o, dispatch.Observation{Method: "HEAD", Route: "/a/{id}", RouteID: 7, Status: status, Duration: time.Millisecond, End: end},
			dispatch.Observation{Method: "GET", Route: "/b", RouteID: 3, Status: status, Duration: time.Millisecond, End: end})
	}
	byID, byLabels := mustNew(t, Options{}), mustNew(t, Options{})
	for _, o := range obs {
		byID.Observe(o)
		o.RouteID = 0
		byLabels.Observe(o)
	}
	requests := func(m *HTTP) string {
		var lines []string
		for line := range strings.Lines(scrape(m)) {
			if strings.HasPrefix(line, "http_server_requests_seconds") {
				lines = append(lines, line)
			}
		}
		return strings.Join(lines, "")
	}
	if got, want := requests(byID), requests(byLabels); got != want || !strings.Contains(got, `uri="/b"`) {
		t.Errorf("observed by route ID:\n%s\nby labels:\n%s", got, want)
	}
}

func TestObserveAllocatesNothingOnceWarm(t *testing.T) {
	for _, histogram := range []bool{false, true} {
		m := mustNew(t, Options{PercentilesHistogram: histogram})
		o := dispatch.Observation{Method: "GET", Route: "/a", Status: 200, Duration: time.Millisecond, End: time.Now()}
		m.Observe(o)
		if n := testing.AllocsPerRun(100, func() { m.Observe(o) }); n != 0 {
			t.Errorf("Observe (histogram %v) allocates %v times per call once its labels are known, want 0", histogram, n)
		}
	}
}

func BenchmarkObserve(b *testing.B) {
	m := mustNew(b, Options{})
	o := dispatch.Observation{Method: "GET", Route: "/a", Status: 200, Duration: time.Millisecond, End: time.Now()}
	b.ReportAllocs()
	for b.Loop() {
		m.Observe(o)
	}
}

// TestPromtool checks the exposition with promtool check metrics, as an
// operator would: the histogram and the store gauges included.
func TestPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not on PATH (Debian's prometheus package has it): the exposition is not checked")
	}
	for _, histogram := range []bool{false, true} {
		m := mustNew(t, Options{PercentilesHistogram: histogram})
		m.Sessions(func() int { return 1 }, 10, func() uint64 { return 0 })
		m.Gauges(storeGauges)
		observeSome(m)
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = strings.NewReader(scrape(m))
		if out, err := cmd.CombinedOutput(); err != nil && !promtooltest.OnlyMicrometersLint(err, out) {
			t.Errorf("promtool check metrics (histogram %v): %v\n%s", histogram, err, out)
		}
	}
}

// storeGauges are the gauges of a store, as a service would report them.
func storeGauges() []Gauge {
	return []Gauge{
		{Name: "items_stored", Help: "Items held now.", Value: 3},
		{Name: "items_stored_max", Help: "Items held at most.", Value: 10},
		{Name: "items_text_bytes", Help: "Bytes of text held now.", Value: 12},
		{Name: "items_text_bytes_max", Help: "Bytes of text held at most.", Value: 100},
	}
}

// BenchmarkObserveByRoute is Observe as a dispatcher calls it: the route
// named by its ID, as every request a route took is.
func BenchmarkObserveByRoute(b *testing.B) {
	m := mustNew(b, Options{})
	o := dispatch.Observation{Method: "GET", Route: "/a", RouteID: 1, Status: 200, Duration: time.Millisecond, End: time.Now()}
	b.ReportAllocs()
	for b.Loop() {
		m.Observe(o)
	}
}
