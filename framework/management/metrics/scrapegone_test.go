package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// goneWriter is the connection of a scraper that has gone: every write
// fails, as net/http's do once the peer reset the connection.
type goneWriter struct {
	header http.Header
	writes int
}

func (w *goneWriter) Header() http.Header { return w.header }
func (w *goneWriter) WriteHeader(int)     {}
func (w *goneWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errors.New("write: broken pipe")
}

// TestScrapeToAGoneScraperLogsOnce: a scrape whose scraper has gone,
// shared or filtered by name[] (which renders for itself), identity or
// gzip, writes its body once and logs that once, at DEBUG; promhttp
// writing to the connection itself logged a WARN line per metric family.
func TestScrapeToAGoneScraperLogsOnce(t *testing.T) {
	var logs bytes.Buffer
	m, err := New(Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 50)
	for i := range names {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: fmt.Sprintf("gone_test_total_%d", i), Help: "A family."})
		m.registry.MustRegister(c)
		names[i] = "name[]=" + fmt.Sprintf("gone_test_total_%d", i)
	}
	h := m.Handler()
	for _, target := range []string{"/actuator/prometheus", "/actuator/prometheus?" + strings.Join(names, "&")} {
		for _, encoding := range []string{"", "gzip"} {
			logs.Reset()
			r := httptest.NewRequest("GET", target, nil)
			if encoding != "" {
				r.Header.Set("Accept-Encoding", encoding)
			}
			w := &goneWriter{header: http.Header{}}
			h.ServeHTTP(w, r)
			what := fmt.Sprintf("%.40s, Accept-Encoding %q", target, encoding)
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			if w.writes != 1 {
				t.Errorf("%s: %d writes to the gone scraper, want 1", what, w.writes)
			}
			if len(lines) != 1 || !strings.Contains(lines[0], "level=DEBUG") || !strings.Contains(lines[0], "broken pipe") {
				t.Errorf("%s: logged %q, want one DEBUG line with the write's error", what, lines)
			}
		}
	}
}
