package dispatch

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
)

// group is the set of routes that share a method and a pattern: what the
// ServeMux matches as one. Its routes differ only in their conditions.
type group struct {
	id         int         // the Observation.RouteID of its requests
	key        string      // "GET /api/hello", as registered on the ServeMux
	pattern    string      // "/api/hello", the route label of observations
	routes     []*route    // most specific first
	negotiates bool        // some route writes a negotiated body: Vary: Accept
	reads      bool        // some route reads a body: its type matters
	cors       *corsPolicy // the routes' CORS policy; nil for none
	// varyAccept is the Vary of a negotiated answer: Accept, and what
	// the CORS policy adds.
	varyAccept []string

	// For the answers when no route's conditions hold, made once.
	readable   string // body types any route reads: a 415's Accept header
	writable   string // representations any route writes: a 406's detail
	conditions string // the routes' params conditions: a 400's detail
}

// groupIDs numbers the groups of every dispatcher in the process, so that
// an observer shared by several (the service's port and the management
// port) can tell their groups apart by RouteID.
var groupIDs atomic.Int64

// maxGroupRoutes bounds a group: more routes for one method and pattern
// could only differ in conditions nobody could keep apart.
const maxGroupRoutes = 64

// groupRoutes puts the routes into groups, in declaration order, refusing
// two routes of a group whose conditions are the same, since neither could
// ever be chosen over the other.
func groupRoutes(routes []*route) ([]*group, []error) {
	var errs []error
	byKey := map[string]*group{}
	var groups []*group
	for _, rt := range routes {
		key := rt.decl.Method + " " + rt.decl.Pattern
		g := byKey[key]
		if g == nil {
			g = &group{id: int(groupIDs.Add(1)), key: key, pattern: rt.decl.Pattern}
			byKey[key] = g
			groups = append(groups, g)
		}
		if other := g.twin(rt); other != nil {
			errs = append(errs, fmt.Errorf("route %s: has the same method, pattern and conditions as route %s, so neither could ever be chosen over the other", rt.name, other.name))
			continue
		}
		g.routes = append(g.routes, rt)
	}
	for _, g := range groups {
		if len(g.routes) > maxGroupRoutes {
			errs = append(errs, fmt.Errorf("%s: %d routes share one method and pattern; at most %d can", g.key, len(g.routes), maxGroupRoutes))
			continue
		}
		// Most specific first, so that the first full match is the best one.
		slices.SortStableFunc(g.routes, func(a, b *route) int { return b.rank() - a.rank() })
		g.negotiates = slices.ContainsFunc(g.routes, func(rt *route) bool { return len(rt.produces) > 0 })
		g.reads = slices.ContainsFunc(g.routes, func(rt *route) bool { return len(rt.consumes) > 0 })
		g.readable = g.mediaTypes(func(rt *route) []representation { return rt.consumes })
		g.writable = g.mediaTypes(func(rt *route) []representation { return rt.produces })
		var conds []string
		for _, rt := range g.routes {
			if len(rt.params) > 0 {
				conds = append(conds, `"`+strings.Join(rt.decl.Params, ", ")+`"`)
			}
		}
		g.conditions = strings.Join(conds, " OR ")
	}
	return groups, errs
}

// twin returns a route of the group whose conditions equal rt's.
func (g *group) twin(rt *route) *route {
	for _, o := range g.routes {
		if sameSet(o.decl.Params, rt.decl.Params) && sameSet(o.decl.Consumes, rt.decl.Consumes) && sameSet(o.decl.Produces, rt.decl.Produces) {
			return o
		}
	}
	return nil
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// mediaTypes lists, without repeats, the media types of the
// representations that reps gives for each route.
func (g *group) mediaTypes(reps func(*route) []representation) string {
	var types []string
	for _, rt := range g.routes {
		for _, r := range reps(rt) {
			if s := r.mediaType.String(); !slices.Contains(types, s) {
				types = append(types, s)
			}
		}
	}
	return strings.Join(types, ", ")
}
