package component_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/testing/polltest"
)

// Short names for the dependency declarations of the tables below.
var (
	needAlpha        = component.Need[*Alpha]
	needBeta         = component.Need[*Beta]
	needGamma        = component.Need[*Gamma]
	needGreeter      = component.Need[Greeter]
	handleAlpha      = component.NeedHandle[*Alpha]
	handleBeta       = component.NeedHandle[*Beta]
	singleton        = component.Singleton
	prototype        = component.Prototype
	requestScope     = component.Request
	sessionScope     = component.Session
	applicationScope = component.Application
	websocketScope   = component.WebSocket
)

var errBoom = errors.New("boom")

// startWithin starts r, failing the test if Start does not return within
// polltest.Timeout rather than hanging until the test binary's timeout.
func startWithin(t *testing.T, r *component.Registry, active []string) (*component.Container, error) {
	t.Helper()
	type result struct {
		c   *component.Container
		err error
	}
	done := make(chan result, 1)
	opts := options(t)
	go func() {
		c, err := r.Start(active, opts)
		done <- result{c, err}
	}()
	select {
	case res := <-done:
		return res.c, res.err
	case <-time.After(polltest.Timeout):
		t.Fatalf("Start(%q) has not returned after %v: deadlocked", active, polltest.Timeout)
		return nil, nil
	}
}

func TestStartRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		declare func(r *component.Registry)
		active  []string // ["default"] when nil
		want    []string // substrings of the error
	}{
		{
			name: "missing dependency",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needBeta())
			},
			want: []string{"component a needs *component_test.Beta, and no active component provides it"},
		},
		{
			name: "missing dependency of a handle",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, handleBeta())
			},
			want: []string{"component a needs Handle[*component_test.Beta], and no active component provides it"},
		},
		{
			name: "only provider excluded by its profile condition",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needBeta())
				component.Provide(r, component.Def[*Beta]{Name: "devBeta", Profiles: []string{"dev"}, New: fresh[Beta]("devBeta", nil, nil)})
			},
			active: []string{"cloud", "qa"},
			want: []string{
				"component a needs *component_test.Beta, and no active component provides it",
				`devBeta (only for profiles "dev")`,
				`with active profiles ["cloud" "qa"]`,
			},
		},
		{
			name: "two candidates",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needGreeter())
				component.Provide(r, component.Def[*devGreeter]{Name: "english", New: func(*component.Context) (*devGreeter, error) { return &devGreeter{}, nil }})
				component.Provide(r, component.Def[Greeter]{Name: "french", New: func(*component.Context) (Greeter, error) { return prodGreeter{}, nil }})
			},
			want: []string{"component a needs component_test.Greeter, and 2 active components provide it: english, french"},
		},
		{
			name: "cycle",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needBeta())
				declare[Beta](r, "b", singleton, needAlpha())
			},
			want: []string{"components form a cycle: a -> b -> a"},
		},
		{
			name: "self-cycle",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needAlpha())
			},
			want: []string{"components form a cycle: a -> a"},
		},
		{
			name: "cycle of three among prototypes",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", prototype, needBeta())
				declare[Beta](r, "b", prototype, needGamma())
				declare[Gamma](r, "c", prototype, needAlpha())
			},
			want: []string{"components form a cycle: a -> b -> c -> a"},
		},
		{
			// A handle to a prototype is resolved when the handle is
			// injected, so it closes a cycle as a direct dependency does.
			name: "cycle through a handle to a prototype",
			declare: func(r *component.Registry) {
				component.Provide(r, component.Def[*Alpha]{
					Name:  "a",
					Needs: []component.Dep{handleBeta()},
					New: func(c *component.Context) (*Alpha, error) {
						_, err := component.GetHandle[*Beta](c)
						return &Alpha{}, err
					},
				})
				component.Provide(r, component.Def[*Beta]{
					Name:  "b",
					Scope: prototype,
					Needs: []component.Dep{needAlpha()},
					New: func(c *component.Context) (*Beta, error) {
						_, err := component.Get[*Alpha](c)
						return &Beta{}, err
					},
				})
			},
			want: []string{"components form a cycle: a -> b -> a"},
		},
		{
			name: "singleton needs request directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needBeta())
				declare[Beta](r, "r", requestScope)
			},
			want: []string{
				"component a (singleton) needs r (request) directly, but singleton outlives a request",
				"declare component.NeedHandle[*component_test.Beta]()",
			},
		},
		{
			name: "singleton needs prototype that needs request directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needBeta())
				declare[Beta](r, "p", prototype, needGamma())
				declare[Gamma](r, "r", requestScope)
			},
			want: []string{"component a -> p (singleton) needs r (request) directly"},
		},
		{
			// The handle's prototype is the consumer's own, fixed at
			// injection: it lives as long as the singleton.
			name: "singleton holds a handle to a prototype that needs request directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, handleBeta())
				declare[Beta](r, "p", prototype, needGamma())
				declare[Gamma](r, "r", requestScope)
			},
			want: []string{"component a -> p (singleton) needs r (request) directly"},
		},
		{
			name: "session holds a handle to a prototype that needs request directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "s", sessionScope, handleBeta())
				declare[Beta](r, "p", prototype, needGamma())
				declare[Gamma](r, "r", requestScope)
			},
			want: []string{"component s -> p (session) needs r (request) directly"},
		},
		{
			name: "session needs request directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "s", sessionScope, needBeta())
				declare[Beta](r, "r", requestScope)
			},
			want: []string{"component s (session) needs r (request) directly, but session outlives a request"},
		},
		{
			name: "application needs session directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "app", applicationScope, needBeta())
				declare[Beta](r, "s", sessionScope)
			},
			want: []string{"component app (application) needs s (session) directly"},
		},
		{
			name: "session needs websocket directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "s", sessionScope, needBeta())
				declare[Beta](r, "ws", websocketScope)
			},
			want: []string{"component s (session) needs ws (websocket) directly"},
		},
		{
			name: "websocket needs request directly",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "ws", websocketScope, needBeta())
				declare[Beta](r, "r", requestScope)
			},
			want: []string{"component ws (websocket) needs r (request) directly"},
		},
		{
			name: "duplicate names",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton)
				declare[Beta](r, "a", singleton)
			},
			want: []string{"component a is declared twice"},
		},
		{
			name: "missing New",
			declare: func(r *component.Registry) {
				component.Provide(r, component.Def[*Alpha]{Name: "a"})
			},
			want: []string{"component a has no New function"},
		},
		{
			name: "missing Name",
			declare: func(r *component.Registry) {
				component.Provide(r, component.Def[*Alpha]{New: fresh[Alpha]("", nil, nil)})
			},
			want: []string{"a component of type *component_test.Alpha has no name"},
		},
		{
			name: "malformed profile expression",
			declare: func(r *component.Registry) {
				component.Provide(r, component.Def[*Alpha]{Name: "a", Profiles: []string{"a & b | c"}, New: fresh[Alpha]("a", nil, nil)})
			},
			want: []string{`component a: malformed profile expression "a & b | c"`, "mixed without parentheses"},
		},
		{
			name: "unknown scope",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", component.Scope(42))
			},
			want: []string{"component a has an unknown scope 42"},
		},
		{
			name: "every problem at once",
			declare: func(r *component.Registry) {
				declare[Alpha](r, "a", singleton, needGamma())
				declare[Beta](r, "b", requestScope, needGamma())
			},
			want: []string{"component a needs *component_test.Gamma", "component b needs *component_test.Gamma"},
		},
		{
			name: "New fails",
			declare: func(r *component.Registry) {
				component.Provide(r, component.Def[*Alpha]{Name: "a", New: func(*component.Context) (*Alpha, error) { return nil, errBoom }})
			},
			want: []string{"building component a: boom"},
		},
		{
			name: "New of a dependency fails",
			declare: func(r *component.Registry) {
				component.Provide(r, component.Def[*Alpha]{
					Name:  "top",
					Needs: []component.Dep{needBeta()},
					New: func(c *component.Context) (*Alpha, error) {
						_, err := component.Get[*Beta](c)
						return &Alpha{}, err
					},
				})
				component.Provide(r, component.Def[*Beta]{Name: "b", Scope: prototype, New: func(*component.Context) (*Beta, error) { return nil, errBoom }})
			},
			want: []string{"building component top: building component b: boom"},
		},
		{
			name: "Get of an undeclared dependency",
			declare: func(r *component.Registry) {
				declare[Beta](r, "b", singleton)
				component.Provide(r, component.Def[*Alpha]{
					Name: "a",
					New: func(c *component.Context) (*Alpha, error) {
						_, err := component.Get[*Beta](c)
						return &Alpha{}, err
					},
				})
			},
			want: []string{"building component a: component a resolves *component_test.Beta, which it does not declare in Needs"},
		},
		{
			name: "GetHandle of a dependency declared with Need",
			declare: func(r *component.Registry) {
				declare[Beta](r, "b", singleton)
				component.Provide(r, component.Def[*Alpha]{
					Name:  "a",
					Needs: []component.Dep{needBeta()},
					New: func(c *component.Context) (*Alpha, error) {
						_, err := component.GetHandle[*Beta](c)
						return &Alpha{}, err
					},
				})
			},
			want: []string{"component a resolves Handle[*component_test.Beta], which it does not declare in Needs"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r component.Registry
			tt.declare(&r)
			active := tt.active
			if active == nil {
				active = []string{"default"}
			}
			c, err := startWithin(t, &r, active)
			if err == nil {
				c.Close()
				t.Fatalf("Start succeeded; want an error containing %q", tt.want)
			}
			if c != nil {
				t.Errorf("Start returned a container with its error")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error:\ngot  %v\nwant it to contain %q", err, want)
				}
			}
		})
	}
}

