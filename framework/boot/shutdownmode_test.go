package boot_test

// server.shutdown=graceful|immediate and the graceful wait's two names,
// through Run and HTTP.

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
)

// slowService serves GET /slow, which answers "done" once release is
// closed, or gives up when its request is cut off; entered is closed when
// the request is in its handler.
func slowService(entered, release chan struct{}) boot.Service[struct{}] {
	return boot.Service[struct{}]{
		Name: "slow",
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(dispatch.Route{Method: "GET", Pattern: "/slow", Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) {
				close(entered)
				select {
				case <-release:
					return "done", nil
				case <-r.Context().Done():
					return "", r.Context().Err()
				}
			})})
			return nil
		},
	}
}

// slowAnswer is what the client of GET /slow got.
type slowAnswer struct {
	status int
	body   string
	err    error
}

// getSlow sends GET /slow and sends its answer on the channel returned.
func getSlow(url string) <-chan slowAnswer {
	answer := make(chan slowAnswer, 1)
	go func() {
		resp, err := http.Get(url + "/slow")
		if err != nil {
			answer <- slowAnswer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answer <- slowAnswer{status: resp.StatusCode, body: string(b), err: err}
	}()
	return answer
}

// TestShutdownGracefulWaits: with server.shutdown=graceful (set, and the
// default), a request in flight when the service is told to stop is
// answered in full, and only then does Run return, without error.
func TestShutdownGracefulWaits(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"--server.shutdown=graceful"}} {
		entered, release := make(chan struct{}), make(chan struct{})
		s := boottest.Start(t, slowService(entered, release), args, nil)
		answer := getSlow(s.URL)
		<-entered
		stopped := make(chan error, 1)
		go func() { stopped <- s.Stop() }()
		boottest.WaitRefused(t, s.Addr()) // shutting down: the listener is closed
		select {
		case err := <-stopped:
			t.Fatalf("%v: Run returned %v with a request in flight", args, err)
		default:
		}
		close(release)
		if a := <-answer; a.err != nil || a.status != http.StatusOK || !strings.Contains(a.body, "done") {
			t.Errorf("%v: the request in flight got %d %q (%v), want 200 done", args, a.status, a.body, a.err)
		}
		if err := <-stopped; err != nil {
			t.Errorf("%v: Run returned %v after a graceful shutdown", args, err)
		}
	}
}

// TestShutdownImmediateCuts: with server.shutdown=immediate, a request in
// flight is cut off (its client sees the connection break) and Run
// returns at once, without the graceful wait for it, set here to an hour:
// Stop gives up on Run after boottest.Timeout, a small part of that, and
// returns an error saying so. No tighter bound on the clock, which a busy
// machine would break.
func TestShutdownImmediateCuts(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	s := boottest.Start(t, slowService(entered, release), []string{"--server.shutdown=immediate", "--server.shutdown-timeout=1h"}, nil)
	answer := getSlow(s.URL)
	<-entered
	if err := s.Stop(); err != nil {
		t.Errorf("Run returned %v after an immediate shutdown", err)
	}
	select {
	case a := <-answer:
		if a.err == nil {
			t.Errorf("the request in flight got %d %q; want its connection broken", a.status, a.body)
		}
	case <-time.After(boottest.Timeout):
		t.Errorf("the request in flight was still waiting %v after Run returned", boottest.Timeout)
	}
}

// TestShutdownTimeoutSpringName: app.lifecycle.timeout-per-shutdown-phase,
// Spring's name for the graceful wait, bounds it as
// server.shutdown-timeout does: a request that outlasts it is cut off and
// Run says the shutdown was not graceful, naming the wait. Run returns
// after the wait, never before; had it waited the default 30s instead,
// Stop would have given up on it after boottest.Timeout, a third of that,
// with an error that does not name 300ms.
func TestShutdownTimeoutSpringName(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	s := boottest.Start(t, slowService(entered, release), []string{"--app.lifecycle.timeout-per-shutdown-phase=300ms"}, nil)
	answer := getSlow(s.URL)
	<-entered
	began := time.Now()
	err := s.Stop()
	if err == nil || !strings.Contains(err.Error(), "300ms") {
		t.Errorf("Run returned %v, want the 300ms wait reported as exceeded", err)
	}
	if took := time.Since(began); took < 300*time.Millisecond {
		t.Errorf("Run returned after %v, want after the 300ms wait", took)
	}
	if a := <-answer; a.err == nil {
		t.Errorf("the request in flight got %d %q; want it cut off", a.status, a.body)
	}
}

// TestBadShutdownSettings: a mode other than graceful or immediate, and
// the two names of the wait set to different values, stop start-up.
func TestBadShutdownSettings(t *testing.T) {
	t.Parallel()
	svc := func() boot.Service[struct{}] { return slowService(make(chan struct{}), make(chan struct{})) }
	stderr, err := boottest.FailToStart(t, svc(), []string{"--server.shutdown=later"}, nil)
	if err == nil || !strings.Contains(stderr, "server.shutdown") || !strings.Contains(stderr, "later") {
		t.Errorf("server.shutdown=later: Run returned %v; stderr:\n%s", err, stderr)
	}
	stderr, err = boottest.FailToStart(t, svc(), []string{"--server.shutdown-timeout=10s", "--app.lifecycle.timeout-per-shutdown-phase=20s"}, nil)
	if err == nil || !strings.Contains(stderr, "app.lifecycle.timeout-per-shutdown-phase") || !strings.Contains(stderr, "10s") {
		t.Errorf("two different waits: Run returned %v; stderr:\n%s", err, stderr)
	}
	// The same wait under both names is no conflict.
	entered, release := make(chan struct{}), make(chan struct{})
	close(release)
	s := boottest.Start(t, slowService(entered, release), []string{"--server.shutdown-timeout=20s", "--app.lifecycle.timeout-per-shutdown-phase=20s"}, nil)
	if r := send(t, nil, "GET", s.URL+"/slow", ""); r.status != http.StatusOK {
		t.Errorf("GET /slow: %d %s", r.status, r.body)
	}
}
