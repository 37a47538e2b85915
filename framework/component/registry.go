// Package component is a service's component container, the Go
// counterpart of Spring's bean factory: components are declared with typed
// constructors, a scope and an optional profile condition, and their
// dependencies are declared explicitly, so that Start can check the whole
// graph before anything is built.
//
// Start refuses, naming the component, when a dependency has no active
// provider (its profile condition excluded it) or more than one, when
// dependencies form a cycle, and when a component would hold one that dies
// before it (a singleton holding a request-scoped component directly).
// Such a component depends on a Handle instead, which resolves the right
// instance for the request, session or connection at hand: Spring's scoped
// proxy, made explicit.
//
// Session-scoped components live in this process, beside a SessionStore
// that says which sessions are live. With a SharedSessionStore (Redis)
// their state is kept in the store too, so that sessions survive restarts
// and are shared by instances: see SharedSessionStore for what that
// guarantees.
package component

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/profile"
)

// Def declares a component that provides a T.
type Def[T any] struct {
	// Name identifies the component in errors and listings.
	Name string
	// Scope is its lifecycle; the zero value is Singleton.
	Scope Scope
	// Profiles is its profile condition: expressions such as "dev",
	// "!dev" or "dev & cloud", OR-ed. Empty means always.
	Profiles []string
	// Needs lists every dependency New resolves, so that Start can check
	// them. New may resolve nothing else.
	Needs []Dep
	// New builds an instance. An instance with a Close() error method is
	// closed when its scope ends, in reverse order of creation.
	New func(c *Context) (T, error)
}

// Dep is a declared dependency: a direct instance (Need) or a handle
// (NeedHandle).
type Dep struct {
	typ    reflect.Type
	handle bool
}

func (d Dep) String() string {
	if d.handle {
		return "Handle[" + d.typ.String() + "]"
	}
	return d.typ.String()
}

// Need declares a dependency on the one active component assignable to T.
func Need[T any]() Dep { return Dep{typ: reflect.TypeFor[T]()} }

// NeedHandle declares a dependency on a Handle to the one active component
// assignable to T: the way for a longer-lived component to use a
// request-, session- or websocket-scoped one.
func NeedHandle[T any]() Dep { return Dep{typ: reflect.TypeFor[T](), handle: true} }

// decl is a declaration with its type erased.
type decl struct {
	name      string
	typ       reflect.Type
	scope     Scope
	profiles  []string
	condition profile.Condition
	needs     []Dep
	build     func(c *Context) (any, error)
	index     int  // declaration order
	saveable  bool // its state can be kept in a SharedSessionStore
}

// Registry collects declarations. Its zero value is ready to use.
type Registry struct {
	decls []*decl
	errs  []error
}

// Provide declares a component on r, and returns the reference that
// resolves it once r has started. Mistakes in the declaration are reported
// by Start.
func Provide[T any](r *Registry, d Def[T]) Ref[T] {
	dc := &decl{
		name:     d.Name,
		typ:      reflect.TypeFor[T](),
		scope:    d.Scope,
		profiles: d.Profiles,
		needs:    d.Needs,
		index:    len(r.decls),
		saveable: saveable(reflect.TypeFor[T]()),
	}
	if d.New != nil {
		dc.build = func(c *Context) (any, error) { return d.New(c) }
	}
	var errs []error
	if d.Name == "" {
		errs = append(errs, fmt.Errorf("a component of type %s has no name", dc.typ))
	}
	if d.New == nil {
		errs = append(errs, fmt.Errorf("component %s has no New function", d.Name))
	}
	if d.Scope < Singleton || d.Scope > WebSocket {
		errs = append(errs, fmt.Errorf("component %s has an unknown scope %d", d.Name, int(d.Scope)))
	}
	if len(d.Profiles) > 0 {
		cond, err := profile.Parse(d.Profiles...)
		if err != nil {
			errs = append(errs, fmt.Errorf("component %s: %w", d.Name, err))
		}
		dc.condition = cond
	}
	for _, other := range r.decls {
		if other.name == d.Name && d.Name != "" {
			errs = append(errs, fmt.Errorf("component %s is declared twice", d.Name))
		}
	}
	r.errs = append(r.errs, errs...)
	r.decls = append(r.decls, dc)
	return Ref[T]{dc}
}

// Options configure a started container.
type Options struct {
	// Sessions keeps the HTTP sessions of the session scope; Start refuses
	// session-scoped components without it. The container does not close
	// it.
	Sessions SessionStore
	// SessionCookie shapes the session cookie; its zero value is Spring
	// Session's cookie, SESSION.
	SessionCookie SessionCookie
	// Logger logs what no caller can be told: session state that could not
	// be saved once its request's response was written. Nil means
	// slog.Default().
	Logger *slog.Logger
}

