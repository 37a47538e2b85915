package dispatch

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// The context path is the prefix that every route of a dispatcher lives
// under, as a servlet container serves a web application under its
// context path (Spring Boot's server.servlet.context-path): with /ctx,
// the route /api/hello answers /ctx/api/hello, and /api/hello is a 404.
//
// The routes are declared without it, and the dispatcher strips it
// before it selects a route, so that a route's pattern (the uri label of
// the metrics, the OpenAPI paths, /actuator/mappings) is what Spring
// reports: Spring's uri tag and its mappings leave the context path out.
// A handler sees the path without it, as behind http.StripPrefix
// (r.RequestURI keeps it); ContextPath tells a handler that writes a link
// or a redirect by hand what to put in front (a Redirect, Created or
// CreatedAt result has it put in front for it). The observers (the access log, the
// recent exchanges) and the problem documents' instance see the path the
// client sent, with the context path.

type contextPathKey struct{}

// ContextPath returns the context path the dispatcher stripped from r's
// path ("" for none), as a servlet's request.getContextPath(): a handler
// puts it in front of a path it links to, or redirects to from a Plain
// handler (the dispatcher puts it in front of the Location of a Redirect,
// Created or CreatedAt). Behind a proxy that serves the service under a
// path of its own (WithForwardedPrefix), it is that path instead.
func ContextPath(r *http.Request) string {
	cp, _ := r.Context().Value(contextPathKey{}).(string)
	return linkBase(r, cp)
}

type forwardedPrefixKey struct{}

// WithForwardedPrefix returns r as a proxy forwarded it from under
// prefix (X-Forwarded-Prefix: "" for the root, or a path that starts
// with / and does not end with one): ContextPath returns prefix in place
// of the context path, so that links and redirects lead the client back
// through the proxy, as Spring's ForwardedHeaderFilter has
// getContextPath return the prefix. The routes are matched as before.
func WithForwardedPrefix(r *http.Request, prefix string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), forwardedPrefixKey{}, prefix))
}

// linkBase is what a link under the context path contextPath starts
// with: the forwarded prefix when r has one.
func linkBase(r *http.Request, contextPath string) string {
	if prefix, ok := r.Context().Value(forwardedPrefixKey{}).(string); ok {
		return prefix
	}
	return contextPath
}

// withinContextPath returns r with the context path stripped from its
// path and noted in its context, or ok false when r's path lies outside
// the context path. "*" (OPTIONS *) and the empty path of CONNECT's
// authority form belong to the server, not to a path, and pass unchanged.
func (d *Dispatcher) withinContextPath(r *http.Request) (_ *http.Request, ok bool) {
	p := r.URL.Path
	if p == "*" || p == "" {
		return r, true
	}
	if _, unclean := uncleanPath(p); unclean {
		return nil, false
	}
	rest, found := strings.CutPrefix(p, d.contextPath)
	if !found || rest == "" || rest[0] != '/' {
		// /ctxother is not under /ctx; /ctx itself is redirected to /ctx/.
		return nil, false
	}
	u := new(url.URL)
	*u = *r.URL
	u.Path = rest
	if u.RawPath != "" {
		// The escaped path holds the context path unescaped, as it was
		// checked to start with it; if not, the decoded one is enough.
		if raw, found := strings.CutPrefix(u.RawPath, d.contextPath); found {
			u.RawPath = raw
		} else {
			u.RawPath = ""
		}
	}
	inner := r.WithContext(context.WithValue(r.Context(), contextPathKey{}, d.contextPath))
	inner.URL = u
	return inner, true
}

// answerOutsideContextPath answers a request the context path does not
// take: a path that is not clean is sent to its clean form first, as the
// ServeMux does (so /ctx/../api is judged as /api, not as /ctx/api); the
// context path itself is sent to itself with a slash, as Tomcat does;
// anything else is a 404 problem document.
func (d *Dispatcher) answerOutsideContextPath(ex *exchange, r *http.Request) {
	h := ex.Header()
	if clean, unclean := uncleanPath(r.URL.Path); unclean {
		h.Set("Location", (&url.URL{Path: clean, RawQuery: r.URL.RawQuery}).String())
		h.Set("Content-Length", "0")
		ex.WriteHeader(http.StatusMovedPermanently)
		return
	}
	switch {
	case r.URL.Path == d.contextPath:
		h.Set("Location", (&url.URL{Path: linkBase(r, d.contextPath) + "/", RawQuery: r.URL.RawQuery}).String())
		h.Set("Content-Length", "0")
		ex.WriteHeader(http.StatusFound)
	default:
		detail := "No endpoint " + Clip(r.Method) + " " + Clip(r.URL.EscapedPath()) + "."
		writeProblem(ex, r, http.StatusNotFound, detail, ex.requestIDFor(r, d.ids), d.traceID(r))
	}
}

// uncleanPath returns the clean form of p and true when p is not clean
// (a //, a . or .. segment), as the ServeMux judges it: a trailing
// slash is kept.
func uncleanPath(p string) (string, bool) {
	if p == "" || p == "*" {
		return p, false
	}
	clean := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	return clean, clean != p
}

// escapedPath is r's path as the client sent it, escaped: with the
// context path the dispatcher stripped, for problem documents and logs.
func escapedPath(r *http.Request) string { return ContextPath(r) + r.URL.EscapedPath() }

// fullPath is r's path as the client sent it, with the context path.
func fullPath(r *http.Request) string { return ContextPath(r) + r.URL.Path }
