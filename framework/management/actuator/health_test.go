package actuator

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// healthServer serves the health endpoints with one indicator, db, whose
// answer the test sets through down.
func healthServer(t *testing.T, opts Options) (get func(path string) (int, string), probes *Probes, down *atomic.Bool) {
	t.Helper()
	down = &atomic.Bool{}
	probes = NewProbes(Indicator{Name: "db", Check: func(context.Context) (map[string]any, error) {
		if down.Load() {
			return nil, errors.New("PostgreSQL is unavailable: connection refused")
		}
		return map[string]any{"database": "PostgreSQL", "validationQuery": "isValid()"}, nil
	}})
	opts.Exposure, opts.Probes = Exposure{Include: []string{Health}}, probes
	h, err := dispatch.New(dispatch.Options{}, Routes(opts)...)
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

const groups = `"groups":["liveness","readiness"]`

func TestHealthShowsWhatTheSettingsSay(t *testing.T) {
	tests := []struct {
		name     string
		display  HealthDisplay
		down     bool
		status   int
		wantBody string
	}{
		{"default: the status and the groups", HealthDisplay{}, false, 200, `{"status":"UP",` + groups + `}`},
		{"never", HealthDisplay{ShowComponents: "never", ShowDetails: "never"}, false, 200, `{"status":"UP",` + groups + `}`},
		{"when-authorized is never without authentication", HealthDisplay{ShowComponents: "when-authorized", ShowDetails: "when-authorized"}, false, 200, `{"status":"UP",` + groups + `}`},
		{"components", HealthDisplay{ShowComponents: "always"}, false, 200,
			`{"status":"UP","components":{"db":{"status":"UP"},"diskSpace":{"status":"UP"},"ping":{"status":"UP"}},` + groups + `}`},
		{"a dependency down is DOWN, 503", HealthDisplay{}, true, 503, `{"status":"DOWN",` + groups + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			get, _, down := healthServer(t, Options{HealthDisplay: tt.display})
			down.Store(tt.down)
			if code, body := get("/actuator/health"); code != tt.status || body != tt.wantBody {
				t.Errorf("got %d %s\nwant %d %s", code, body, tt.status, tt.wantBody)
			}
		})
	}
}

// TestHealthDetails checks the details in Spring's shapes: the store's
// own, or its error, and diskSpace's.
func TestHealthDetails(t *testing.T) {
	get, _, down := healthServer(t, Options{HealthDisplay: HealthDisplay{ShowDetails: "always"}, DiskSpace: DiskSpace{Threshold: DefaultDiskSpaceThreshold}})
	var h struct {
		Status     string
		Components map[string]struct {
			Status  string
			Details map[string]any
		}
		Groups []string
	}
	_, body := get("/actuator/health")
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		t.Fatal(err)
	}
	disk := h.Components["diskSpace"]
	if disk.Status != "UP" || disk.Details["threshold"] != float64(10<<20) || disk.Details["exists"] != true ||
		disk.Details["total"].(float64) <= 0 || disk.Details["free"].(float64) <= 0 || !strings.HasPrefix(disk.Details["path"].(string), "/") {
		t.Errorf("diskSpace: %+v", disk)
	}
	if db := h.Components["db"]; db.Details["database"] != "PostgreSQL" || db.Details["validationQuery"] != "isValid()" {
		t.Errorf("db: %+v", db)
	}
	if ping := h.Components["ping"]; ping.Status != "UP" || ping.Details != nil {
		t.Errorf("ping: %+v", ping)
	}
	down.Store(true)
	if code, body := get("/actuator/health/db"); code != 503 || body != `{"status":"DOWN","details":{"error":"PostgreSQL is unavailable: connection refused"}}` {
		t.Errorf("/actuator/health/db with the database down: %d %s", code, body)
	}
}