// Start checks the declarations against the active profiles, builds every
// singleton and application component in dependency order, and returns the
// running container. Every problem found is reported, each naming its
// component.
func (r *Registry) Start(active []string, opts Options) (*Container, error) {
	if len(r.errs) > 0 {
		return nil, fmt.Errorf("invalid components:\n%w", errors.Join(r.errs...))
	}
	c := &Container{byName: map[string]*decl{}, resolved: map[*decl][]*decl{}, active: slices.Clone(active),
		sessionCookie: opts.SessionCookie.withDefaults(), logger: cmp.Or(opts.Logger, slog.Default())}
	for _, d := range r.decls {
		if len(d.profiles) == 0 || d.condition.Matches(active) {
			c.decls = append(c.decls, d)
			c.byName[d.name] = d
		} else {
			c.absent = append(c.absent, d)
		}
	}
	var errs []error
	hasSessions := false
	_, shared := opts.Sessions.(SharedSessionStore)
	for _, d := range c.decls {
		if d.scope == Session {
			hasSessions = true
			switch {
			case opts.Sessions == nil:
				errs = append(errs, fmt.Errorf("component %s is session-scoped, and no session store was given in component.Options.Sessions", d.name))
			case shared && !d.saveable:
				errs = append(errs, unsaveableError(d, opts.Sessions))
			}
		}
	}
	// Each dependency has exactly one active provider.
	for _, d := range c.decls {
		for _, dep := range d.needs {
			p, err := c.provider(d, dep)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			c.resolved[d] = append(c.resolved[d], p)
		}
	}
	if len(errs) == 0 {
		errs = append(errs, c.checkCycles()...)
	}
	if len(errs) == 0 {
		for _, d := range c.decls {
			if err := c.checkLifetimes(d, d.scope.lifetime(), []string{d.name}); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid components:\n%w", errors.Join(errs...))
	}
	if err := c.buildSingletons(); err != nil {
		return nil, err
	}
	if hasSessions {
		// Only now, so that a failed start leaves nothing registered on
		// the store.
		c.sessions = newSessions(opts.Sessions)
	}
	return c, nil
}

// provider finds the one active component that satisfies dep for d.
func (c *Container) provider(d *decl, dep Dep) (*decl, error) {
	var found []*decl
	for _, p := range c.decls {
		if p.typ.AssignableTo(dep.typ) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var excluded []string
		for _, p := range c.absent {
			if p.typ.AssignableTo(dep.typ) {
				excluded = append(excluded, fmt.Sprintf("%s (only for profiles %q)", p.name, p.condition.String()))
			}
		}
		msg := fmt.Sprintf("component %s needs %s, and no active component provides it", d.name, dep)
		if len(excluded) > 0 {
			msg += fmt.Sprintf(": %s, with active profiles %q", strings.Join(excluded, ", "), c.active)
		}
		return nil, errors.New(msg)
	}
	names := make([]string, len(found))
	for i, p := range found {
		names[i] = p.name
	}
	return nil, fmt.Errorf("component %s needs %s, and %d active components provide it: %s; give them different types or profile conditions",
		d.name, dep, len(found), strings.Join(names, ", "))
}

// checkCycles finds cycles of direct dependencies; a handle is resolved
// later, so it does not close a cycle, except a handle to a prototype,
// which GetHandle resolves at injection.
func (c *Container) checkCycles() []error {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*decl]int{}
	var errs []error
	var path []*decl
	var visit func(d *decl)
	visit = func(d *decl) {
		state[d] = visiting
		path = append(path, d)
		for i, dep := range d.needs {
			p := c.resolved[d][i]
			if dep.handle && p.scope != Prototype {
				continue
			}
			switch state[p] {
			case visiting:
				start := slices.Index(path, p)
				var names []string
				for _, q := range path[start:] {
					names = append(names, q.name)
				}
				errs = append(errs, fmt.Errorf("components form a cycle: %s -> %s", strings.Join(names, " -> "), p.name))
			case unvisited:
				visit(p)
			}
		}
		path = path[:len(path)-1]
		state[d] = done
	}
	for _, d := range c.decls {
		if state[d] == unvisited {
			visit(d)
		}
	}
	return errs
}

// checkLifetimes refuses a direct dependency on a component that dies
// before its consumer. A prototype lives as long as its consumer, even
// through a handle, so its own dependencies are checked against the
// consumer's lifetime.
func (c *Container) checkLifetimes(d *decl, lifetime int, path []string) error {
	for i, dep := range d.needs {
		p := c.resolved[d][i]
		if dep.handle && p.scope != Prototype {
			continue
		}
		if p.scope == Prototype {
			if err := c.checkLifetimes(p, lifetime, append(path, p.name)); err != nil {
				return err
			}
			continue
		}
		if p.scope.lifetime() < lifetime {
			return fmt.Errorf("component %s (%s) needs %s (%s) directly, but %s outlives a %s; declare component.NeedHandle[%s]() and resolve it per use",
				strings.Join(path, " -> "), c.byName[path[0]].scope, p.name, p.scope, c.byName[path[0]].scope, p.scope, dep.typ)
		}
	}
	return nil
}