func TestStartErrorWrapsNewError(t *testing.T) {
	t.Parallel()
	var r component.Registry
	component.Provide(&r, component.Def[*Alpha]{Name: "a", New: func(*component.Context) (*Alpha, error) { return nil, errBoom }})
	_, err := r.Start([]string{"default"}, component.Options{})
	if !errors.Is(err, errBoom) {
		t.Errorf("errors.Is(%v, errBoom) = false; want the cause kept", err)
	}
}

func TestStartFailureClosesBuiltSingletons(t *testing.T) {
	t.Parallel()
	var r component.Registry
	log := &closeLog{}
	component.Provide(&r, component.Def[*Alpha]{Name: "first", New: fresh[Alpha]("first", log, nil)})
	component.Provide(&r, component.Def[*Beta]{Name: "second", New: fresh[Beta]("second", log, nil)})
	component.Provide(&r, component.Def[*Gamma]{Name: "broken", New: func(*component.Context) (*Gamma, error) { return nil, errBoom }})
	if _, err := r.Start([]string{"default"}, component.Options{}); err == nil {
		t.Fatal("Start succeeded; want the error of broken")
	}
	if got, want := log.list(), []string{"second", "first"}; !reflect.DeepEqual(got, want) {
		t.Errorf("closed after the failed start:\ngot  %q\nwant %q", got, want)
	}
}

