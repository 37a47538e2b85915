package dispatch

import (
	"net/http"
	"strings"
)

// Selection: the ServeMux has matched the method and the path; the routes
// of the group it matched differ in their conditions, which are tried in
// the order Spring MVC tries them. The first route, most specific first,
// whose conditions all hold is chosen. When none does, the first condition
// that failed for every route decides the answer:
//
//	consumes  the body's Content-Type is not readable     415, with Accept
//	produces  nothing in Accept can be written            406
//	params    a "p", "!p", "p=v" or "p!=v" condition fails 400

// varyAccept is the Vary header of negotiated answers, shared by all.
var varyAccept = []string{"Accept"}

// choice is the route chosen for a request, with what choosing it decided.
type choice struct {
	route    *route
	out      int       // the negotiated representation in route.produces; -1 when none
	concrete mediaType // the client's own type, when that representation is a pattern
	in       Format    // the body's format, when the route reads one
}

// choose picks the group's route for the request, or says with an *Error
// why none can serve it.
func (g *group) choose(ex *exchange, r *http.Request) (choice, error) {
	var body bodyType
	if g.reads { // the body's type matters only to routes that read one
		body = bodyTypeOf(r)
	}
	if g.negotiates { // every answer here depends on Accept, errors too
		ex.Header()["Vary"] = g.varyAccept
	}

	var consumable, acceptable bool
	for _, rt := range g.routes {
		in, ok := rt.readable(body)
		if !ok {
			continue
		}
		consumable = true
		out, concrete := -1, mediaType{}
		if len(rt.produces) > 0 {
			ranges, err := ex.acceptRanges(r)
			if err != nil {
				return choice{}, badRequest("Accept header is malformed: " + err.Error() + ".")
			}
			if out, concrete = negotiate(ranges, rt.produceTypes); out < 0 {
				continue
			}
		}
		acceptable = true
		if !rt.paramsHold(r.URL.RawQuery) {
			continue
		}
		return choice{route: rt, out: out, concrete: concrete, in: in}, nil
	}

	switch {
	case !consumable:
		ex.Header().Set("Accept", g.readable)
		shown := body.header
		if shown == "" {
			shown = "application/octet-stream"
		}
		return choice{}, &Error{Status: http.StatusUnsupportedMediaType, Detail: "Content-Type '" + Clip(shown) + "' is not supported."}
	case !acceptable:
		return choice{}, &Error{Status: http.StatusNotAcceptable, Detail: "Acceptable representations: [" + g.writable + "]."}
	}
	return choice{}, badRequest("Parameter conditions " + g.conditions + " not met for the request.")
}

// bodyType is what a request says about its body's type.
type bodyType struct {
	header  string    // the Content-Type header; empty when none
	parsed  mediaType // the header, parsed
	valid   bool      // the header parsed
	present bool      // the request has a body, or says it has
}

func bodyTypeOf(r *http.Request) bodyType {
	var b bodyType
	if v := r.Header["Content-Type"]; len(v) > 0 { // the key is canonical: skip Get's canonicalisation
		b.header = v[0]
	}
	b.present = r.ContentLength != 0 || b.header != ""
	if b.header != "" {
		var err error
		b.parsed, err = parseMediaType(b.header)
		b.valid = err == nil
	}
	return b
}

// readable reports whether the route can read a body of type b, and in
// which format.
func (rt *route) readable(b bodyType) (Format, bool) {
	if len(rt.consumes) == 0 {
		return 0, true
	}
	if b.header == "" {
		// No Content-Type counts as application/octet-stream, which no route
		// reads; but a bodiless request to a route with only the default
		// readers goes on, to be told its body is missing.
		return rt.consumes[0].format, !rt.explicitConsumes && !b.present
	}
	if !b.valid || !supportedCharset(b.parsed.charset) {
		return 0, false
	}
	for _, c := range rt.consumes {
		if c.mediaType.includes(b.parsed) {
			return c.format, true
		}
	}
	return 0, false
}

// supportedCharset reports whether a body in charset can be read: bodies are
// read as UTF-8, of which US-ASCII is a subset.
func supportedCharset(charset string) bool {
	return charset == "" || strings.EqualFold(charset, "utf-8") || strings.EqualFold(charset, "us-ascii")
}

func (rt *route) paramsHold(rawQuery string) bool {
	for _, c := range rt.params {
		if !c.holds(rawQuery) {
			return false
		}
	}
	return true
}
