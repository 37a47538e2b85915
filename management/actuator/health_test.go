package actuator

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// healthServer serves the health endpoints with one indicator, db, whose
// answer the test sets through down.
func healthServer(t *testing.T, display HealthDisplay) (get func(path string) (int, string), probes *Probes, down *atomic.Bool) {
	t.Helper()
	down = &atomic.Bool{}
	probes = NewProbes(Indicator{Name: "db", Check: func(context.Context) (map[string]any, error) {
		if down.Load() {
			return nil, errors.New("PostgreSQL is unavailable: connection refused")
		}
		return map[string]any{"database": "PostgreSQL", "validationQuery": "isValid()"}, nil
	}})
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{Health}}, Probes: probes, HealthDisplay: display})...)
	if err != nil {
		t.Fatal(err)
	}
	return func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body)
	}, probes, down
}

func TestHealthShowsWhatTheSettingsSay(t *testing.T) {
	tests := []struct {
		name     string
		display  HealthDisplay
		down     bool
		status   int
		wantBody string
	}{
		{"default: the status only", HealthDisplay{}, false, 200, `{"status":"UP"}`},
		{"never", HealthDisplay{ShowComponents: "never", ShowDetails: "never"}, false, 200, `{"status":"UP"}`},
		{"when-authorized is never without authentication", HealthDisplay{ShowComponents: "when-authorized", ShowDetails: "when-authorized"}, false, 200, `{"status":"UP"}`},
		{"components", HealthDisplay{ShowComponents: "always"}, false, 200, `{"status":"UP","components":{"db":{"status":"UP"}}}`},
		{"details", HealthDisplay{ShowDetails: "always"}, false, 200, `{"status":"UP","components":{"db":{"status":"UP","details":{"database":"PostgreSQL","validationQuery":"isValid()"}}}}`},
		{"a dependency down is DOWN, 503", HealthDisplay{}, true, 503, `{"status":"DOWN"}`},
		{"and its error is a detail", HealthDisplay{ShowDetails: "always"}, true, 503, `{"status":"DOWN","components":{"db":{"status":"DOWN","details":{"error":"PostgreSQL is unavailable: connection refused"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			get, _, down := healthServer(t, tt.display)
			down.Store(tt.down)
			if code, body := get("/actuator/health"); code != tt.status || body != tt.wantBody {
				t.Errorf("got %d %s\nwant %d %s", code, body, tt.status, tt.wantBody)
			}
		})
	}
}

func TestProbes(t *testing.T) {
	get, probes, down := healthServer(t, HealthDisplay{ShowDetails: "always"})
	check := func(when, path string, wantCode int, wantBody string) {
		t.Helper()
		if code, body := get(path); code != wantCode || body != wantBody {
			t.Errorf("%s: %s answered %d %s, want %d %s", when, path, code, body, wantCode, wantBody)
		}
	}
	check("at start", "/actuator/health/readiness", 200, `{"status":"UP"}`)
	check("at start", "/actuator/health/liveness", 200, `{"status":"UP"}`)

	down.Store(true)
	check("with the database down", "/actuator/health/readiness", 503, `{"status":"OUT_OF_SERVICE"}`)
	check("with the database down", "/actuator/health/liveness", 200, `{"status":"UP"}`)

	down.Store(false)
	check("with the database back", "/actuator/health/readiness", 200, `{"status":"UP"}`)

	probes.RefuseTraffic()
	check("shutting down", "/actuator/health/readiness", 503, `{"status":"OUT_OF_SERVICE"}`)
	check("shutting down", "/actuator/health/liveness", 200, `{"status":"UP"}`)
	check("shutting down", "/actuator/health", 503, `{"status":"OUT_OF_SERVICE","components":{"db":{"status":"UP","details":{"database":"PostgreSQL","validationQuery":"isValid()"}}}}`)
}

func TestHealthChecksAreBounded(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	probes := NewProbes(Indicator{Name: "redis", Check: func(ctx context.Context) (map[string]any, error) {
		<-release // a driver that answers long after its context ended
		return nil, ctx.Err()
	}})
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{Health}}, Probes: probes})...)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/actuator/health/readiness", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("a hung dependency: readiness answered %d, want 503", rec.Code)
	}
}
