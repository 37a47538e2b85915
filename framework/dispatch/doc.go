// Package dispatch is a service's front dispatcher, the counterpart of
// Spring MVC's DispatcherServlet: it picks the handler for a request by
// method, path, request parameters and body type, converts path variables
// and query parameters to their declared types, reads request bodies and
// writes responses in the representation the client negotiated, and answers
// every failure with an RFC 9457 problem document.
//
// # Declaring routes
//
// A Route names its method, its ServeMux path pattern, its conditions
// (Params, Consumes, Produces), its typed Inputs and its Handler, built with
// Returns, Accepts, Exchanges or Runs from a typed function, or with Plain
// from an http.Handler (route.go, handler.go, stream.go for Streams;
// condition.go parses Params). New checks the whole table before anything
// is served (compile.go, group.go) and refuses it with a *TableError,
// naming each misdeclared route: an unknown method, an undeclared path variable, a Produces the
// result cannot be written as, a 204 that would carry a body, two routes it
// could not tell apart, a pattern the ServeMux refuses. Describe and a
// Catalog list the checked routes for /actuator/mappings and the OpenAPI
// document (describe.go).
//
// # A request's way through the package
//
//  0. trace.go: an Options.Tracer, when set, puts the request's trace in
//     its context first, so that every log line and problem document
//     about the request can name it. peer.go: the connection's peer, when
//     a front rewrote RemoteAddr from a trusted proxy's headers, is kept
//     in the context for the Tracer (SocketPeer).
//  1. dispatcher.go: ServeHTTP takes a pooled exchange (exchange.go) and
//     gives the answer its request ID (requestid.go: the client's
//     X-Request-Id when sane, else a new one).
//  2. contextpath.go: with a context path, a request outside it is
//     answered 404 (the context path alone is redirected to its slash),
//     and one inside it goes on without it. cors.go: a CORS
//     preflight from another origin is answered here, before the guard,
//     as a browser sends it without credentials.
//  3. guard.go: an Options.Guard (security) may refuse the request, or
//     give it a context with the principal, before any route is chosen.
//  4. dispatcher.go: the standard library ServeMux matches the method and
//     the path, so path matching, path variables, pattern precedence (a
//     literal segment beats a wildcard) and the 404 and 405 decisions are
//     the ServeMux's own. unmatched.go: when no route's pattern matches,
//     the ServeMux's own plain-text answers become problem documents,
//     OPTIONS on a known path is answered 200 with Allow, and CONNECT to
//     an authority 405.
//  5. cors.go: the matched routes' CORS policy (corspolicy.go, compiled
//     when the dispatcher is built) admits a cross-origin request, and the
//     cross-origin protection refuses a state-changing one from an origin
//     the policy does not allow (403).
//  6. select.go: the routes that share the matched method and pattern
//     differ in their conditions (condition.go, and the media types of
//     mediatype.go), tried in Spring MVC's order; the first condition that
//     fails for every route decides the status (415, 406, 400). Of the
//     routes that pass, the most specific wins.
//  7. execute.go: the chosen route's inputs are converted once (input.go;
//     400 naming the parameter; querydefault.go gives an optional one
//     left out its default; pageable.go reads a Pageable's page, size and
//     sort, named and bounded by the route's Paging, paging.go, which New
//     checks) and checked against their constraints (inputcheck.go), its
//     body is read (415 in a content coding,
//     413 past the size limit, 408 past the read timeout) and decoded
//     (codec.go; 400 when malformed, 415 for an XML charset other than
//     UTF-8) and checked against the constraints its type's tags declare
//     (validate.go, with constraint.go's rules, planned when the route is
//     compiled, and constraintcheck.go's checks); every parameter's fault and every body member's
//     violation is answered in one 400 that lists them (violation.go);
//     its handler runs with the converted values (handler.go), and
//     the result is written with the negotiated representation
//     (representation.go, negotiate.go; a Stream element by element,
//     stream.go; a page of items as a Page, page.go) and the route's
//     success status; a Redirect, Created or CreatedAt result answers
//     with its Location (location.go).
//  8. problem.go: a handler's error becomes a problem document through
//     Options.Classify (errorkind.go: the Kind it gives is kept for the
//     observers); a panic becomes a 500 whose stack is logged, never
//     sent, and failurelog.go keeps a flood of failures of one kind from
//     flooding the log. observe.go then tells the observers (metrics,
//     access log) and the Tracer, which ends the request's span.
//
// A test checks that this comment names every file of the package.
package dispatch