func TestDiskSpace(t *testing.T) {
	ctx := context.Background()
	if h := (DiskSpace{Path: t.TempDir(), Threshold: 1 << 62}).check(ctx); h.Status != "DOWN" || h.Details["exists"] != true {
		t.Errorf("below the threshold: %+v, want DOWN", h)
	}
	if h := (DiskSpace{Path: "/no/such/dir", Threshold: 1}).check(ctx); h.Status != "DOWN" || h.Details["exists"] != false || h.Details["free"] != uint64(0) {
		t.Errorf("a path that does not exist: %+v, want DOWN with exists false", h)
	}
	if h := (DiskSpace{Path: t.TempDir(), Threshold: 1}).check(ctx); h.Status != "UP" {
		t.Errorf("above the threshold: %+v, want UP", h)
	}
}

func TestAggregate(t *testing.T) {
	for _, tt := range []struct {
		statuses []string
		want     string
	}{
		{nil, "UNKNOWN"},
		{[]string{"UNKNOWN", "UP"}, "UP"},
		{[]string{"UP", "OUT_OF_SERVICE"}, "OUT_OF_SERVICE"},
		{[]string{"OUT_OF_SERVICE", "DOWN", "UP"}, "DOWN"},
		{[]string{"UNKNOWN"}, "UNKNOWN"},
	} {
		if got := aggregate(tt.statuses); got != tt.want {
			t.Errorf("%v: %s, want %s", tt.statuses, got, tt.want)
		}
	}
}

func TestHealthPaths(t *testing.T) {
	hidden, _, _ := healthServer(t, Options{})
	shown, _, down := healthServer(t, Options{HealthDisplay: HealthDisplay{ShowComponents: "always"},
		HealthGroups: map[string][]string{"custom": {"db", "ping"}, "all": {"*"}}})
	for _, tt := range []struct {
		get        func(string) (int, string)
		path       string
		down       bool
		wantStatus int
		wantBody   string
	}{
		// A group is shown whatever show-components says; a component
		// only where components are shown, as in Spring.
		{hidden, "/actuator/health/readiness", false, 200, `{"status":"UP"}`},
		{hidden, "/actuator/health/ping", false, 404, ""},
		{hidden, "/actuator/health/readiness/db", false, 404, ""},
		{shown, "/actuator/health/ping", false, 200, `{"status":"UP"}`},
		{shown, "/actuator/health/db", false, 200, `{"status":"UP"}`},
		{shown, "/actuator/health/readiness/db", false, 200, `{"status":"UP"}`},
		{shown, "/actuator/health/liveness/db", false, 404, ""},
		{shown, "/actuator/health/nothing", false, 404, ""},
		{shown, "/actuator/health/custom", false, 200, `{"status":"UP","components":{"db":{"status":"UP"},"ping":{"status":"UP"}}}`},
		{shown, "/actuator/health/custom", true, 503, `{"status":"DOWN","components":{"db":{"status":"DOWN"},"ping":{"status":"UP"}}}`},
		{shown, "/actuator/health/all", false, 200, `{"status":"UP","components":{"db":{"status":"UP"},"diskSpace":{"status":"UP"},"ping":{"status":"UP"}}}`},
		{shown, "/actuator/health", false, 200, `{"status":"UP","components":{"db":{"status":"UP"},"diskSpace":{"status":"UP"},"ping":{"status":"UP"}},"groups":["all","custom","liveness","readiness"]}`},
	} {
		down.Store(tt.down)
		code, body := tt.get(tt.path)
		if code != tt.wantStatus || (tt.wantBody != "" && body != tt.wantBody) {
			t.Errorf("%s (db down: %v): %d %s\nwant %d %s", tt.path, tt.down, code, body, tt.wantStatus, tt.wantBody)
		}
		if code == 404 && !strings.Contains(body, `"detail":"No health component or group is named`) {
			t.Errorf("%s: 404 without its problem document: %s", tt.path, body)
		}
	}
}

func TestHealthGroupsAreChecked(t *testing.T) {
	probes := NewProbes(Indicator{Name: "db"})
	if err := CheckHealthGroups(Options{Probes: probes, HealthGroups: map[string][]string{"custom": {"db", "readinessState", "*"}}}); err != nil {
		t.Errorf("known members: %v", err)
	}
	err := CheckHealthGroups(Options{Probes: probes, HealthGroups: map[string][]string{"custom": {"dB"}}})
	if err == nil || !strings.Contains(err.Error(), `management.endpoint.health.group.custom.include: no health component is named "dB"`) {
		t.Errorf("a misspelt member: %v", err)
	}
}

