package boot_test

// End-to-end tests of /actuator/health: the probes, the components and
// groups in Spring Boot 3.5's shapes, and readiness during shutdown.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// healthUp is /actuator/health by default: the status, and the groups
// there are, as Spring answers with its probes on.
const healthUp = `{"status":"UP","groups":["liveness","readiness"]}`

func TestHealthProbes(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	for path, want := range map[string]string{
		"/actuator/health":           healthUp,
		"/actuator/health/liveness":  `{"status":"UP"}`,
		"/actuator/health/readiness": `{"status":"UP"}`,
	} {
		if r := send(t, nil, "GET", s.URL+path, ""); r.status != 200 || r.body != want {
			t.Errorf("%s: %d %s, want %s", path, r.status, r.body, want)
		}
	}
}

// TestHealthComponentsAndGroups checks Spring's shapes: components with
// details, the service's indicator among them, the groups listed, a
// component and a group on their own paths, readiness with the service's
// indicator, and a user's group aggregated from its members.
func TestHealthComponentsAndGroups(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoint.health.show-details=always",
		"--management.endpoint.health.group.custom.include=ping,diskSpace"}, nil)
	r := send(t, nil, "GET", s.URL+"/actuator/health", "")
	h := decode[struct {
		Status     string
		Components map[string]struct {
			Status  string
			Details map[string]any
		}
		Groups []string
	}](t, r)
	disk, store := h.Components["diskSpace"], h.Components["store"]
	if r.status != 200 || h.Status != "UP" || h.Components["ping"].Status != "UP" || disk.Status != "UP" ||
		disk.Details["threshold"] != float64(10<<20) || disk.Details["exists"] != true || disk.Details["total"] == nil || disk.Details["free"] == nil || disk.Details["path"] == nil ||
		store.Status != "UP" || store.Details["kind"] != "test" {
		t.Errorf("/actuator/health: %d %s", r.status, r.body)
	}
	if got := strings.Join(h.Groups, ","); got != "custom,liveness,readiness" {
		t.Errorf("groups %s, want custom,liveness,readiness", got)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health/ping", ""); r.status != 200 || r.body != `{"status":"UP"}` {
		t.Errorf("/actuator/health/ping: %d %s", r.status, r.body)
	}
	r = send(t, nil, "GET", s.URL+"/actuator/health/custom", "")
	if r.status != 200 || !strings.HasPrefix(r.body, `{"status":"UP","components":{"diskSpace":{"status":"UP","details":{`) || !strings.HasSuffix(r.body, `"ping":{"status":"UP"}}}`) {
		t.Errorf("/actuator/health/custom: %d %s", r.status, r.body)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health/readiness", ""); r.status != 200 || r.body != `{"status":"UP","components":{"readinessState":{"status":"UP"},"store":{"status":"UP","details":{"kind":"test"}}}}` {
		t.Errorf("/actuator/health/readiness: %d %s", r.status, r.body)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health/nothing", ""); r.status != 404 || !strings.Contains(r.body, `"detail":"No health component or group is named 'nothing'."`) {
		t.Errorf("/actuator/health/nothing: %d %s", r.status, r.body)
	}

	// Below the threshold, diskSpace is DOWN, and so is health: 503.
	full := start(t, []string{"--management.health.diskspace.threshold=1000000TB", "--management.endpoint.health.show-components=always"}, nil)
	if r := send(t, nil, "GET", full.URL+"/actuator/health", ""); r.status != 503 || !strings.Contains(r.body, `"diskSpace":{"status":"DOWN"}`) || !strings.HasPrefix(r.body, `{"status":"DOWN"`) {
		t.Errorf("a full disk: %d %s", r.status, r.body)
	}
	if r := send(t, nil, "GET", full.URL+"/actuator/health/liveness", ""); r.status != 200 {
		t.Errorf("liveness with a full disk: %d, want 200: restarting does not free the disk", r.status)
	}
}

// TestHealthGroupOfNothingFailsToStart: a group that includes a component
// there is not (misspelt, or db where no database is configured) stops
// start-up, naming the setting, its value and where it was set.
func TestHealthGroupOfNothingFailsToStart(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "health.properties")
	if err := os.WriteFile(file, []byte("# probes\nmanagement.endpoint.health.group.ready.include=readinessState,db\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a misspelt component on the command line", []string{"--management.endpoint.health.group.custom.include=ping,Store"},
			[]string{"Property: management.endpoint.health.group.custom.include", `Value: "ping,Store"`,
				"Origin: command-line argument --management.endpoint.health.group.custom.include=ping,Store", `no health component is named "Store"`}},
		{"db with no database, in a file", []string{"--app.config.import=" + file},
			[]string{"Property: management.endpoint.health.group.ready.include", `Value: "readinessState,db"`,
				"Origin: file [" + file + "] line 2", `no health component is named "db"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			report, err := boottest.FailToStart(t, tester(), append([]string{"--server.port=0"}, tt.args...), nil)
			for _, w := range tt.want {
				if err == nil || !strings.Contains(report, w) {
					t.Errorf("the report does not say %q: %v\n%s", w, err, report)
				}
			}
		})
	}
}

// TestReadinessDuringShutdown stops the program with a shutdown delay:
// once shutdown has begun, and before the listener closes, readiness must
// answer 503 OUT_OF_SERVICE while liveness still answers 200.
func TestReadinessDuringShutdown(t *testing.T) {
	t.Parallel()
	// The delay is the window in which the listener is still open: two
	// requests must fit in it, on a busy machine under the race detector
	// too, so it is generous (the test runs in parallel with the others).
	s := start(t, []string{"--server.shutdown-delay=3s"}, nil)
	done := make(chan error, 1)
	go func() { done <- s.Stop() }()
	s.WaitForLog(t, shuttingDown)
	if r := send(t, nil, "GET", s.URL+"/actuator/health/readiness", ""); r.status != 503 || r.body != `{"status":"OUT_OF_SERVICE"}` {
		t.Errorf("readiness during shutdown: %d %s, want 503 OUT_OF_SERVICE", r.status, r.body)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health/liveness", ""); r.status != 200 {
		t.Errorf("liveness during shutdown: %d, want 200", r.status)
	}
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
