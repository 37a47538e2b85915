package boot_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
)

// newApp builds a service with New, as a test or a benchmark that serves
// its handlers itself does; start is its Start.
func newApp(t *testing.T, args []string, start func(*boot.App) error) *boot.Running {
	t.Helper()
	svc := boot.Service[struct{}]{Name: "app", Start: func(_ context.Context, a *boot.App, _ struct{}) error {
		a.Routes(dispatch.Route{Method: "GET", Pattern: "/hello", Handler: dispatch.Returns(func(*dispatch.Request) (string, error) { return "hello", nil })})
		return start(a)
	}}
	app, err := boot.New(context.Background(), svc, boot.Process{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	return app
}

func serveOne(t *testing.T, h http.Handler, method, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

// TestEnvironmentDuringStart checks that Start sees the loaded settings,
// the active profiles among them.
func TestEnvironmentDuringStart(t *testing.T) {
	var profiles []string
	var greeting string
	newApp(t, []string{"--app.profiles.active=eu,prod", "--some.greeting=hej"}, func(a *boot.App) error {
		profiles = a.Environment().ActiveProfiles()
		if v, ok, err := a.Environment().Lookup("some.greeting"); ok && err == nil {
			greeting = v.Resolved
		}
		return nil
	})
	if !slices.Equal(profiles, []string{"eu", "prod"}) || greeting != "hej" {
		t.Errorf("Start saw profiles %v and some.greeting %q, want [eu prod] and hej", profiles, greeting)
	}
}

// TestMetricsRegisterer checks that a service's own client_golang
// collector is served on /actuator/prometheus with the common tags.
func TestMetricsRegisterer(t *testing.T) {
	jobs := prometheus.NewCounter(prometheus.CounterOpts{Name: "jobs_done_total", Help: "Jobs done."})
	app := newApp(t, []string{"--management.endpoints.web.exposure.include=prometheus", "--management.metrics.tags.region=eu"}, func(a *boot.App) error {
		return a.MetricsRegisterer().Register(jobs)
	})
	jobs.Add(3)
	code, body := serveOne(t, app.Handler(), "GET", "/actuator/prometheus")
	if code != 200 || !strings.Contains(body, `jobs_done_total{region="eu"} 3`) {
		t.Errorf("/actuator/prometheus: %d, want the service's counter with the common tag:\n%s", code, body)
	}
}

// TestManagementHandler checks that with a management port of its own the
// management endpoints are served by ManagementHandler, not Handler, and
// that without one ManagementHandler is nil.
func TestManagementHandler(t *testing.T) {
	app := newApp(t, []string{"--management.server.port=0"}, func(*boot.App) error { return nil })
	if app.ManagementHandler() == nil {
		t.Fatal("ManagementHandler is nil with management.server.port set")
	}
	if code, _ := serveOne(t, app.ManagementHandler(), "GET", "/actuator/health"); code != 200 {
		t.Errorf("ManagementHandler: /actuator/health answered %d, want 200", code)
	}
	if code, _ := serveOne(t, app.Handler(), "GET", "/actuator/health"); code != 404 {
		t.Errorf("Handler: /actuator/health answered %d, want 404 (it lives on the management port)", code)
	}
	if code, body := serveOne(t, app.Handler(), "GET", "/hello"); code != 200 || body != "hello" {
		t.Errorf("Handler: /hello answered %d %q", code, body)
	}
	shared := newApp(t, nil, func(*boot.App) error { return nil })
	if shared.ManagementHandler() != nil {
		t.Error("ManagementHandler is not nil, though the management endpoints share server.port")
	}
}

// TestShutdownRequested checks that POST /actuator/shutdown, when allowed
// and exposed, closes ShutdownRequested, which an App from New leaves to
// its caller, and that nothing else closes it.
func TestShutdownRequested(t *testing.T) {
	app := newApp(t, []string{"--management.endpoints.web.exposure.include=shutdown", "--management.endpoint.shutdown.access=unrestricted"},
		func(*boot.App) error { return nil })
	select {
	case <-app.ShutdownRequested():
		t.Fatal("ShutdownRequested is closed before anyone asked")
	default:
	}
	if code, body := serveOne(t, app.Handler(), "POST", "/actuator/shutdown"); code != 200 {
		t.Fatalf("POST /actuator/shutdown: %d %s", code, body)
	}
	// The endpoint answers first, then begins the shutdown.
	select {
	case <-app.ShutdownRequested():
	case <-time.After(boottest.Timeout):
		t.Errorf("ShutdownRequested is still open %v after POST /actuator/shutdown", boottest.Timeout)
	}
}
