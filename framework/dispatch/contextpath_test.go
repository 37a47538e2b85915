package dispatch

import (
	"net/http"
	"testing"
)

// TestContextPath: with a context path, the routes answer under it and
// nowhere else; a handler sees the path without it and learns it from
// ContextPath; the observers are told the route's pattern without it and
// the path the client sent; redirects and problem documents name the
// path with it.
func TestContextPath(t *testing.T) {
	t.Parallel()
	var seen []Observation
	var paths, prefixes []string
	where := func(r *Request) (string, error) {
		paths, prefixes = append(paths, r.URL.Path), append(prefixes, ContextPath(r.Request))
		return r.PathValue("id"), nil
	}
	d := newDispatcher(t, Options{ContextPath: "/ctx", Observers: []func(Observation){func(o Observation) {
		o.Request = nil // valid only during the call
		seen = append(seen, o)
	}}},
		Route{Method: "GET", Pattern: "/items/{id}", Inputs: []Input{Path[string]("id")}, Handler: Returns(where)},
		Route{Method: "GET", Pattern: "/tree/", Handler: text("tree")})

	w := serve(d, "GET", "/ctx/items/7", nil)
	if w.Code != http.StatusOK || w.Body.String() != "7" {
		t.Errorf("GET /ctx/items/7: got %d %s, want 200 7", w.Code, w.Body)
	}
	if len(paths) != 1 || paths[0] != "/items/7" || prefixes[0] != "/ctx" {
		t.Errorf("the handler saw path %q and context path %q, want /items/7 and /ctx", paths, prefixes)
	}
	if len(seen) != 1 || seen[0].Route != "/items/{id}" {
		t.Errorf("observed %+v, want the route /items/{id}", seen)
	}

	for _, target := range []string{"/items/7", "/ctxitems/7", "/other/ctx/items/7"} {
		checkProblem(t, target, serve(d, "GET", target, nil), http.StatusNotFound, target, "No endpoint GET "+target+".")
	}
	checkProblem(t, "/ctx/nothing", serve(d, "GET", "/ctx/nothing", nil), http.StatusNotFound, "/ctx/nothing", "No endpoint GET /ctx/nothing.")
	if last := seen[len(seen)-1]; last.Route != NotFound {
		t.Errorf("a 404 is observed as route %q, want %q", last.Route, NotFound)
	}

	redirects := []struct{ target, status, location string }{
		{"/ctx", "302", "/ctx/"},                              // the context root, as Tomcat does
		{"/ctx?a=1", "302", "/ctx/?a=1"},                      // … keeping the query
		{"/ctx/tree", "307", "/ctx/tree/"},                    // the ServeMux's, with the context path
		{"/ctx//items/7", "301", "/ctx/items/7"},              // cleaned first
		{"/ctx/../items/7", "301", "/items/7"},                // … so that .. leaves the context path
		{"/ctx/items/./7?x=%2F", "301", "/ctx/items/7?x=%2F"}, // with the query as sent
	}
	for _, r := range redirects {
		w := serve(d, "GET", r.target, nil)
		if got := w.Result().Status[:3]; got != r.status || w.Header().Get("Location") != r.location {
			t.Errorf("GET %s: got %s Location %q, want %s %q", r.target, got, w.Header().Get("Location"), r.status, r.location)
		}
	}
}

// TestContextPathRefused: a context path that does not start with / or
// ends with one is refused by New.
func TestContextPathRefused(t *testing.T) {
	t.Parallel()
	for _, cp := range []string{"ctx", "/ctx/", "/"} {
		if _, err := New(Options{ContextPath: cp}); err == nil {
			t.Errorf("New accepted the context path %q", cp)
		}
	}
}
