package dispatch

import (
	"reflect"
	"strings"
)

// Route declares one endpoint: what requests it takes and what it does.
type Route struct {
	Method  string // GET, POST, PUT, DELETE, PATCH…; GET routes answer HEAD too
	Pattern string // a ServeMux path pattern without method or host: "/items/{id}"

	// Summary says in a few words what the route does, and Tags group it
	// with others, for the route's description (the OpenAPI document).
	Summary string
	Tags    []string

	// Params are request-parameter conditions in Spring's syntax: "p", "!p",
	// "p=v", "p!=v". All must hold for the route to be chosen.
	Params []string

	// Consumes narrows the body types the route reads. By default a route
	// whose handler takes a body reads JSON and XML; one that takes none
	// reads nothing.
	Consumes []string

	// Produces narrows the types the route writes. By default an object is
	// written as JSON or XML and a string as plain text. A route whose
	// handler is Plain declares what it writes here, so that a client that
	// accepts none of it is answered 406 before the handler runs.
	Produces []string

	// Status is the success status (Spring's @ResponseStatus); 0 means 200.
	Status int

	// Inputs are the typed path variables and query parameters. Every
	// {wildcard} of the pattern must be declared here.
	Inputs []Input

	// Errors lists the error statuses the handler itself answers with,
	// for the route's description; those the dispatcher decides (400, 406,
	// 413, 415, 500) are known without it.
	Errors []int

	// Headers describe the headers a success carries beyond
	// Content-Type, for the route's description; the handler sets them
	// (a Stream's Header).
	Headers []ResponseHeader

	// CORS, when enabled, lets pages of the origins it allows call the
	// route from a browser (Spring's @CrossOrigin, or its CORS settings);
	// see cors.go. Routes that share a method and a pattern share one.
	CORS *CORS

	// Paging names the parameters of the route's Pageable inputs and
	// bounds their sizes (pageable.go); nil means Spring's defaults. boot
	// gives the service's routes the one app.data.web.* sets.
	Paging *Paging

	// Handler is the route's action: Returns, Accepts, Exchanges or Runs
	// for a typed one, Plain for an http.Handler.
	Handler Handler
}

// ResponseHeader describes a header of a route's successful responses.
type ResponseHeader struct {
	Name        string
	Description string
	Type        reflect.Type // of its value: int64, string...
}

// String names the route as error messages and listings show it.
func (r Route) String() string {
	var b strings.Builder
	b.WriteString(r.Method)
	b.WriteByte(' ')
	b.WriteString(r.Pattern)
	if len(r.Params) > 0 {
		b.WriteString(" params=[" + strings.Join(r.Params, ", ") + "]")
	}
	if len(r.Consumes) > 0 {
		b.WriteString(" consumes=[" + strings.Join(r.Consumes, ", ") + "]")
	}
	if len(r.Produces) > 0 {
		b.WriteString(" produces=[" + strings.Join(r.Produces, ", ") + "]")
	}
	return b.String()
}
