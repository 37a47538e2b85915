package actuator_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"sync/atomic"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/actuator"
)

// A service's dependency becomes a component of /actuator/health through
// an Indicator. While it is down, the service reports itself DOWN and not
// ready (503), so that an orchestrator such as Kubernetes sends its traffic
// to an instance that can answer it, but still live: restarting would not
// bring the database back. The routes are served by a dispatcher like any
// other.
func ExampleRoutes() {
	var dbDown atomic.Bool // the database's state, as its client sees it
	db := actuator.Indicator{Name: "db", Check: func(ctx context.Context) (map[string]any, error) {
		if dbDown.Load() {
			return nil, errors.New("connection refused")
		}
		return map[string]any{"database": "PostgreSQL"}, nil
	}}

	d, err := dispatch.New(dispatch.Options{}, actuator.Routes(actuator.Options{
		Exposure:      actuator.Exposure{Include: []string{actuator.Health}}, // only health, as by default
		Probes:        actuator.NewProbes(db),
		HealthDisplay: actuator.HealthDisplay{ShowComponents: "always"},
	})...)
	if err != nil {
		fmt.Println(err)
		return
	}

	get := func(path string) {
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		fmt.Println(path, rec.Code, rec.Body.String())
	}
	get("/actuator/health")
	dbDown.Store(true)
	get("/actuator/health")
	get("/actuator/health/readiness")
	get("/actuator/health/liveness")
	// Output:
	// /actuator/health 200 {"status":"UP","components":{"db":{"status":"UP"},"diskSpace":{"status":"UP"},"ping":{"status":"UP"}},"groups":["liveness","readiness"]}
	// /actuator/health 503 {"status":"DOWN","components":{"db":{"status":"DOWN"},"diskSpace":{"status":"UP"},"ping":{"status":"UP"}},"groups":["liveness","readiness"]}
	// /actuator/health/readiness 503 {"status":"OUT_OF_SERVICE","components":{"db":{"status":"DOWN"},"readinessState":{"status":"UP"}}}
	// /actuator/health/liveness 200 {"status":"UP"}
}

// Exposure reads management.endpoints.web.exposure.include and .exclude:
// an endpoint that is not exposed has no route at all. A misspelt id is
// worth refusing at start-up, since it would leave an endpoint hidden.
func ExampleExposure() {
	e := actuator.Exposure{Include: []string{"*"}, Exclude: []string{actuator.Env, actuator.HeapDump, "healt"}}
	for _, id := range []string{actuator.Health, actuator.Env, actuator.Prometheus} {
		fmt.Println(id, e.Exposes(id))
	}
	fmt.Println("unknown:", e.Unknown())
	// Output:
	// health true
	// env false
	// prometheus true
	// unknown: [healt]
}
