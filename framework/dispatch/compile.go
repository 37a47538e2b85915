package dispatch

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
)

// Compilation turns each declared Route into a route: every condition
// parsed, every representation resolved to its reader or writer, and
// everything that can be wrong about the declaration reported at once,
// naming the route. Routes that share a method and a pattern then form a
// group, which is what the ServeMux dispatches to.

// route is a checked Route with everything the hot path needs precomputed.
type route struct {
	decl             Route  // as declared
	name             string // as errors and logs name it
	status           int    // success status
	params           []ParamCondition
	consumes         []representation // body types read; empty when none
	explicitConsumes bool
	produces         []representation // representations written; empty when no body
	produceTypes     []mediaType      // produces' media types, for negotiate
	explicitProduces bool
	inputs           []*inputSpec
	pagers           []*pager // a Pageable input's at its index in inputs; nil without one

	body        reflect.Type // nil when the route reads no body
	result      reflect.Type // nil when success has no body
	run         func(c *call) error
	plain       http.Handler // set for a Plain route, which has no run
	root        xmlRoot
	statusCoder bool        // the result type chooses its status
	cors        *corsPolicy // its group's; nil for none
	// located is set when the result is a Redirect, Created or CreatedAt
	// (location.go); result is then the type of its body, or nil.
	located locationKind
	// checks are the body's constraints (validate.go); nil for none.
	checks *plan
}

// rank orders the routes of a group, most specific first: more params
// conditions, then a declared consumes, then a declared produces.
func (rt *route) rank() int {
	r := len(rt.params) << 2
	if rt.explicitConsumes {
		r |= 2
	}
	if rt.explicitProduces {
		r |= 1
	}
	return r
}

var methodNames = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"}

// compile checks decl and precomputes its route.
func compile(decl Route) (*route, error) {
	h := decl.Handler
	rt := &route{decl: decl, name: decl.String(), status: decl.Status,
		body: h.body, result: h.result, run: h.run, plain: h.plain}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	var err error
	if rt.located, rt.result, err = locatedResult(h.result); err != nil {
		errs = append(errs, err)
	}

	if !slices.Contains(methodNames, decl.Method) {
		fail("method %q is not one of %s", decl.Method, strings.Join(methodNames, ", "))
	}
	if !strings.HasPrefix(decl.Pattern, "/") || strings.ContainsAny(decl.Pattern, " \t") {
		fail("pattern %q must be a path starting with /, without method or host", decl.Pattern)
	}
	if h.run == nil && h.plain == nil {
		fail("has no handler; build one with Returns, Accepts, Exchanges, Runs or Plain")
	}
	errs = append(errs, rt.compileStatus(decl.Status, h.result)...)
	if h.plain != nil && decl.Status != 0 {
		fail("declares success status %d, but a Plain handler writes its own status", decl.Status)
	}
	for _, status := range decl.Errors {
		if status < 400 || status > 599 {
			fail("error status %d is not a 4xx or 5xx status", status)
		}
	}
	if rt.result != nil && (rt.status == http.StatusNoContent || rt.status == http.StatusResetContent) {
		fail("success status %d cannot carry the %s its handler returns", rt.status, rt.result)
	}
	for _, expr := range decl.Params {
		c, err := parseParamCondition(expr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rt.params = append(rt.params, c)
	}
	errs = append(errs, rt.compileConsumes(decl.Consumes)...)
	errs = append(errs, rt.compileProduces(decl.Produces)...)
	errs = append(errs, rt.compileInputs(decl.Pattern, decl.Inputs)...)
	errs = append(errs, rt.compileChecks()...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rt, nil
}

// compileConsumes resolves the body types the route reads: every reader by
// default when the handler takes a body, else those declared, each of which
// a reader must serve.
func (rt *route) compileConsumes(declared []string) []error {
	if len(declared) == 0 {
		if rt.body != nil {
			rt.consumes = bodyReaders
		}
		return nil
	}
	var errs []error
	rt.explicitConsumes = true
	for _, s := range declared {
		m, err := parseMediaType(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("consumes %q: %v", s, err))
			continue
		}
		r := representation{mediaType: m, format: formatOf(m)}
		if rt.body != nil {
			i := slices.IndexFunc(bodyReaders, func(r representation) bool { return r.mediaType.includes(m) })
			if i < 0 {
				errs = append(errs, fmt.Errorf("consumes %q, but bodies can only be read as %s", s, listTypes(bodyReaders)))
				continue
			}
			r.format = bodyReaders[i].format
		}
		rt.consumes = append(rt.consumes, r)
	}
	return errs
}

// compileProduces resolves the representations the route writes: every
// writer for its result's type by default, else those declared, each of
// which a writer must serve. A []byte result is already a representation,
// in the one type it declares; a Plain route writes what it declares.
func (rt *route) compileProduces(declared []string) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch {
	case rt.plain != nil:
		rt.explicitProduces = len(declared) > 0
		for _, s := range declared {
			m, err := parseMediaType(s)
			if err != nil {
				fail("produces %q: %v", s, err)
				continue
			}
			rt.produces = append(rt.produces, representation{mediaType: m, contentType: s, format: formatOf(m), raw: true})
		}
	case rt.result == nil:
		if len(declared) > 0 {
			fail("produces %v, but its handler answers with no body", declared)
		}
	default:
		writers := objectWriters
		switch {
		case rt.result == reflect.TypeFor[[]byte]():
			writers = nil
			if len(declared) != 1 {
				fail("returns []byte, so it must declare exactly one Produces type")
			} else if m, err := parseMediaType(declared[0]); err != nil || m.isPattern() {
				fail("produces %q: a []byte result needs one concrete media type", declared[0])
			} else {
				writers = []representation{{mediaType: m, contentType: declared[0], contentTypeHeader: []string{declared[0]}, format: formatOf(m), raw: true}}
			}
		case rt.result.Kind() == reflect.String:
			writers = textWriters
		case !xmlWritable(rt.result):
			writers = objectWriters[:1] // JSON only
		}
		rt.root = xmlRootOf(rt.result)
		rt.statusCoder = rt.result.Implements(reflect.TypeFor[StatusCoder]())
		if len(declared) == 0 {
			rt.produces = writers
			break
		}
		rt.explicitProduces = true
		for _, s := range declared {
			m, err := parseMediaType(s)
			if err != nil {
				fail("produces %q: %v", s, err)
				continue
			}
			i := slices.IndexFunc(writers, func(w representation) bool { return m.includes(w.mediaType) })
			if i >= 0 {
				rt.produces = append(rt.produces, writers[i])
				continue
			}
			// A concrete type in a syntax that a writer writes, such as
			// application/vnd.spring-boot.actuator.v3+json, JSON by its
			// suffix: the route answers in that type even to a client
			// that sent no Accept, so it is a representation of its own,
			// written by that writer.
			f := formatOf(m)
			i = slices.IndexFunc(writers, func(w representation) bool {
				return !m.isPattern() && (f == FormatJSON || f == FormatXML) && w.format == f
			})
			if i < 0 {
				fail("produces %q, but its %s result can only be written as %s", s, rt.result, listTypes(writers))
				continue
			}
			ct := m.String()
			if writers[i].format == FormatXML {
				ct += ";charset=UTF-8"
			}
			rt.produces = append(rt.produces, representation{mediaType: m, contentType: ct, contentTypeHeader: []string{ct}, format: writers[i].format})
		}
	}
	for _, p := range rt.produces {
		rt.produceTypes = append(rt.produceTypes, p.mediaType)
	}
	return errs
}

