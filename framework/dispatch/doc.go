// Package dispatch is the service's front dispatcher: it picks the handler for
// a request by method, path, request parameters and body type, converts path
// variables and query parameters to their declared types, reads request
// bodies and writes responses in the representation the client negotiated,
// and answers every failure with an RFC 9457 problem document.
//
// # Selection
//
// Routes are grouped by method and path pattern, and each group is registered
// once on a standard library ServeMux, so path matching, path variables,
// pattern precedence (a literal segment beats a wildcard) and the 404 and 405
// decisions (with their Allow header) are the ServeMux's own. The ServeMux's
// plain-text 404 and 405 answers are intercepted and replaced by problem
// documents, and an OPTIONS request to a known path is answered with 200 and
// Allow.
//
// Within a group the routes differ in their conditions, which are tried in
// the order Spring MVC tries them, the first condition that fails for every
// candidate deciding the status:
//
//	consumes  the body's Content-Type is not readable     415, Accept header
//	produces  nothing in Accept can be written            406
//	params    a "p", "!p", "p=v" or "p!=v" condition fails 400
//
// Of the routes that pass every condition the most specific wins: more params
// conditions first, then a declared consumes, then a declared produces, then
// declaration order. Once a route is chosen its declared inputs are converted
// (400 naming the parameter on failure), its body is read (413 past the size
// limit, 400 when malformed), its handler runs, and the result is written
// with the negotiated writer and the route's success status. A handler's
// error becomes a problem document through Options.Classify; a panic becomes
// a 500 whose stack is logged and never sent.
//
// Everything about a route that can be wrong is checked by New, which refuses
// the whole table and names each misdeclared route.
package dispatch
