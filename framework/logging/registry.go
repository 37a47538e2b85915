package logging

import (
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Root names the logger at the top of the hierarchy, the ancestor of all.
// Any case names it, as in Logback.
const Root = "ROOT"

// ErrUnknown is what Set answers for a name that is neither a logger nor
// a group.
var ErrUnknown = errors.New("no logger or group has this name")

// Registry holds the loggers by name, their levels and the groups of
// loggers that can be set at once. Its methods are safe for concurrent
// use.
type Registry struct {
	base      slog.Handler
	rootLevel Level // what resetting ROOT returns it to: it cannot inherit
	events    *events

	mu      sync.Mutex // guards the maps and the configured levels
	loggers map[string]*node
	groups  map[string]*group
}

// node is one logger. Only threshold is read without the mutex.
type node struct {
	name       string
	parent     *node // nil for ROOT
	configured *Level
	// threshold is the effective level: configured, or the nearest
	// ancestor's. Every change of level recomputes it for all loggers,
	// so that Enabled reads one word.
	threshold atomic.Int64
	events    *events // the registry's, which Handle counts in
}

// group is a set of loggers that take one level together, as Spring's
// logger groups (web, sql) do.
type group struct {
	members    []string
	configured *Level
}

// NewRegistry returns a registry whose loggers write to base, with ROOT
// at root. base should let every level through: the loggers' levels
// decide what it gets.
func NewRegistry(base slog.Handler, root Level) *Registry {
	r := &Registry{base: base, rootLevel: root, events: &events{}, loggers: map[string]*node{}, groups: map[string]*group{}}
	rootNode := &node{name: Root, configured: &root, events: r.events}
	rootNode.threshold.Store(int64(root))
	r.loggers[Root] = rootNode
	return r
}

// canonical is the name a logger is registered under: ROOT for the root
// in any case (and for the empty name, as in Spring), else the name as
// given, since logger names are case-sensitive.
func canonical(name string) string {
	if name == "" || strings.EqualFold(name, Root) {
		return Root
	}
	return name
}

// Logger returns the logger name, registering it and its ancestors if
// they are not yet.
func (r *Registry) Logger(name string) *slog.Logger { return slog.New(r.Handler(name)) }

// Handler returns the handler of the logger name: the registry's base,
// given only the records the logger's level lets through, each carrying
// the logger's name (LoggerKey, or the name's own field in a structured
// format). It wraps another handler and can itself be wrapped.
func (r *Registry) Handler(name string) slog.Handler {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.node(name)
	return &handler{next: withLoggerName(r.base, n.name), node: n}
}

// node returns the logger name, creating it and its missing ancestors
// with inherited levels. r.mu is held.
func (r *Registry) node(name string) *node {
	name = canonical(name)
	if n, ok := r.loggers[name]; ok {
		return n
	}
	parent := r.loggers[Root]
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		parent = r.node(name[:i])
	}
	n := &node{name: name, parent: parent, events: r.events}
	n.threshold.Store(parent.threshold.Load())
	r.loggers[name] = n
	return n
}

// Group defines the group name of the given loggers, registering those
// that are not yet. A group's name is looked up before a logger's, so it
// should not be a logger's name too.
func (r *Registry) Group(name string, members ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range members {
		r.node(m)
	}
	r.groups[name] = &group{members: slices.Clone(members)}
}

// Configure sets the level of the group or logger name, registering the
// logger if there is none: a setting may name a logger before the code
// that writes to it asks for it, or one the service does not have, as
// Spring lets it.
func (r *Registry) Configure(name string, level Level) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if g, ok := r.groups[name]; ok {
		r.setGroup(g, &level)
	} else {
		r.node(name).configured = &level
	}
	r.propagate()
}

// Set changes the level of the existing group or logger name; a nil level
// resets it, so that a logger inherits its ancestor's level again and a
// group's loggers do. ROOT, which has no ancestor, is reset to the level
// the registry was made with. A name that is neither is ErrUnknown.
func (r *Registry) Set(name string, level *Level) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if g, ok := r.groups[name]; ok {
		r.setGroup(g, level)
	} else if n, ok := r.loggers[canonical(name)]; ok {
		if n.parent == nil && level == nil {
			level = &r.rootLevel
		}
		n.configured = level
	} else {
		return ErrUnknown
	}
	r.propagate()
	return nil
}

// setGroup gives the group g and each of its loggers level. r.mu is held.
func (r *Registry) setGroup(g *group, level *Level) {
	g.configured = level
	for _, m := range g.members {
		r.node(m).configured = level
	}
}

// propagate recomputes every logger's effective level after a change.
// r.mu is held.
func (r *Registry) propagate() {
	for _, n := range r.loggers {
		a := n
		for a.configured == nil {
			a = a.parent
		}
		n.threshold.Store(int64(*a.configured))
	}
}

// LoggerLevels are a logger's levels as Spring's endpoint shows them.
type LoggerLevels struct {
	Name       string
	Configured *Level // nil when the logger inherits
	Effective  Level
}

// GroupLevels are a group's level and members.
type GroupLevels struct {
	Name       string
	Configured *Level // nil until the group is set
	Members    []string
}

// Loggers returns every logger, ROOT first and then by name.
func (r *Registry) Loggers() []LoggerLevels {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := make([]LoggerLevels, 0, len(r.loggers))
	for _, n := range r.loggers {
		list = append(list, n.levels())
	}
	slices.SortFunc(list, func(a, b LoggerLevels) int {
		// ROOT is first, as in Spring, whatever the names' case.
		switch {
		case a.Name == Root:
			return -1
		case b.Name == Root:
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return list
}

// LookupLogger returns the logger name, if there is one.
func (r *Registry) LookupLogger(name string) (LoggerLevels, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.loggers[canonical(name)]
	if !ok {
		return LoggerLevels{}, false
	}
	return n.levels(), true
}

// Groups returns every group, by name.
func (r *Registry) Groups() []GroupLevels {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := make([]GroupLevels, 0, len(r.groups))
	for name, g := range r.groups {
		list = append(list, g.levels(name))
	}
	slices.SortFunc(list, func(a, b GroupLevels) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// LookupGroup returns the group name, if there is one.
func (r *Registry) LookupGroup(name string) (GroupLevels, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g, ok := r.groups[name]
	if !ok {
		return GroupLevels{}, false
	}
	return g.levels(name), true
}

func (n *node) levels() LoggerLevels {
	return LoggerLevels{Name: n.name, Configured: copyLevel(n.configured), Effective: Level(n.threshold.Load())}
}

func (g *group) levels(name string) GroupLevels {
	return GroupLevels{Name: name, Configured: copyLevel(g.configured), Members: slices.Clone(g.members)}
}

// copyLevel keeps the registry's levels out of callers' reach.
func copyLevel(l *Level) *Level {
	if l == nil {
		return nil
	}
	c := *l
	return &c
}
