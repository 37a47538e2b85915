package boot_test

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
)

// TestServiceSettingsAndProfiles: the service's own setting comes from its
// packaged file, its profile-specific file, and the command line, in
// Spring's order.
func TestServiceSettingsAndProfiles(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, `{"text":"Hello from the packaged file"}`},
		{[]string{"--app.profiles.active=dev"}, nil, `{"text":"Hello from dev"}`},
		{nil, map[string]string{"APP_PROFILES_ACTIVE": "dev"}, `{"text":"Hello from dev"}`},
		{[]string{"--app.profiles.active=dev", "--tester.greeting=Hi"}, nil, `{"text":"Hi"}`},
	} {
		s := start(t, tt.args, tt.env)
		if status, body := send(t, http.DefaultClient, "GET", s.URL+"/hello"); status != 200 || body != tt.want {
			t.Errorf("%q %v: GET /hello answered %d %s, want 200 %s", tt.args, tt.env, status, body, tt.want)
		}
	}
}

// TestSessionScopedComponent: the framework's session store gives each
// client its own session-scoped component, kept across its requests.
func TestSessionScopedComponent(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	clients := make([]*http.Client, 2)
	for i := range clients {
		jar, _ := cookiejar.New(nil)
		clients[i] = &http.Client{Jar: jar}
	}
	for i, want := range []string{"1", "2", "3"} {
		if status, body := send(t, clients[0], "POST", s.URL+"/count"); status != 200 || body != want {
			t.Fatalf("POST /count #%d of the first client: %d %s, want %s", i+1, status, body, want)
		}
	}
	if status, body := send(t, clients[1], "POST", s.URL+"/count"); status != 200 || body != "1" {
		t.Errorf("POST /count of a second client: %d %s, want its own counter at 1", status, body)
	}
}

// TestOutageIsA503: a service error that is an *outage.Error is answered
// 503 by the framework, naming the dependency and not its cause, and the
// service's health indicator makes readiness DOWN.
func TestOutageIsA503(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--tester.store-down=true", "--management.endpoint.health.show-details=always"}, nil)
	status, body := send(t, http.DefaultClient, "GET", s.URL+"/store")
	var p struct {
		Status int
		Detail string
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil || status != 503 || p.Status != 503 ||
		!strings.HasPrefix(p.Detail, "The test store is unavailable") || strings.Contains(body, errStoreDown.Error()) {
		t.Errorf("GET /store: %d %s; want a 503 problem naming the test store, without its cause", status, body)
	}
	status, body = send(t, http.DefaultClient, "GET", s.URL+"/actuator/health")
	if status != 503 || !strings.Contains(body, `"store":{"status":"DOWN"`) {
		t.Errorf("GET /actuator/health: %d %s; want 503 with the store DOWN", status, body)
	}
	healthy := start(t, nil, nil)
	if status, body := send(t, http.DefaultClient, "GET", healthy.URL+"/store"); status != 200 {
		t.Errorf("GET /store of a healthy store: %d %s", status, body)
	}
}
