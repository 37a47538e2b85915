package otlp

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/protobuf/proto"

	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/testing/polltest"
)

// collector answers each export with status(n), n counting from 0, and
// counts what it took.
func collector(t *testing.T, status func(n int) int) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	var taken atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		if err := proto.Unmarshal(raw, &collectorpb.ExportMetricsServiceRequest{}); err != nil {
			t.Errorf("not an ExportMetricsServiceRequest: %v", err)
		}
		code := status(int(n.Add(1) - 1))
		if code != http.StatusOK {
			http.Error(w, "later", code)
			return
		}
		taken.Add(1)
	}))
	t.Cleanup(srv.Close)
	return srv, &taken
}

// logBuffer is a log that tests may read while the exporter writes it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func start(url string, step, read time.Duration, log *logBuffer) *Exporter {
	return Start(Options{URL: url, Step: step, ConnectTimeout: 100 * time.Millisecond, ReadTimeout: read,
		Resource: map[string]string{"service.name": "t"},
		Read: func() []metrics.Snapshot {
			return []metrics.Snapshot{{Name: "orders.placed", Type: metrics.CounterMeter, Series: []metrics.SeriesSnapshot{{Value: 1}}}}
		},
		Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
}

// A collector that refuses for now (503) and then takes the export is
// retried within the export: it is taken, and nothing is warned about.
func TestRefusedForNowIsRetried(t *testing.T) {
	srv, taken := collector(t, func(n int) int {
		if n == 0 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	var log logBuffer
	e := start(srv.URL, time.Hour, 2*time.Second, &log)
	if err := e.Shutdown(); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if taken.Load() != 1 || strings.Contains(log.String(), "WARN") {
		t.Errorf("%d exports taken, log:\n%s\nwant 1, retried after the 503, and no warning", taken.Load(), log.String())
	}
}

// A collector that stays out of reach for several steps costs one
// warning, not one per step; when it takes the meters again, that is
// said once too.
func TestAnOutageIsWarnedAboutOnce(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	srv, taken := collector(t, func(int) int {
		if down.Load() {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	var log logBuffer
	e := start(srv.URL, 20*time.Millisecond, 50*time.Millisecond, &log)
	defer e.Shutdown()
	if !polltest.Poll(10*time.Second, func() bool { return strings.Count(log.String(), "could not be pushed") >= 4 }) {
		t.Fatalf("fewer than 4 failed exports logged:\n%s", log.String())
	}
	down.Store(false)
	if !polltest.Poll(10*time.Second, func() bool {
		return taken.Load() > 0 && strings.Contains(log.String(), "pushed to the OTLP collector again")
	}) {
		t.Fatalf("the collector back took nothing:\n%s", log.String())
	}
	out := log.String()
	if n := strings.Count(out, "level=WARN"); n != 1 {
		t.Errorf("%d warnings over the outage, want 1:\n%s", n, out)
	}
	if n := strings.Count(out, "pushed to the OTLP collector again"); n != 1 {
		t.Errorf("%d recoveries logged, want 1:\n%s", n, out)
	}
}

// A collector that does not answer holds the last export no longer than
// the timeouts (connect + read), and the exporter's shutdown with it.
func TestASlowCollectorIsBoundedByTheTimeouts(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	var log logBuffer
	e := start(srv.URL, time.Hour, 300*time.Millisecond, &log)
	began := time.Now()
	err := e.Shutdown()
	if took := time.Since(began); took > 5*time.Second || err == nil {
		t.Errorf("Shutdown took %v and returned %v; want an error within the 400 ms of timeouts (5 s allowed a loaded machine)", took, err)
	}
}

// A step's export that a collector holds is cut off by Shutdown, whose
// own export follows at once and is taken, rather than holding the
// shutdown for the whole timeout (an hour here) before the last export
// even starts; the cut-off one is not warned about.
func TestShutdownCutsOffAStepsExport(t *testing.T) {
	held, release := make(chan struct{}), make(chan struct{})
	var n, taken atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if n.Add(1) == 1 {
			close(held)
			select { // the first export is held until its client gives up
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		taken.Add(1)
	}))
	defer srv.Close()
	defer close(release)
	var log logBuffer
	e := start(srv.URL, 20*time.Millisecond, time.Hour, &log)
	<-held
	shut := make(chan error, 1)
	go func() { shut <- e.Shutdown() }()
	select {
	case err := <-shut:
		if err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
	case <-time.After(30 * time.Second): // a bound on a failure, not a wait for success
		t.Fatal("Shutdown still waits, 30 s on, for the step's export that the collector holds")
	}
	if taken.Load() != 1 || strings.Contains(log.String(), "WARN") {
		t.Errorf("%d exports taken, log:\n%s\nwant the last one, and no warning of the one cut off", taken.Load(), log.String())
	}
}
