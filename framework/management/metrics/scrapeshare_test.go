package metrics

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// gatedGatherer counts its gatherings; when gated, each gathers, says so
// on started and then waits for release before returning, so that a test
// holds a rendering running while it sends more scrapes.
type gatedGatherer struct {
	g        prometheus.Gatherer
	gathered atomic.Int32
	gated    atomic.Bool
	started  chan struct{}
	release  chan struct{}
	// panicAt makes the gathering of that number panic.
	panicAt int32
}

func newGated(g prometheus.Gatherer) *gatedGatherer {
	gg := &gatedGatherer{g: g, started: make(chan struct{}, 100), release: make(chan struct{}, 100)}
	gg.gated.Store(true)
	return gg
}

func (g *gatedGatherer) Gather() ([]*dto.MetricFamily, error) {
	n := g.gathered.Add(1)
	if n == g.panicAt {
		panic("a collector gone wrong")
	}
	mfs, err := g.g.Gather()
	if g.gated.Load() {
		g.started <- struct{}{}
		<-g.release
	}
	return mfs, err
}

// awaitGathering waits until a gathering has started.
func (g *gatedGatherer) awaitGathering(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(10 * time.Second):
		t.Fatal("no gathering started")
	}
}

// registryWith is a registry with a counter that reads *n, and a gauge.
func registryWith(n *atomic.Int64) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "scrape_test_increments_total", Help: "Increments made."},
			func() float64 { return float64(n.Load()) }),
		prometheus.NewGauge(prometheus.GaugeOpts{Name: "scrape_test_gauge", Help: "A gauge.", ConstLabels: prometheus.Labels{"a": "b"}}),
	)
	return reg
}

// scrapeRequest is a scrape asking for a representation.
func scrapeRequest(accept, encoding string) *http.Request {
	r := httptest.NewRequest("GET", "/actuator/prometheus", nil)
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	if encoding != "" {
		r.Header.Set("Accept-Encoding", encoding)
	}
	return r
}

// serve runs one scrape in its own goroutine; its answer comes on the
// channel returned.
func serve(h http.Handler, r *http.Request) <-chan *httptest.ResponseRecorder {
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		done <- w
	}()
	return done
}

func answer(t *testing.T, done <-chan *httptest.ResponseRecorder) *httptest.ResponseRecorder {
	t.Helper()
	select {
	case w := <-done:
		return w
	case <-time.After(10 * time.Second):
		t.Fatal("a scrape did not end")
		return nil
	}
}

// waiting is the number of scrapes waiting for the next rendering of
// what r asks for.
func (s *scrapeShare) waiting(r *http.Request) int {
	rep, _ := s.representationOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	if rs := s.reps[rep]; rs != nil && rs.next != nil {
		return rs.next.waiting
	}
	return 0
}

// eventually polls cond until it holds, and fails the test if it does
// not within 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

var incrementsLine = regexp.MustCompile(`(?m)^scrape_test_increments_total (\d+)`)

func increments(t *testing.T, body string) int64 {
	t.Helper()
	m := incrementsLine.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no scrape_test_increments_total in %q", body)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return n
}

