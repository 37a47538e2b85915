// Command counter is a second service built on the framework, written
// only against its exported packages: named counters kept per HTTP
// session. It gets everything greeter gets from framework/boot: --help,
// profiles, the actuator, metrics, tracing, a management port, graceful
// shutdown and the failure report.
//
//	go run ./examples/counter --server.port=8081
//	curl -c jar -b jar -X POST localhost:8081/counters/apples -H 'Content-Type: application/json' -d '{"by":2}'
//	curl -b jar localhost:8081/counters/apples
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/starter/otlptracing"
	"github.com/springport/greeter/framework/starter/redissession"
)

func main() { boot.Main(service) }

// settings are the service's own: how far one request may count.
type settings struct{ maxStep int }

var service = boot.Service[settings]{
	Name:        "counter",
	Description: "Named counters, kept per HTTP session.",
	Bind: func(b *config.Binder) settings {
		return settings{maxStep: config.Bind(b, "counter.max-step", 100, config.IntIn(1, 1_000_000),
			"the largest step one POST may add; a larger one is a 400")}
	},
	// The counters may live in Redis, shared by every instance
	// (app.session.store-type=redis), and its spans go to an OTLP
	// collector when management.opentelemetry.tracing.export.otlp.endpoint names one.
	Starters: []boot.Starter{redissession.Starter, otlptracing.Starter},
	Start:    start,
}

// Counters are one session's counters: a session-scoped component.
type Counters struct {
	mu     sync.Mutex
	values map[string]int
}

// MarshalBinary and UnmarshalBinary keep a session's counters in a shared
// session store (app.session.store-type=redis): another instance, or this
// one after a restart, finds them. As for any session state that changes,
// changes through two instances at once need sticky sessions (see
// component.SharedSessionStore).
func (c *Counters) MarshalBinary() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return json.Marshal(c.values)
}

func (c *Counters) UnmarshalBinary(b []byte) error { return json.Unmarshal(b, &c.values) }

// Step is the body of a POST: how much to add.
type Step struct {
	By int `json:"by" xml:"by"`
}

// Count is a counter's value, as the endpoints answer it.
type Count struct {
	Name  string `json:"name" xml:"name"`
	Value int    `json:"value" xml:"value"`
}

var name = dispatch.Path[string]("name")

func start(ctx context.Context, app *boot.App, s settings) error {
	r := &component.Registry{}
	counters := component.Provide(r, component.Def[*Counters]{Name: "counters", Scope: component.Session,
		New: func(*component.Context) (*Counters, error) { return &Counters{values: map[string]int{}}, nil }})
	c, err := app.StartComponents(r)
	if err != nil {
		return err
	}
	// add adds by to the counter named in the request's path, in the
	// request's session, and returns its value.
	add := func(r *dispatch.Request, by int) (Count, error) {
		cs, err := counters.Get(r.Context(), c)
		if err != nil {
			return Count{}, err
		}
		cs.mu.Lock()
		defer cs.mu.Unlock()
		n := name.Get(r)
		if by > 0 { // a GET adds nothing, and stores nothing
			cs.values[n] += by
		}
		return Count{Name: n, Value: cs.values[n]}, nil
	}
	app.Routes(
		dispatch.Route{Method: "GET", Pattern: "/counters/{name}", Summary: "A counter's value", Inputs: []dispatch.Input{name},
			Handler: dispatch.Returns(func(r *dispatch.Request) (Count, error) { return add(r, 0) })},
		dispatch.Route{Method: "POST", Pattern: "/counters/{name}", Summary: "Add to a counter", Inputs: []dispatch.Input{name},
			Errors: []int{http.StatusBadRequest},
			Handler: dispatch.Exchanges(func(r *dispatch.Request, step Step) (Count, error) {
				if step.By < 1 || step.By > s.maxStep {
					return Count{}, &dispatch.Error{Status: http.StatusBadRequest,
						Detail: fmt.Sprintf("'by' must be from 1 to %d (counter.max-step).", s.maxStep)}
				}
				return add(r, step.By)
			})},
	)
	return nil
}
