package boot_test

// management.endpoint.<id>.access, management.endpoints.access.default and
// .max-permitted, as Spring Boot 3.5 resolves them.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

func TestEndpointAccess(t *testing.T) {
	t.Parallel()
	type want struct {
		method, path string
		status       int
	}
	for _, c := range []struct {
		args []string
		want []want
	}{
		{[]string{"--management.endpoint.loggers.access=read-only", "--management.endpoint.env.access=none"}, []want{
			{"GET", "/actuator/loggers", http.StatusOK},
			{"POST", "/actuator/loggers/root", http.StatusMethodNotAllowed},
			{"GET", "/actuator/env", http.StatusNotFound},
			{"GET", "/actuator/info", http.StatusOK},
		}},
		{[]string{"--management.endpoints.access.default=none", "--management.endpoint.health.access=read-only"}, []want{
			{"GET", "/actuator/health", http.StatusOK},
			{"GET", "/actuator/info", http.StatusNotFound},
			{"GET", "/actuator/loggers", http.StatusNotFound},
		}},
		{[]string{"--management.endpoints.access.max-permitted=read-only", "--management.endpoint.shutdown.access=unrestricted"}, []want{
			{"POST", "/actuator/shutdown", http.StatusNotFound},
			{"POST", "/actuator/loggers/root", http.StatusMethodNotAllowed},
			{"GET", "/actuator/env", http.StatusOK},
		}},
	} {
		s := start(t, append([]string{exposeAll}, c.args...), nil)
		for _, w := range c.want {
			if r := send(t, nil, w.method, s.URL+w.path, `{"configuredLevel":"DEBUG"}`, "Content-Type: application/json"); r.status != w.status {
				t.Errorf("%v: %s %s: %d, want %d", c.args, w.method, w.path, r.status, w.status)
			}
		}
		_, index := get(t, s.URL+"/actuator")
		for _, w := range c.want {
			listed := strings.Contains(index, `"`+strings.TrimPrefix(w.path, "/actuator/")+`":`)
			if w.method == "GET" && w.status == http.StatusNotFound && listed {
				t.Errorf("%v: the index lists %s, which has no access: %s", c.args, w.path, index)
			}
		}
	}
	stderr, err := boottest.FailToStart(t, tester(), []string{"--management.endpoint.env.access=read-write"}, nil)
	if err == nil || !strings.Contains(stderr, "management.endpoint.env.access") {
		t.Errorf("access read-write: %v %s, want a refusal naming the setting", err, stderr)
	}
}
