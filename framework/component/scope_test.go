package component_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/springport/greeter/framework/component"
)

func TestScopeString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scope component.Scope
		want  string
	}{
		{component.Singleton, "singleton"},
		{component.Prototype, "prototype"},
		{component.Request, "request"},
		{component.Session, "session"},
		{component.Application, "application"},
		{component.WebSocket, "websocket"},
		{component.Scope(42), "Scope(42)"},
	}
	for _, tt := range tests {
		if got := tt.scope.String(); got != tt.want {
			t.Errorf("Scope(%d).String():\ngot  %q\nwant %q", int(tt.scope), got, tt.want)
		}
	}
}

// TestSingletonLifetime covers Singleton and Application, which share a
// lifetime: built once at Start, shared by every consumer and resolution,
// closed by Close in reverse order of creation.
func TestSingletonLifetime(t *testing.T) {
	t.Parallel()
	for _, scope := range []component.Scope{component.Singleton, component.Application} {
		t.Run(scope.String(), func(t *testing.T) {
			var r component.Registry
			log := &closeLog{}
			var builtA, builtB, builtC, builtUnused atomic.Int64
			type mid struct {
				instance
				a *Alpha
			}
			type top struct {
				instance
				mid *mid
			}
			// Declared consumers first, so that the order of creation
			// (a, b, c, then unused) is not the order of declaration.
			cRef := component.Provide(&r, component.Def[*top]{
				Name:  "c",
				Scope: scope,
				Needs: []component.Dep{component.Need[*mid]()},
				New: func(ctx *component.Context) (*top, error) {
					builtC.Add(1)
					m, err := component.Get[*mid](ctx)
					if err != nil {
						return nil, err
					}
					v := &top{mid: m}
					v.init("c", log)
					return v, nil
				},
			})
			bRef := component.Provide(&r, component.Def[*mid]{
				Name:  "b",
				Scope: component.Singleton, // the two scopes mix freely
				Needs: []component.Dep{component.Need[*Alpha]()},
				New: func(ctx *component.Context) (*mid, error) {
					builtB.Add(1)
					a, err := component.Get[*Alpha](ctx)
					if err != nil {
						return nil, err
					}
					v := &mid{a: a}
					v.init("b", log)
					return v, nil
				},
			})
			aRef := component.Provide(&r, component.Def[*Alpha]{Name: "a", Scope: scope, New: fresh[Alpha]("a", log, &builtA)})
			component.Provide(&r, component.Def[*Delta]{Name: "unused", Scope: scope, New: fresh[Delta]("unused", log, &builtUnused)})

			cont, err := r.Start([]string{"default"}, component.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, n := range map[string]*atomic.Int64{"a": &builtA, "b": &builtB, "c": &builtC, "unused": &builtUnused} {
				if n.Load() != 1 {
					t.Errorf("after Start, %s built %d times; want 1", name, n.Load())
				}
			}
			a := resolve(t, cont, aRef)
			if again := resolve(t, cont, aRef); again != a {
				t.Errorf("two resolutions of a returned two instances")
			}
			b := resolve(t, cont, bRef)
			if b.a != a {
				t.Errorf("b holds another a than the one resolved")
			}
			// The same instance inside a request and a websocket connection.
			srv := httptest.NewServer(cont.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ctx, release := cont.WebSocket(r.Context())
				defer release()
				got, err := aRef.Get(ctx, cont)
				fmt.Fprint(w, err == nil && got == a)
			})))
			if _, body := get(t, srv.Client(), srv.URL); body != "true" {
				t.Errorf("inside a request, a is another instance or fails")
			}
			srv.Close()
			if resolve(t, cont, cRef).mid != b {
				t.Errorf("c holds another b than the one resolved")
			}
			for name, n := range map[string]*atomic.Int64{"a": &builtA, "b": &builtB, "c": &builtC, "unused": &builtUnused} {
				if n.Load() != 1 {
					t.Errorf("after resolutions, %s built %d times; want 1", name, n.Load())
				}
			}
			if got := log.list(); len(got) != 0 {
				t.Errorf("closed before Close: %q", got)
			}
			if err := cont.Close(); err != nil {
				t.Fatal(err)
			}
			if got, want := log.list(), []string{"unused", "c", "b", "a"}; !reflect.DeepEqual(got, want) {
				t.Errorf("Close order:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

func TestPrototypeLifetime(t *testing.T) {
	t.Parallel()
	var r component.Registry
	var built atomic.Int64
	proto := component.Provide(&r, component.Def[*Alpha]{Name: "proto", Scope: component.Prototype, New: fresh[Alpha]("proto", nil, &built)})
	// Two consumers holding a handle, as the service's two controllers do,
	// and one taking the prototype directly.
	oneRef := provideHolder[*Alpha](&r, "one", component.Singleton)
	twoRef := provideHolder[*Alpha](&r, "two", component.Application)
	type direct struct{ a *Alpha }
	directRef := component.Provide(&r, component.Def[*direct]{Name: "direct", Scope: component.Application, Needs: []component.Dep{component.Need[*Alpha]()},
		New: func(c *component.Context) (*direct, error) {
			a, err := component.Get[*Alpha](c)
			return &direct{a}, err
		}})
	c := start(t, &r)
	if got := built.Load(); got != 3 {
		t.Errorf("after Start, proto built %d times; want 3, one per consumer", got)
	}

	ctx := t.Context()
	one := resolve(t, c, oneRef)
	oneA, _ := one.h.Get(ctx)
	oneAgain, _ := one.h.Get(ctx)
	two := resolve(t, c, twoRef)
	twoA, _ := two.h.Get(ctx)
	twoAgain, _ := two.h.Get(ctx)
	directA := resolve(t, c, directRef).a
	if oneA == nil || oneA != oneAgain {
		t.Errorf("consumer one's handle gives %p then %p; want its own fixed instance", oneA, oneAgain)
	}
	if twoA == nil || twoA != twoAgain {
		t.Errorf("consumer two's handle gives %p then %p; want its own fixed instance", twoA, twoAgain)
	}
	if oneA == twoA || oneA == directA || twoA == directA {
		t.Errorf("consumers share a prototype instance: one %d, two %d, direct %d", oneA.serial, twoA.serial, directA.serial)
	}
	if got := built.Load(); got != 3 {
		t.Errorf("using the handles built proto again: %d builds; want 3", got)
	}
	p1 := resolve(t, c, proto)
	p2 := resolve(t, c, proto)
	if p1 == p2 || p1 == oneA || p1 == twoA {
		t.Errorf("a resolution of proto returned an instance already handed out")
	}
	if got := built.Load(); got != 5 {
		t.Errorf("two resolutions: %d builds in all; want 5", got)
	}
}

func TestRequestLifetime(t *testing.T) {
	t.Parallel()
	var r component.Registry
	var built atomic.Int64
	perRequest := component.Provide(&r, component.Def[*Alpha]{Name: "perRequest", Scope: component.Request, New: fresh[Alpha]("perRequest", nil, &built)})
	configRef := declare[Beta](&r, "config", component.Singleton)
	// A request-scoped consumer shares the request's instance and may
	// hold a singleton directly.
	type audit struct {
		a *Alpha
		b *Beta
	}
	auditRef := component.Provide(&r, component.Def[*audit]{Name: "audit", Scope: component.Request,
		Needs: []component.Dep{component.Need[*Alpha](), component.Need[*Beta]()},
		New: func(c *component.Context) (*audit, error) {
			a, err := component.Get[*Alpha](c)
			if err != nil {
				return nil, err
			}
			b, err := component.Get[*Beta](c)
			return &audit{a, b}, err
		}})
	service := provideHolder[*Alpha](&r, "service", component.Singleton)
	c := start(t, &r)
	svc := resolve(t, c, service)
	config := resolve(t, c, configRef)

	var mu sync.Mutex
	var seen []*Alpha
	mux := http.NewServeMux()
	mux.HandleFunc("GET /twice", func(w http.ResponseWriter, r *http.Request) {
		first, err := svc.h.Get(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		second, err := perRequest.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		au, err := auditRef.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		switch {
		case first != second:
			http.Error(w, "two instances in one request", http.StatusInternalServerError)
			return
		case au.a != first || au.b != config:
			http.Error(w, "the request-scoped consumer holds other instances", http.StatusInternalServerError)
			return
		case first.closed():
			http.Error(w, "closed during its request", http.StatusInternalServerError)
			return
		}
		mu.Lock()
		seen = append(seen, first)
		mu.Unlock()
		fmt.Fprint(w, first.serial)
	})
	mux.HandleFunc("GET /none", func(w http.ResponseWriter, r *http.Request) {})
	srv := httptest.NewServer(c.Middleware(mux))
	defer srv.Close()

	_, body1 := get(t, srv.Client(), srv.URL+"/twice")
	mu.Lock()
	first := seen[0]
	mu.Unlock()
	eventually(t, "request 1's instance closed after the request", first.closed)
	_, body2 := get(t, srv.Client(), srv.URL+"/twice")
	if body1 == body2 {
		t.Errorf("two requests got the same instance %s", body1)
	}
	mu.Lock()
	second := seen[1]
	mu.Unlock()
	eventually(t, "request 2's instance closed after the request", second.closed)
	if n := first.closes.Load(); n != 1 {
		t.Errorf("request 1's instance closed %d times; want 1", n)
	}
	get(t, srv.Client(), srv.URL+"/none")
	if got := built.Load(); got != 2 {
		t.Errorf("perRequest built %d times; want 2: once per request that resolves it", got)
	}
}

func TestMiddlewareWithoutRequestScopes(t *testing.T) {
	t.Parallel()
	var r component.Registry
	declare[Alpha](&r, "a", component.Singleton)
	c := start(t, &r)
	var called bool
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { called = true }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if !called {
		t.Errorf("the middleware did not call the handler")
	}
}

func TestScopeNotActive(t *testing.T) {
	t.Parallel()
	var r component.Registry
	perRequest := declare[Alpha](&r, "perRequest", component.Request)
	perSession := declare[Beta](&r, "perSession", component.Session)
	perConnection := declare[Gamma](&r, "perConnection", component.WebSocket)
	proto := component.Provide(&r, component.Def[*Delta]{Name: "proto", Scope: component.Prototype, Needs: []component.Dep{component.Need[*Alpha]()},
		New: func(c *component.Context) (*Delta, error) {
			_, err := component.Get[*Alpha](c)
			return &Delta{}, err
		}})
	holdsRequest := provideHolder[*Alpha](&r, "holdsRequest", component.Singleton)
	c := start(t, &r)

	// A request that did not go through the middleware has no scope.
	plainRequest := httptest.NewRequest("GET", "/", nil).Context()
	tests := []struct {
		name      string
		ctx       context.Context
		resolve   func(ctx context.Context) error
		component string
		scope     component.Scope
		why       string
	}{
		{"request", t.Context(), resolveErr(c, perRequest), "perRequest", component.Request, "there is no HTTP request in this context"},
		{"request through a handle", t.Context(), func(ctx context.Context) error {
			_, err := resolve(t, c, holdsRequest).h.Get(ctx)
			return err
		}, "perRequest", component.Request, "there is no HTTP request in this context"},
		{"request in a request outside the middleware", plainRequest, resolveErr(c, perRequest), "perRequest", component.Request, "through the container's middleware"},
		{"request through a prototype", t.Context(), resolveErr(c, proto), "perRequest", component.Request, "there is no HTTP request"},
		{"session", t.Context(), resolveErr(c, perSession), "perSession", component.Session, "there is no HTTP session in this context"},
		{"websocket", t.Context(), resolveErr(c, perConnection), "perConnection", component.WebSocket, "there is no websocket connection in this context; resolve it inside Container.WebSocket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.resolve(tt.ctx)
			var se *component.ScopeError
			if !errors.As(err, &se) {
				t.Fatalf("got %v; want a *ScopeError", err)
			}
			if se.Component != tt.component || se.Scope != tt.scope {
				t.Errorf("ScopeError{%s, %s}; want {%s, %s}", se.Component, se.Scope, tt.component, tt.scope)
			}
			for _, want := range []string{"component " + tt.component, "scope " + strconv.Quote(tt.scope.String()) + " is not active", tt.why} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error:\ngot  %v\nwant it to contain %q", err, want)
				}
			}
		})
	}

	// Inside the middleware, the websocket scope is still not active.
	srv := httptest.NewServer(c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := perConnection.Get(r.Context(), c)
		var se *component.ScopeError
		fmt.Fprint(w, errors.As(err, &se))
	})))
	defer srv.Close()
	if _, body := get(t, srv.Client(), srv.URL); body != "true" {
		t.Errorf("a websocket component resolved in a plain request: ScopeError = %s; want true", body)
	}
}

func resolveErr[T any](c *component.Container, ref component.Ref[T]) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := ref.Get(ctx, c)
		return err
	}
}