// TestScrapeShareAnswersAsPromhttp: whatever the scrape asks for, the
// handler writes the status, headers and bytes promhttp wrote before
// renderings were shared (the handler Handler had), errors included.
func TestScrapeShareAnswersAsPromhttp(t *testing.T) {
	m := mustNew(t, Options{})
	var n atomic.Int64
	n.Store(7)
	reg := registryWith(&n)
	failing := prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) { return nil, errors.New("the store is down") })
	for _, g := range []struct {
		name string
		g    prometheus.Gatherer
	}{{"metrics", reg}, {"error", failing}} {
		before := promhttp.HandlerFor(g.g, promhttp.HandlerOpts{
			EnableOpenMetrics: true, ErrorHandling: promhttp.ContinueOnError, ErrorLog: scrapeLog{m.logger}})
		now := m.handler(g.g)
		for _, c := range []struct{ accept, encoding, query string }{
			{"", "", ""},
			{"text/plain;version=0.0.4", "gzip", ""},
			{openMetricsAccept, "", ""},
			{openMetricsAccept, "gzip, deflate", ""},
			{"application/openmetrics-text;version=0.0.1", "", ""},
			{"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8", "", ""},
			{"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;q=0.3", "gzip;q=0.5, identity;q=0.6", ""},
			{"*/*", "*", ""},
			{"text/plain", "zstd", ""},
			{"", "", "name[]=scrape_test_gauge"},
		} {
			t.Run(fmt.Sprintf("%s %q %q %q", g.name, c.accept, c.encoding, c.query), func(t *testing.T) {
				var answers [2]*httptest.ResponseRecorder
				for i, h := range []http.Handler{before, now} {
					r := scrapeRequest(c.accept, c.encoding)
					r.URL.RawQuery = c.query
					answers[i] = httptest.NewRecorder()
					// What the dispatcher leaves on a Plain route's answer
					// (a CORS route's Vary), which promhttp's adds to.
					answers[i].Header()["Vary"] = []string{"Origin"}
					h.ServeHTTP(answers[i], r)
				}
				was, is := answers[0], answers[1]
				if was.Code != is.Code {
					t.Errorf("status %d, was %d", is.Code, was.Code)
				}
				if fmt.Sprint(was.Header()) != fmt.Sprint(is.Header()) {
					t.Errorf("headers\n%v\nwere\n%v", is.Header(), was.Header())
				}
				if !bytes.Equal(was.Body.Bytes(), is.Body.Bytes()) {
					t.Errorf("body\n%q\nwas\n%q", is.Body, was.Body)
				}
			})
		}
	}
}

// TestScrapesShareARendering: scrapes that come while a rendering runs
// wait for the next one, which all of them share: 20 scrapes, two
// renderings (the first scrape's own, and theirs).
func TestScrapesShareARendering(t *testing.T) {
	m := mustNew(t, Options{})
	var n atomic.Int64
	g := newGated(registryWith(&n))
	h := m.handler(g).(*scrapeShare)

	first := serve(h, scrapeRequest("", ""))
	g.awaitGathering(t)
	var rest []<-chan *httptest.ResponseRecorder
	for range 19 {
		rest = append(rest, serve(h, scrapeRequest("", "")))
	}
	eventually(t, "19 scrapes wait for the next rendering", func() bool { return h.waiting(scrapeRequest("", "")) == 19 })
	g.release <- struct{}{}
	want := answer(t, first).Body.String()
	g.awaitGathering(t)
	g.release <- struct{}{}
	for _, done := range rest {
		w := answer(t, done)
		if w.Code != 200 || w.Body.String() != want {
			t.Errorf("a sharing scrape got %d %q; want 200 %q", w.Code, w.Body, want)
		}
	}
	if got := g.gathered.Load(); got != 2 {
		t.Errorf("20 scrapes gathered %d times; want 2", got)
	}

	// Then a lone scrape renders at once, for itself.
	g.gated.Store(false)
	if w := answer(t, serve(h, scrapeRequest("", ""))); w.Body.String() != want {
		t.Errorf("a later scrape got %q; want %q", w.Body, want)
	}
	if got := g.gathered.Load(); got != 3 {
		t.Errorf("gathered %d times after a lone scrape; want 3", got)
	}
}

// TestScrapeIsNeverStale: a scrape that comes while a rendering runs does
// not get that rendering, taken before it came, but the next one.
func TestScrapeIsNeverStale(t *testing.T) {
	m := mustNew(t, Options{})
	var n atomic.Int64
	g := newGated(registryWith(&n))
	h := m.handler(g)

	first := serve(h, scrapeRequest("", ""))
	g.awaitGathering(t) // gathered: n was 0
	n.Add(1)
	second := serve(h, scrapeRequest("", ""))
	eventually(t, "the second scrape waits", func() bool { return h.(*scrapeShare).waiting(scrapeRequest("", "")) == 1 })
	g.release <- struct{}{}
	g.awaitGathering(t)
	g.release <- struct{}{}
	if got := increments(t, answer(t, first).Body.String()); got != 0 {
		t.Errorf("the first scrape saw %d increments; want 0", got)
	}
	if got := increments(t, answer(t, second).Body.String()); got != 1 {
		t.Errorf("the second scrape saw %d increments, its own missing; want 1", got)
	}

	// Many at once, each after an increment of its own: each sees its
	// own, however the renderings were shared.
	g.gated.Store(false)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			mine := n.Add(1)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, scrapeRequest("", ""))
			if got := increments(t, w.Body.String()); got < mine {
				t.Errorf("a scrape after increment %d saw %d", mine, got)
			}
		})
	}
	wg.Wait()
	t.Logf("51 concurrent scrapes gathered %d times", g.gathered.Load()-2)
}