func TestStartAccepts(t *testing.T) {
	t.Parallel()
	t.Run("cycle through a handle", func(t *testing.T) {
		type b struct{ a any }
		type a struct{ b *component.Handle[*b] }
		var r component.Registry
		aRef := component.Provide(&r, component.Def[*a]{
			Name:  "a",
			Needs: []component.Dep{component.NeedHandle[*b]()},
			New: func(c *component.Context) (*a, error) {
				h, err := component.GetHandle[*b](c)
				return &a{h}, err
			},
		})
		bRef := component.Provide(&r, component.Def[*b]{
			Name:  "b",
			Needs: []component.Dep{component.Need[*a]()},
			New: func(c *component.Context) (*b, error) {
				dep, err := component.Get[*a](c)
				return &b{dep}, err
			},
		})
		c := start(t, &r)
		gotA := resolve(t, c, aRef)
		gotB, err := gotA.b.Get(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if gotB != resolve(t, c, bRef) || gotB.a != gotA {
			t.Errorf("a's handle resolves another b than the singleton, or b holds another a")
		}
	})
	t.Run("singleton holds a handle to request, session and websocket components", func(t *testing.T) {
		var r component.Registry
		declare[Alpha](&r, "r", requestScope)
		declare[Beta](&r, "s", sessionScope)
		declare[Gamma](&r, "ws", websocketScope)
		provideHolder[*Alpha](&r, "holdsRequest", singleton)
		provideHolder[*Beta](&r, "holdsSession", singleton)
		provideHolder[*Gamma](&r, "holdsWebsocket", applicationScope)
		start(t, &r)
	})
	t.Run("shorter-lived needs longer-lived directly", func(t *testing.T) {
		var r component.Registry
		declare[Alpha](&r, "app", applicationScope)
		declare[Beta](&r, "s", sessionScope, needAlpha())
		declare[Gamma](&r, "ws", websocketScope, needBeta())
		declare[Delta](&r, "r", requestScope, needAlpha(), needBeta())
		start(t, &r)
	})
	t.Run("prototype needs request directly", func(t *testing.T) {
		// Only a consumer gives a prototype a lifetime; resolved on its
		// own, it lives as long as the request it is resolved in.
		var r component.Registry
		declare[Alpha](&r, "p", prototype, needBeta())
		declare[Beta](&r, "r", requestScope)
		declare[Gamma](&r, "perRequest", requestScope, needAlpha())
		start(t, &r)
	})
}

// greeterOf resolves ref as a Greeter.
func greeterOf[T Greeter](ref component.Ref[T]) func(context.Context, *component.Container) (Greeter, error) {
	return func(ctx context.Context, c *component.Container) (Greeter, error) {
		g, err := ref.Get(ctx, c)
		return g, err
	}
}

func TestProfileConditions(t *testing.T) {
	t.Parallel()
	// declareGreeters returns the reference to the consumer's greeting
	// and those to the two greeters, by name.
	type greeterRef = func(context.Context, *component.Container) (Greeter, error)
	declareGreeters := func(r *component.Registry) (component.Ref[func() string], map[string]greeterRef) {
		dev := component.Provide(r, component.Def[*devGreeter]{Name: "devGreeter", Profiles: []string{"dev"},
			New: func(*component.Context) (*devGreeter, error) { return &devGreeter{}, nil }})
		prod := component.Provide(r, component.Def[Greeter]{Name: "prodGreeter", Profiles: []string{"!dev"},
			New: func(*component.Context) (Greeter, error) { return prodGreeter{}, nil }})
		type consumer struct{ g Greeter }
		component.Provide(r, component.Def[*consumer]{
			Name:  "consumer",
			Needs: []component.Dep{needGreeter()},
			New: func(c *component.Context) (*consumer, error) {
				g, err := component.Get[Greeter](c)
				return &consumer{g}, err
			},
		})
		greet := component.Provide(r, component.Def[func() string]{
			Name:  "greet",
			Needs: []component.Dep{component.Need[*consumer]()},
			New: func(c *component.Context) (func() string, error) {
				cons, err := component.Get[*consumer](c)
				if err != nil {
					return nil, err
				}
				return cons.g.Greet, nil
			},
		})
		return greet, map[string]greeterRef{"devGreeter": greeterOf(dev), "prodGreeter": greeterOf(prod)}
	}
	tests := []struct {
		active          []string
		present, absent string
		greeting        string
	}{
		{[]string{"dev"}, "devGreeter", "prodGreeter", "hello from dev"},
		{[]string{"cloud", "dev"}, "devGreeter", "prodGreeter", "hello from dev"},
		{[]string{"default"}, "prodGreeter", "devGreeter", "hello from prod"},
		{[]string{"cloud"}, "prodGreeter", "devGreeter", "hello from prod"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.active, ","), func(t *testing.T) {
			var r component.Registry
			greet, greeters := declareGreeters(&r)
			c := start(t, &r, tt.active...)
			if got := resolve(t, c, greet)(); got != tt.greeting {
				t.Errorf("the consumer injected by type greets:\ngot  %q\nwant %q", got, tt.greeting)
			}
			if g, err := greeters[tt.present](t.Context(), c); err != nil || g.Greet() != tt.greeting {
				t.Errorf("resolving %s: %v; want it to greet %q", tt.present, err, tt.greeting)
			}
			_, err := greeters[tt.absent](t.Context(), c)
			if err == nil {
				t.Fatalf("resolving %s succeeded with active profiles %q; want an error", tt.absent, tt.active)
			}
			condition := map[string]string{"devGreeter": "dev", "prodGreeter": "!dev"}[tt.absent]
			for _, want := range []string{
				"component " + tt.absent + " does not exist",
				`its condition "` + condition + `"`,
				"active profiles " + quoted(tt.active),
			} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("resolving %s:\ngot  %v\nwant it to contain %q", tt.absent, err, want)
				}
			}
		})
	}
}

func quoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = `"` + s + `"`
	}
	return "[" + strings.Join(q, " ") + "]"
}

func TestProfileExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		profiles []string
		active   []string
		present  bool
	}{
		{[]string{"dev & cloud"}, []string{"dev"}, false},
		{[]string{"dev & cloud"}, []string{"dev", "cloud"}, true},
		{[]string{"dev & cloud", "qa"}, []string{"qa"}, true},
		{[]string{"dev | qa"}, []string{"qa"}, true},
		{[]string{"!(dev | qa)"}, []string{"default"}, true},
		{[]string{"!(dev | qa)"}, []string{"qa"}, false},
		{[]string{"default"}, []string{"default"}, true},
	}
	for _, tt := range tests {
		var r component.Registry
		a := component.Provide(&r, component.Def[*Alpha]{Name: "a", Profiles: tt.profiles, New: fresh[Alpha]("a", nil, nil)})
		c := start(t, &r, tt.active...)
		_, err := a.Get(t.Context(), c)
		if got := err == nil; got != tt.present {
			t.Errorf("condition %q with active %q: present = %t; want %t (%v)", tt.profiles, tt.active, got, tt.present, err)
		}
	}
}

