package boot_test

// The framework's end-to-end tests run a small service of their own,
// tester, through boot.Run on port 0 (boottest.Start), and talk to it over
// HTTP: what they check is the framework's, whichever service it runs.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/starter/otlptracing"
	"github.com/springport/greeter/framework/starter/pkcs12"
	"github.com/springport/greeter/framework/starter/redissession"
	"github.com/springport/greeter/framework/starter/securitybasic"
	"github.com/springport/greeter/framework/starter/securityjwt"
)

// testerSettings are tester's own settings.
type testerSettings struct {
	greeting string
	down     bool // its store reports an outage
}

// greeting is what GET /hello answers.
type greeting struct {
	Text string `json:"text"`
}

// note is what POST /notes answers: a text, in JSON or XML.
type note struct {
	Text string `json:"text" xml:"text"`
}

// noteBody is a note as a client sends it. The OpenAPI document names its
// XML root note, the root the answers use, not noteBody, its Go name.
type noteBody note

func (noteBody) XMLRootName() string { return "note" }

// counter is a session-scoped component: one per HTTP session.
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}

// tester is the service the framework's tests run. Its packaged settings
// set tester.greeting, and a dev profile changes it.
func tester() boot.Service[testerSettings] {
	return boot.Service[testerSettings]{
		Name:        "tester",
		Starters:    []boot.Starter{redissession.Starter, securitybasic.Starter, securityjwt.Starter, otlptracing.Starter, pkcs12.Starter},
		Description: "The framework's test service.",
		Resources: fstest.MapFS{
			"application.properties":     {Data: []byte("tester.greeting=Hello from the packaged file\n")},
			"application-dev.properties": {Data: []byte("tester.greeting=Hello from dev\n")},
		},
		Bind: func(b *config.Binder) testerSettings {
			return testerSettings{
				greeting: config.Bind(b, "tester.greeting", "Hello", config.String),
				down:     config.Bind(b, "tester.store-down", false, config.Bool),
			}
		},
		Help: map[string]string{
			"tester.greeting":   "what GET /hello answers",
			"tester.store-down": "the store reports an outage: GET /store answers 503 and health is DOWN",
		},
		Loggers: []string{"store"},
		Start:   startTester,
	}
}

// errStoreDown is the cause of tester's outage.
var errStoreDown = errors.New("connection refused")

// errFailed is what GET /fail fails with: an error the framework does
// not know, so a 500.
var errFailed = errors.New("tester failed on purpose")

// helloN is the path variable of GET /hello/{n}: a number, so that
// /hello/x is refused with a 400.
var helloN = dispatch.Path[int32]("n")

// startTester adds tester's store (a health indicator "store" and a gauge
// tester_store_up), its session-scoped counter, and its routes: GET /hello
// and /hello/{n} (the greeting), POST /count (the session's counter), GET
// /store (503 during an outage), POST /notes (a JSON or XML body, echoed
// with a 201), GET /fail (a 500) and GET /protocol (HTTP/1.1 or HTTP/2.0).
func startTester(ctx context.Context, app *boot.App, s testerSettings) error {
	store := func(context.Context) error {
		if s.down {
			return &outage.Error{Dependency: "The test store", Err: errStoreDown}
		}
		return nil
	}
	app.Health(actuator.Indicator{Name: "store", Check: func(ctx context.Context) (map[string]any, error) {
		return map[string]any{"kind": "test"}, store(ctx)
	}})
	app.Gauges(func() []metrics.Gauge {
		up := 1.0
		if s.down {
			up = 0
		}
		return []metrics.Gauge{{Name: "tester_store_up", Help: "1 while the store is up, 0 during an outage.", Value: up}}
	})

	r := &component.Registry{}
	count := component.Provide(r, component.Def[*counter]{
		Name: "counter", Scope: component.Session,
		New: func(*component.Context) (*counter, error) { return &counter{}, nil },
	})
	c, err := app.StartComponents(r)
	if err != nil {
		return err
	}
	app.Routes(
		dispatch.Route{Method: "GET", Pattern: "/hello", Summary: "The greeting",
			Handler: dispatch.Returns(func(*dispatch.Request) (greeting, error) { return greeting{s.greeting}, nil })},
		dispatch.Route{Method: "POST", Pattern: "/count", Summary: "Count in the session",
			Handler: dispatch.Returns(func(r *dispatch.Request) (int, error) {
				n, err := count.Get(r.Context(), c)
				if err != nil {
					return 0, err
				}
				return n.next(), nil
			})},
		dispatch.Route{Method: "GET", Pattern: "/store", Summary: "Ask the store", Errors: []int{http.StatusServiceUnavailable},
			Handler: dispatch.Runs(func(r *dispatch.Request) error { return store(r.Context()) })},
		dispatch.Route{Method: "GET", Pattern: "/hello/{n}", Summary: "The greeting, addressed to a number", Inputs: []dispatch.Input{helloN},
			Handler: dispatch.Returns(func(r *dispatch.Request) (greeting, error) {
				return greeting{fmt.Sprintf("%s %d", s.greeting, helloN.Get(r))}, nil
			})},
		dispatch.Route{Method: "POST", Pattern: "/notes", Summary: "Take a note, and give it back", Status: http.StatusCreated,
			Handler: dispatch.Exchanges(func(_ *dispatch.Request, b noteBody) (note, error) { return note(b), nil })},
		dispatch.Route{Method: "GET", Pattern: "/fail", Summary: "Fail with a 500",
			Handler: dispatch.Runs(func(*dispatch.Request) error { return errFailed })},
		dispatch.Route{Method: "GET", Pattern: "/protocol", Summary: "The request's protocol, as the server read it",
			Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) { return r.Proto, nil })},
	)
	return nil
}

// start runs tester on a free port with the given arguments and
// environment, and stops it when the test ends.
func start(t *testing.T, args []string, env map[string]string) *boottest.Instance {
	t.Helper()
	return boottest.Start(t, tester(), args, env)
}