// TestScrapeWaitCancelled: a scrape whose context ends while it waits
// stops waiting, and a rendering nobody waits for any more is skipped.
func TestScrapeWaitCancelled(t *testing.T) {
	m := mustNew(t, Options{})
	var n atomic.Int64
	g := newGated(registryWith(&n))
	h := m.handler(g).(*scrapeShare)

	first := serve(h, scrapeRequest("", ""))
	g.awaitGathering(t)
	ctx, cancel := context.WithCancel(context.Background())
	gone := serve(h, scrapeRequest("", "").WithContext(ctx))
	eventually(t, "the second scrape waits", func() bool { return h.waiting(scrapeRequest("", "")) == 1 })
	cancel()
	if w := answer(t, gone); w.Code != http.StatusServiceUnavailable {
		t.Errorf("a cancelled scrape answered %d; want 503", w.Code)
	}
	if got := h.waiting(scrapeRequest("", "")); got != 0 {
		t.Errorf("%d still waiting after the cancel; want 0", got)
	}
	g.release <- struct{}{}
	if w := answer(t, first); w.Code != 200 {
		t.Errorf("the first scrape answered %d", w.Code)
	}
	g.gated.Store(false)
	answer(t, serve(h, scrapeRequest("", ""))) // after the first scrape's hand-over
	if got := g.gathered.Load(); got != 2 {
		t.Errorf("gathered %d times; want 2: the first scrape and the last, none for the cancelled one", got)
	}
}

// TestScrapeRepresentationsDoNotShare: a scrape waits only for a rendering
// of what it asked for: each representation renders on its own.
func TestScrapeRepresentationsDoNotShare(t *testing.T) {
	m := mustNew(t, Options{})
	var n atomic.Int64
	g := newGated(registryWith(&n))
	h := m.handler(g).(*scrapeShare)
	type kind struct{ accept, encoding, query, contentType, contentEncoding string }
	kinds := []kind{
		{"", "", "", "text/plain; version=0.0.4; charset=utf-8; escaping=underscores", ""},
		{"", "gzip", "", "text/plain; version=0.0.4; charset=utf-8; escaping=underscores", "gzip"},
		{openMetricsAccept, "", "", "application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=underscores", ""},
		{"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8", "", "", "application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=allow-utf-8", ""},
		{openMetricsAccept, "gzip", "", "application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=underscores", "gzip"},
		{"application/openmetrics-text;version=0.0.1", "", "", "application/openmetrics-text; version=0.0.1; charset=utf-8; escaping=underscores", ""},
		{"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", "", "",
			"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited; escaping=underscores", ""},
	}
	request := func(k kind) *http.Request {
		r := scrapeRequest(k.accept, k.encoding)
		r.URL.RawQuery = k.query
		return r
	}
	// Each starts a rendering of its own while the others run.
	var firsts, seconds []<-chan *httptest.ResponseRecorder
	for _, k := range kinds {
		firsts = append(firsts, serve(h, request(k)))
		g.awaitGathering(t)
	}
	// A second of each waits for its own kind's next rendering.
	for i, k := range kinds {
		seconds = append(seconds, serve(h, request(k)))
		eventually(t, fmt.Sprintf("a second scrape of kind %d waits", i), func() bool { return h.waiting(request(k)) == 1 })
	}
	// A filtered scrape renders for itself whatever runs.
	filtered := serve(h, request(kind{query: "name[]=scrape_test_gauge"}))
	g.awaitGathering(t)
	for range 2*len(kinds) + 1 {
		g.release <- struct{}{}
	}
	for i, k := range kinds {
		a, b := answer(t, firsts[i]), answer(t, seconds[i])
		for _, w := range []*httptest.ResponseRecorder{a, b} {
			if ct, ce := w.Header().Get("Content-Type"), w.Header().Get("Content-Encoding"); ct != k.contentType || ce != k.contentEncoding {
				t.Errorf("Accept %q, Accept-Encoding %q: answered %q, %q; want %q, %q", k.accept, k.encoding, ct, ce, k.contentType, k.contentEncoding)
			}
		}
	}
	if body := answer(t, filtered).Body.String(); !regexp.MustCompile(`^# HELP scrape_test_gauge A gauge.\n# TYPE scrape_test_gauge gauge\nscrape_test_gauge\{a="b"\} 0\n$`).MatchString(body) {
		t.Errorf("a filtered scrape got %q", body)
	}
	if got, want := g.gathered.Load(), int32(2*len(kinds)+1); got != want {
		t.Errorf("gathered %d times; want %d", got, want)
	}
}