// compileInputs checks that each path variable of the pattern, and only
// those, is declared, each input once, and that only integers have a
// minimum. A Plain route reads its own.
func (rt *route) compileInputs(pattern string, inputs []Input) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if rt.plain != nil {
		if len(inputs) > 0 {
			fail("declares Inputs, but a Plain handler reads the request itself")
		}
		return errs
	}
	wildcards := patternWildcards(pattern)
	seen := map[string]bool{}
	for _, in := range inputs {
		if in == nil {
			fail("has a nil input")
			continue
		}
		s := in.spec()
		if s.page != nil {
			errs = append(errs, rt.compilePageable(len(rt.inputs), s, seen)...)
			rt.inputs = append(rt.inputs, s)
			continue
		}
		if seen[s.in+" "+s.name] {
			fail("declares %s parameter %q twice", s.in, s.name)
		}
		seen[s.in+" "+s.name] = true
		if s.name == "" {
			fail("declares a %s parameter without a name", s.in)
		}
		if s.in == inPath && !slices.Contains(wildcards, s.name) {
			fail("declares path variable %q, which its pattern does not have", s.name)
		}
		if s.hasMin && s.kind != kindInt32 && s.kind != kindInt64 {
			fail("declares a minimum for %s parameter %q, which is not an integer", s.in, s.name)
		}
		errs = append(errs, s.checkDefault()...)
		if err := s.checkDeclaration(); err != nil {
			errs = append(errs, err)
		}
		rt.inputs = append(rt.inputs, s)
	}
	for _, w := range wildcards {
		if !seen[inPath+" "+w] {
			fail("path variable {%s} has no declared type; list dispatch.Path[T](%q) in Inputs", w, w)
		}
	}
	return errs
}

// patternWildcards returns the names of a pattern's {name} and {name...}
// segments; {$} is not a variable.
func patternWildcards(pattern string) []string {
	var names []string
	for {
		open := strings.IndexByte(pattern, '{')
		if open < 0 {
			return names
		}
		end := strings.IndexByte(pattern[open:], '}')
		if end < 0 {
			return names // the ServeMux reports the malformed pattern
		}
		name := strings.TrimSuffix(pattern[open+1:open+end], "...")
		if name != "$" {
			names = append(names, name)
		}
		pattern = pattern[open+end+1:]
	}
}

func listTypes(reps []representation) string {
	names := make([]string, len(reps))
	for i, r := range reps {
		names[i] = r.mediaType.String()
	}
	return strings.Join(names, ", ")
}

// xmlWritable reports whether encoding/xml can write values of type t (it
// cannot write maps, for one), judged by writing t's zero value.
func xmlWritable(t reflect.Type) bool {
	var buf bytes.Buffer
	return encode(&buf, nil, FormatXML, xmlRootOf(t), reflect.Zero(t).Interface()) == nil
}
