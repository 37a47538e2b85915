package boot_test

// The lifecycle around a service's Start: what it added to close is
// closed once, in reverse order, whether the service stops, fails to
// start or cannot listen; nothing is closed under a handler still running;
// the App refuses what it cannot honour.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/dispatch"
)

// closeLog records what a service closed, in order.
type closeLog struct {
	mu     sync.Mutex
	closed []string
}

func (l *closeLog) closer(name string) func() error {
	return func() error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.closed = append(l.closed, name)
		return nil
	}
}

func (l *closeLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.closed)
}

// storesService opens two stores, a and b, then does what then says; a
// store is closed by OnClose.
func storesService(log *closeLog, then func(app *boot.App) error) boot.Service[struct{}] {
	return boot.Service[struct{}]{
		Name: "stores",
		Start: func(ctx context.Context, app *boot.App, _ struct{}) error {
			app.OnClose(log.closer("a"))
			app.OnClose(log.closer("b"))
			return then(app)
		},
	}
}

func TestStoresAreClosedOnceInReverseOrder(t *testing.T) {
	t.Parallel()
	ok := func(app *boot.App) error { return nil }
	failing := func(app *boot.App) error { return errors.New("the service could not start") }
	taken, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { taken.Close() }) // after the parallel subtests
	takenPort := fmt.Sprint(taken.Addr().(*net.TCPAddr).Port)

	t.Run("at shutdown", func(t *testing.T) {
		t.Parallel()
		var log closeLog
		s := boottest.Start(t, storesService(&log, ok), nil, nil)
		if got := log.get(); len(got) != 0 {
			t.Fatalf("closed while serving: %v", got)
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		if got := log.get(); !slices.Equal(got, []string{"b", "a"}) {
			t.Errorf("closed %v, want [b a]", got)
		}
	})
	t.Run("when Start fails", func(t *testing.T) {
		t.Parallel()
		var log closeLog
		stderr, err := boottest.FailToStart(t, storesService(&log, failing), []string{"--server.port=0"}, nil)
		if err == nil || !strings.Contains(stderr, "the service could not start") {
			t.Errorf("Run: %v\n%s", err, stderr)
		}
		if got := log.get(); !slices.Equal(got, []string{"b", "a"}) {
			t.Errorf("closed %v, want [b a]", got)
		}
	})
	t.Run("when a port is taken", func(t *testing.T) {
		t.Parallel()
		for _, args := range [][]string{
			{"--server.port=" + takenPort},
			{"--server.port=0", "--management.server.port=" + takenPort},
		} {
			var log closeLog
			stderr, err := boottest.FailToStart(t, storesService(&log, ok), args, nil)
			if err == nil || !strings.Contains(stderr, "cannot listen on") || !strings.Contains(stderr, takenPort) {
				t.Errorf("%q: %v\n%s", args, err, stderr)
			}
			if got := log.get(); !slices.Equal(got, []string{"b", "a"}) {
				t.Errorf("%q: closed %v, want [b a]", args, got)
			}
		}
	})
	t.Run("Close twice", func(t *testing.T) {
		t.Parallel()
		var log closeLog
		app, err := boot.New(context.Background(), storesService(&log, ok), boot.Process{})
		if err != nil {
			t.Fatal(err)
		}
		app.Close()
		app.Close()
		if got := log.get(); !slices.Equal(got, []string{"b", "a"}) {
			t.Errorf("closed %v, want [b a], once", got)
		}
	})
}

// TestNothingIsClosedUnderARunningHandler: a request still running when
// server.shutdown-timeout passes is cut off, Run reports that the shutdown
// was not graceful, and the stores are closed only once its handler has
// returned. The handler, once cut off, stays busy until the test has
// seen that nothing is closed yet; Run waits the timeout again for it,
// which the test needs only a moment of.
func TestNothingIsClosedUnderARunningHandler(t *testing.T) {
	t.Parallel()
	var log closeLog
	entered, cut, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	svc := storesService(&log, func(app *boot.App) error {
		app.Routes(dispatch.Route{Method: "GET", Pattern: "/slow", Handler: dispatch.Runs(func(r *dispatch.Request) error {
			close(entered)
			<-r.Context().Done() // cut off by the shutdown,
			close(cut)
			<-release                        // still busy,
			log.closer("handler returned")() // then done
			return nil
		})})
		return nil
	})
	s := boottest.Start(t, svc, []string{"--server.shutdown-timeout=500ms"}, nil)
	go http.Get(s.URL + "/slow")
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop() }()
	<-cut
	if got := log.get(); len(got) != 0 {
		t.Errorf("closed %v while the handler still ran", got)
	}
	close(release)
	err := <-stopped
	if err == nil || !strings.Contains(err.Error(), "server.shutdown-timeout=500ms") {
		t.Errorf("Run returned %v, want the shutdown reported as not graceful", err)
	}
	if got := log.get(); !slices.Equal(got, []string{"handler returned", "b", "a"}) {
		t.Errorf("closed %v, want the handler to return before the stores close", got)
	}
}

// TestAppRefusesMisuse: StartComponents twice is an error; adding to the
// App after Start has returned panics, naming the method.
func TestAppRefusesMisuse(t *testing.T) {
	t.Parallel()
	var kept *boot.App
	svc := boot.Service[struct{}]{Name: "misuse", Start: func(ctx context.Context, app *boot.App, _ struct{}) error {
		kept = app
		if _, err := app.StartComponents(&component.Registry{}); err != nil {
			return err
		}
		_, err := app.StartComponents(&component.Registry{})
		return err
	}}
	stderr, err := boottest.FailToStart(t, svc, []string{"--server.port=0"}, nil)
	if err == nil || !strings.Contains(stderr, "StartComponents was called twice") {
		t.Errorf("StartComponents twice: %v\n%s", err, stderr)
	}

	svc.Start = func(ctx context.Context, app *boot.App, _ struct{}) error { kept = app; return nil }
	app, err := boot.New(context.Background(), svc, boot.Process{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "App.Routes called after Service.Start returned") {
			t.Errorf("Routes after Start: recovered %v, want a panic naming the method", p)
		}
	}()
	kept.Routes(dispatch.Route{Method: "GET", Pattern: "/late", Handler: dispatch.Runs(func(*dispatch.Request) error { return nil })})
}

// TestQuietServiceIsFound: a service that logs nothing at INFO (no
// "started" line) is still found on its free port, since Run tells the
// ports it listens on (boot.Process.Listening).
func TestQuietServiceIsFound(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--logging.level.root=WARN", "--management.server.port=0"}, nil)
	if strings.Contains(strings.ToLower(s.Stdout.String()), "started") {
		t.Errorf("the service logged at INFO: %s", s.Stdout)
	}
	if r := send(t, nil, "GET", s.URL+"/hello", ""); r.status != 200 {
		t.Errorf("GET /hello: %d", r.status)
	}
	if r := send(t, nil, "GET", s.ManagementURL+"/actuator/health", ""); r.status != 200 || s.ManagementURL == s.URL {
		t.Errorf("GET %s/actuator/health: %d", s.ManagementURL, r.status)
	}
}