// TestChoosesGzipAsPromhttp: the scrapes that share a rendering are those
// promhttp would gzip alike.
func TestChoosesGzipAsPromhttp(t *testing.T) {
	var n atomic.Int64
	h := promhttp.HandlerFor(registryWith(&n), promhttp.HandlerOpts{
		OfferedCompressions: []promhttp.Compression{promhttp.Identity, promhttp.Gzip}})
	for _, values := range [][]string{
		nil, {""}, {"gzip"}, {"GZIP"}, {"identity"}, {"*"}, {"*;q=0"}, {"gzip;q=0"}, {"gzip;q=0, identity"},
		{"identity;q=0.5, gzip;q=0.5"}, {"identity;q=0.4, gzip;q=0.5"}, {"gzip;q=0.50, identity;q=0.5"},
		{"gzip;q=1.0"}, {"gzip;q=0.001, *;q=0"}, {"deflate, gzip"}, {"br;q=1.0, gzip;q=0.8, *;q=0.1"},
		{"gzip ; q=0.8"}, {"gzip;Q=0.8"}, {"gzip;q=.8"}, {"gzip;level=1"}, {"identity;level=1, gzip"},
		{"bad value, gzip"}, {"deflate,gzip"}, {" gzip"}, {"identity, *;q=2"}, {"x-gzip"}, {"gzip\t,identity"},
		{"identity;q=0", "gzip"}, {"gzip;q=0.5", "identity;q=0.9"}, {"zstd"}, {"gzip, identity;q=1.5"},
	} {
		r := httptest.NewRequest("GET", "/actuator/prometheus", nil)
		r.Header["Accept-Encoding"] = values
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if promhttpGzips := w.Header().Get("Content-Encoding") == "gzip"; choosesGzip(values) != promhttpGzips {
			t.Errorf("Accept-Encoding %q: choosesGzip says %v, promhttp gzips: %v", values, !promhttpGzips, promhttpGzips)
		}
	}
}

// TestScrapeRenderingPanics: a rendering for scrapes that share it which
// panics answers them 500, and the next scrape renders again.
func TestScrapeRenderingPanics(t *testing.T) {
	m := mustNew(t, Options{})
	var n atomic.Int64
	g := newGated(registryWith(&n))
	g.panicAt = 2
	h := m.handler(g).(*scrapeShare)

	first := serve(h, scrapeRequest("", ""))
	g.awaitGathering(t)
	second := serve(h, scrapeRequest("", ""))
	eventually(t, "the second scrape waits", func() bool { return h.waiting(scrapeRequest("", "")) == 1 })
	g.release <- struct{}{}
	if w := answer(t, first); w.Code != 200 {
		t.Errorf("the first scrape answered %d", w.Code)
	}
	if w := answer(t, second); w.Code != 500 {
		t.Errorf("a scrape whose rendering panicked answered %d %q; want 500", w.Code, w.Body)
	}
	g.gated.Store(false)
	if w := answer(t, serve(h, scrapeRequest("", ""))); w.Code != 200 {
		t.Errorf("the scrape after the panic answered %d", w.Code)
	}
}