func TestProbes(t *testing.T) {
	get, probes, down := healthServer(t, Options{HealthDisplay: HealthDisplay{ShowComponents: "always"}})
	check := func(when, path string, wantCode int, wantBody string) {
		t.Helper()
		if code, body := get(path); code != wantCode || body != wantBody {
			t.Errorf("%s: %s answered %d %s, want %d %s", when, path, code, body, wantCode, wantBody)
		}
	}
	check("at start", "/actuator/health/readiness", 200, `{"status":"UP","components":{"db":{"status":"UP"},"readinessState":{"status":"UP"}}}`)
	// Liveness, its state alone, shows its status alone, as Spring's
	// probe groups do.
	check("at start", "/actuator/health/liveness", 200, `{"status":"UP"}`)
	if code, _ := get("/actuator/health/liveness/livenessState"); code != 404 {
		t.Errorf("/actuator/health/liveness/livenessState answered %d, want 404: a probe group shows no member", code)
	}

	// A dependency down takes traffic away; it is not the service's own
	// failure, so readiness is OUT_OF_SERVICE rather than DOWN.
	down.Store(true)
	check("with the database down", "/actuator/health/readiness", 503, `{"status":"OUT_OF_SERVICE","components":{"db":{"status":"DOWN"},"readinessState":{"status":"UP"}}}`)
	check("with the database down", "/actuator/health/liveness", 200, `{"status":"UP"}`)

	down.Store(false)
	check("with the database back", "/actuator/health/readiness", 200, `{"status":"UP","components":{"db":{"status":"UP"},"readinessState":{"status":"UP"}}}`)

	probes.RefuseTraffic()
	check("shutting down", "/actuator/health/readiness", 503, `{"status":"OUT_OF_SERVICE","components":{"db":{"status":"UP"},"readinessState":{"status":"OUT_OF_SERVICE"}}}`)
	check("shutting down", "/actuator/health/liveness", 200, `{"status":"UP"}`)
	check("shutting down", "/actuator/health", 503, `{"status":"OUT_OF_SERVICE","components":{"db":{"status":"UP"},"diskSpace":{"status":"UP"},"ping":{"status":"UP"}},`+groups+`}`)
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

// TestHealthV2Shape: a client that asks for Spring's v2 actuator type gets
// the members of a report under "details", as Spring Boot 2 wrote them;
// v3 and plain JSON get "components".
func TestHealthV2Shape(t *testing.T) {
	probes := NewProbes(Indicator{Name: "db", Check: func(context.Context) (map[string]any, error) {
		return map[string]any{"database": "PostgreSQL"}, nil
	}})
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{Health}}, Probes: probes,
		HealthDisplay: HealthDisplay{ShowComponents: "always", ShowDetails: "always"}, HealthGroups: map[string][]string{"custom": {"db"}}})...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ accept, path, want string }{
		{actuatorV2, "/actuator/health/custom", `{"status":"UP","details":{"db":{"status":"UP","details":{"database":"PostgreSQL"}}}}`},
		{actuatorV3, "/actuator/health/custom", `{"status":"UP","components":{"db":{"status":"UP","details":{"database":"PostgreSQL"}}}}`},
		{"application/json", "/actuator/health/custom", `{"status":"UP","components":{"db":{"status":"UP","details":{"database":"PostgreSQL"}}}}`},
		{actuatorV2, "/actuator/health/db", `{"status":"UP","details":{"database":"PostgreSQL"}}`},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", tt.path, nil)
		req.Header.Set("Accept", tt.accept)
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || rec.Body.String() != tt.want || rec.Header().Get("Content-Type") != tt.accept {
			t.Errorf("%s as %s: %d %s %s\nwant %s", tt.path, tt.accept, rec.Code, rec.Header().Get("Content-Type"), rec.Body, tt.want)
		}
	}
}