// TestRefErrors covers the references a container cannot resolve. A
// reference cannot name a component that was never declared, or ask for
// another type than the component's: Provide makes it, typed.
func TestRefErrors(t *testing.T) {
	t.Parallel()
	var r, other component.Registry
	declare[Alpha](&r, "a", singleton)
	elsewhere := declare[Alpha](&other, "elsewhere", singleton)
	c := start(t, &r)
	tests := []struct {
		name    string
		resolve func() error
		want    string
	}{
		{"zero", func() error { _, err := component.Ref[*Alpha]{}.Get(t.Context(), c); return err },
			"the zero component.Ref[*component_test.Alpha] refers to no component; use the Ref that Provide returns"},
		{"zero, of an interface", func() error { _, err := component.Ref[Greeter]{}.Get(t.Context(), c); return err },
			"the zero component.Ref[component_test.Greeter] refers to no component"},
		{"another registry's", func() error { _, err := elsewhere.Get(t.Context(), c); return err },
			"component elsewhere was declared on another registry than the one this container started from"},
	}
	for _, tt := range tests {
		err := tt.resolve()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\ngot  %v\nwant an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestComponents(t *testing.T) {
	t.Parallel()
	declareAll := func(r *component.Registry) {
		declare[Alpha](r, "clock", applicationScope)
		declare[Beta](r, "repository", singleton, needAlpha())
		component.Provide(r, component.Def[*devGreeter]{Name: "devGreeter", Profiles: []string{"dev"},
			New: func(*component.Context) (*devGreeter, error) { return &devGreeter{}, nil }})
		component.Provide(r, component.Def[Greeter]{Name: "prodGreeter", Profiles: []string{"!dev"},
			New: func(*component.Context) (Greeter, error) { return prodGreeter{}, nil }})
		declare[Gamma](r, "cart", sessionScope, needBeta(), needGreeter())
		component.Provide(r, component.Def[*Delta]{Name: "audit", Scope: requestScope, Profiles: []string{"dev & cloud", "qa"},
			Needs: []component.Dep{handleAlpha()}, New: fresh[Delta]("audit", nil, nil)})
		provideHolder[*Gamma](r, "controller", prototype)
	}
	const pkg = "github.com/springport/greeter/framework/component_test."
	clock := component.Info{Name: "clock", Scope: component.Application, Type: "*" + pkg + "Alpha"}
	repository := component.Info{Name: "repository", Scope: component.Singleton, Type: "*" + pkg + "Beta", Dependencies: []string{"clock"}}
	devG := component.Info{Name: "devGreeter", Scope: component.Singleton, Type: "*" + pkg + "devGreeter", Profiles: "dev"}
	prodG := component.Info{Name: "prodGreeter", Scope: component.Singleton, Type: pkg + "Greeter", Profiles: "!dev"}
	cart := func(greeter string) component.Info {
		return component.Info{Name: "cart", Scope: component.Session, Type: "*" + pkg + "Gamma", Dependencies: []string{"repository", greeter}}
	}
	audit := component.Info{Name: "audit", Scope: component.Request, Type: "*" + pkg + "Delta", Profiles: "dev & cloud, qa", Dependencies: []string{"clock"}}
	controller := component.Info{Name: "controller", Scope: component.Prototype,
		Type: "*" + pkg + "holder[*" + pkg + "Gamma]", Dependencies: []string{"cart"}}

	tests := []struct {
		active []string
		want   []component.Info
	}{
		{[]string{"default"}, []component.Info{clock, repository, prodG, cart("prodGreeter"), controller}},
		{[]string{"dev"}, []component.Info{clock, repository, devG, cart("devGreeter"), controller}},
		{[]string{"qa"}, []component.Info{clock, repository, prodG, cart("prodGreeter"), audit, controller}},
	}
	for _, tt := range tests {
		var r component.Registry
		declareAll(&r)
		got := start(t, &r, tt.active...).Components()
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Components() with active %q:\ngot  %+v\nwant %+v", tt.active, got, tt.want)
		}
	}
}
