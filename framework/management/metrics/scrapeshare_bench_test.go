package metrics

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// discardWriter is a client that takes everything at once, so that a
// benchmark measures the handler and not a recorder's buffer.
type discardWriter struct {
	header http.Header
	n      int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// BenchmarkScrape is one scrape at a time, the normal Prometheus scrape:
// sharing renderings must not make it slower.
func BenchmarkScrape(b *testing.B) {
	for _, c := range []struct{ name, accept, encoding string }{
		{"text", "", ""},
		{"openmetrics-gzip", openMetricsAccept, "gzip"},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := mustNew(b, Options{PercentilesHistogram: true})
			observeSome(m)
			h := m.Handler()
			r := httptest.NewRequest("GET", "/actuator/prometheus", nil)
			if c.accept != "" {
				r.Header.Set("Accept", c.accept)
			}
			if c.encoding != "" {
				r.Header.Set("Accept-Encoding", c.encoding)
			}
			w := &discardWriter{header: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.header)
				h.ServeHTTP(w, r)
			}
			b.ReportMetric(float64(w.n)/float64(b.N), "bytes/scrape")
		})
	}
}
