package component_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/session/memstore"

	"github.com/springport/greeter/framework/testing/polltest"
)

// The tests declare their own components from these types. Dependencies
// are found by type, so each component of one registry gets its own type.

// instance is what the test components are made of: a serial number that
// tells instances apart, also across HTTP responses, and a count of the
// times its scope ended.
type instance struct {
	serial int64
	name   string
	log    *closeLog
	closes atomic.Int32
}

var serials atomic.Int64

func (i *instance) init(name string, log *closeLog) {
	i.serial = serials.Add(1)
	i.name, i.log = name, log
}

// Close records that the instance's scope ended.
func (i *instance) Close() error {
	i.closes.Add(1)
	if i.log != nil {
		i.log.add(i.name)
	}
	return nil
}

func (i *instance) closed() bool { return i.closes.Load() > 0 }

type (
	Alpha struct{ instance }
	Beta  struct{ instance }
	Gamma struct{ instance }
	Delta struct{ instance }
)

// Greeter is an interface that two components provide, one per profile.
type Greeter interface{ Greet() string }

type devGreeter struct{}

func (*devGreeter) Greet() string { return "hello from dev" }

type prodGreeter struct{}

func (prodGreeter) Greet() string { return "hello from prod" }

// closeLog records the order in which components are closed.
type closeLog struct {
	mu    sync.Mutex
	names []string
}

func (l *closeLog) add(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.names = append(l.names, name)
}

func (l *closeLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.names)
}

// fresh returns a New function that builds a new *T on every call, named
// name, logging its Close to log (when not nil) and counting its builds in
// built (when not nil).
func fresh[T any, PT interface {
	*T
	init(string, *closeLog)
}](name string, log *closeLog, built *atomic.Int64) func(*component.Context) (PT, error) {
	return func(*component.Context) (PT, error) {
		if built != nil {
			built.Add(1)
		}
		p := PT(new(T))
		p.init(name, log)
		return p, nil
	}
}

// declare provides a *T called name in scope, declaring needs. Its New
// resolves none of them: enough for the checks Start makes before it
// builds anything.
func declare[T any, PT interface {
	*T
	init(string, *closeLog)
}](r *component.Registry, name string, scope component.Scope, needs ...component.Dep) component.Ref[PT] {
	return component.Provide(r, component.Def[PT]{Name: name, Scope: scope, Needs: needs, New: fresh[T, PT](name, nil, nil)})
}

// holder is a component that keeps a handle to a T.
type holder[T any] struct{ h *component.Handle[T] }

// provideHolder declares a component called name that holds a handle to
// the one component providing T.
func provideHolder[T any](r *component.Registry, name string, scope component.Scope) component.Ref[*holder[T]] {
	return component.Provide(r, component.Def[*holder[T]]{
		Name:  name,
		Scope: scope,
		Needs: []component.Dep{component.NeedHandle[T]()},
		New: func(c *component.Context) (*holder[T], error) {
			h, err := component.GetHandle[T](c)
			if err != nil {
				return nil, err
			}
			return &holder[T]{h}, nil
		},
	})
}

// options returns the options the tests start containers with: an
// in-memory session store, closed when the test ends.
func options(t *testing.T) component.Options {
	sessions := memstore.New(memstore.Options{})
	t.Cleanup(func() { sessions.Close() })
	return component.Options{Sessions: sessions}
}

// start starts r with the active profiles (["default"] when none) and
// closes the container when the test ends.
func start(t *testing.T, r *component.Registry, active ...string) *component.Container {
	t.Helper()
	if len(active) == 0 {
		active = []string{"default"}
	}
	c, err := r.Start(active, options(t))
	if err != nil {
		t.Fatalf("Start(%q): %v", active, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// resolve resolves the component ref refers to outside any request.
func resolve[T any](t *testing.T, c *component.Container, ref component.Ref[T]) T {
	t.Helper()
	v, err := ref.Get(t.Context(), c)
	if err != nil {
		t.Fatalf("resolving %T: %v", v, err)
	}
	return v
}

// eventually waits for cond, which becomes true on another goroutine:
// a request's components are released after its handler returns, which
// may be after the client has read the response.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	polltest.WaitFor(t, what, cond)
}

// get fetches url with client and returns the response with its body read.
func get(t *testing.T, client *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, resp.Status, body)
	}
	return resp, strings.TrimSpace(string(body))
}
