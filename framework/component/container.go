package component

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Container is a started registry: it holds the singletons and resolves
// every other scope on demand.
type Container struct {
	decls    []*decl // active, in declaration order
	absent   []*decl // excluded by their profile condition
	byName   map[string]*decl
	resolved map[*decl][]*decl // each decl's providers, parallel to needs
	active   []string

	singletons    store
	sessions      *sessions // nil when no session-scoped component is active
	sessionCookie SessionCookie
	logger        *slog.Logger
}

// Context is what a component's New function resolves its dependencies
// from.
type Context struct {
	c   *Container
	d   *decl           // the component being built
	ctx context.Context // the request, session or connection it is built in
}

// Get resolves a dependency that d declared with Need[T].
func Get[T any](c *Context) (T, error) {
	var zero T
	p, err := c.providerOf(Need[T]())
	if err != nil {
		return zero, err
	}
	v, err := c.c.resolve(c.ctx, p)
	if err != nil {
		return zero, err
	}
	return v.(T), nil
}

// GetHandle resolves a dependency that d declared with NeedHandle[T].
func GetHandle[T any](c *Context) (*Handle[T], error) {
	p, err := c.providerOf(NeedHandle[T]())
	if err != nil {
		return nil, err
	}
	h := &Handle[T]{c: c.c, d: p}
	if p.scope == Prototype {
		// The consumer's own instance, fixed at injection as in Spring.
		v, err := c.c.resolve(c.ctx, p)
		if err != nil {
			return nil, err
		}
		h.fixed, h.hasFixed = v.(T), true
	}
	return h, nil
}

func (c *Context) providerOf(dep Dep) (*decl, error) {
	i := slices.Index(c.d.needs, dep)
	if i < 0 {
		return nil, fmt.Errorf("component %s resolves %s, which it does not declare in Needs", c.d.name, dep)
	}
	return c.c.resolved[c.d][i], nil
}

// Handle resolves a component per use: the instance of the current
// request, session or websocket connection for scoped components, the one
// instance for singletons, and the consumer's own instance for prototypes.
type Handle[T any] struct {
	c        *Container
	d        *decl
	fixed    T
	hasFixed bool
}

// Get returns the instance for ctx. Outside the scope (a request-scoped
// component with no request in ctx) it is an error saying so.
func (h *Handle[T]) Get(ctx context.Context) (T, error) {
	if h.hasFixed {
		return h.fixed, nil
	}
	v, err := h.c.resolve(ctx, h.d)
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// Ref refers to a component that Provide declared, so that the code that
// declared it can resolve it in the started container without naming it
// again.
type Ref[T any] struct{ d *decl }

// Get returns the instance of r's component for ctx in c: the singleton,
// the instance of the request, session or websocket connection in ctx, or
// a new prototype. A component that c does not hold is an error saying
// why: its profile condition excluded it, or it was declared on another
// registry.
func (r Ref[T]) Get(ctx context.Context, c *Container) (T, error) {
	var zero T
	switch {
	case r.d == nil:
		return zero, fmt.Errorf("the zero component.Ref[%s] refers to no component; use the Ref that Provide returns", reflect.TypeFor[T]())
	case slices.Contains(c.absent, r.d):
		return zero, fmt.Errorf("component %s does not exist: its condition %q does not hold for active profiles %q", r.d.name, r.d.condition.String(), c.active)
	case c.byName[r.d.name] != r.d:
		return zero, fmt.Errorf("component %s was declared on another registry than the one this container started from", r.d.name)
	}
	v, err := c.resolve(ctx, r.d)
	if err != nil {
		return zero, err
	}
	return v.(T), nil
}

// ScopeError reports a resolution in a scope that is not active.
type ScopeError struct {
	Component string
	Scope     Scope
}

func (e *ScopeError) Error() string {
	why := map[Scope]string{
		Request:   "there is no HTTP request in this context; resolve it while serving one, through the container's middleware",
		Session:   "there is no HTTP session in this context; resolve it while serving a request, through the container's middleware",
		WebSocket: "there is no websocket connection in this context; resolve it inside Container.WebSocket",
	}[e.Scope]
	return fmt.Sprintf("component %s: scope %q is not active: %s", e.Component, e.Scope, why)
}

// resolve returns the instance of d for ctx.
func (c *Container) resolve(ctx context.Context, d *decl) (any, error) {
	switch d.scope {
	case Singleton, Application:
		return c.singletons.get(d, func() (any, error) { return c.build(ctx, d) })
	case Prototype:
		return c.build(ctx, d)
	case Session:
		if c.sessions != nil && c.sessions.shared != nil {
			return c.resolveSaved(ctx, d)
		}
	}
	s, err := scopeStore(ctx, d.scope)
	if err != nil {
		return nil, fmt.Errorf("component %s: %w", d.name, err)
	}
	if s == nil {
		return nil, &ScopeError{Component: d.name, Scope: d.scope}
	}
	return s.get(d, func() (any, error) { return c.build(ctx, d) })
}

func (c *Container) build(ctx context.Context, d *decl) (any, error) {
	v, err := d.build(&Context{c: c, d: d, ctx: ctx})
	if err != nil {
		return nil, fmt.Errorf("building component %s: %w", d.name, err)
	}
	return v, nil
}

// buildSingletons creates every singleton and application component, each
// after what it depends on, so that start-up fails rather than a request.
func (c *Container) buildSingletons() error {
	for _, d := range c.decls {
		if d.scope == Singleton || d.scope == Application {
			if _, err := c.resolve(context.Background(), d); err != nil {
				c.singletons.release()
				return err
			}
		}
	}
	return nil
}

// Close releases the components of every session, and the singletons in
// reverse order of creation. It leaves the session store open: whoever
// made it closes it.
func (c *Container) Close() error {
	var errs []error
	if c.sessions != nil {
		errs = append(errs, c.sessions.releaseAll())
	}
	errs = append(errs, c.singletons.release())
	return errors.Join(errs...)
}

// Info describes one component, for listings such as /actuator/beans.
type Info struct {
	Name         string
	Scope        Scope
	Type         string
	Profiles     string // the condition as declared; empty when none
	Dependencies []string
}

// Components describes the active components, in declaration order.
func (c *Container) Components() []Info {
	infos := make([]Info, 0, len(c.decls))
	for _, d := range c.decls {
		var deps []string
		for _, p := range c.resolved[d] {
			deps = append(deps, p.name)
		}
		infos = append(infos, Info{Name: d.name, Scope: d.scope, Type: qualifiedName(d.typ),
			Profiles: strings.Join(d.profiles, ", "), Dependencies: deps})
	}
	return infos
}

// qualifiedName names a type with its full package path, as Spring names
// a bean's class: *github.com/x/inmem.Messages.
func qualifiedName(t reflect.Type) string {
	prefix := ""
	for t.Kind() == reflect.Pointer {
		prefix += "*"
		t = t.Elem()
	}
	if t.PkgPath() == "" || t.Name() == "" {
		return prefix + t.String()
	}
	return prefix + t.PkgPath() + "." + t.Name()
}

// store holds the instances of one scope's lifetime: the singletons, one
// request, one session or one connection. Each instance is built once,
// even when concurrent requests of one session ask for it together.
type store struct {
	mu     sync.Mutex
	slots  map[*decl]*slot
	order  []any // built instances, in order of creation
	closed bool  // released: its request, session or connection is over
}

type slot struct {
	once sync.Once
	v    any
	err  error
}

func (s *store) get(d *decl, build func() (any, error)) (any, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		// Building now would make an instance that nothing ever closes.
		return nil, fmt.Errorf("component %s: its %s has ended", d.name, d.scope)
	}
	if s.slots == nil {
		s.slots = map[*decl]*slot{}
	}
	sl := s.slots[d]
	if sl == nil {
		sl = &slot{}
		s.slots[d] = sl
	}
	s.mu.Unlock()
	sl.once.Do(func() {
		sl.v, sl.err = build()
		if sl.err != nil {
			return
		}
		s.mu.Lock()
		ended := s.closed // while it was being built
		if !ended {
			s.order = append(s.order, sl.v)
		}
		s.mu.Unlock()
		if ended {
			// Released already: nothing else would ever close it.
			if c, ok := sl.v.(closer); ok {
				c.Close()
			}
			sl.v, sl.err = nil, fmt.Errorf("component %s: its %s ended while it was being built", d.name, d.scope)
		}
	})
	return sl.v, sl.err
}

// closer is what a component implements to be told its scope has ended.
type closer interface{ Close() error }

// release closes the store's instances in reverse order of creation.
func (s *store) release() error {
	s.mu.Lock()
	order := s.order
	s.order, s.slots, s.closed = nil, nil, true
	s.mu.Unlock()
	var errs []error
	for i := len(order) - 1; i >= 0; i-- {
		if c, ok := order[i].(closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}
