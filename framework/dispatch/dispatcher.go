package dispatch

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a Dispatcher. The zero value is usable.
type Options struct {
	// Logger receives server-side errors, panics with their stacks among
	// them. Nil discards them.
	Logger *slog.Logger

	// MaxBodyBytes caps a request body; a larger one is refused with 413.
	// Zero means 1 MiB.
	MaxBodyBytes int64

	// Classify maps a handler's error that is not an *Error to one, so that
	// domain errors get their statuses in one place. A nil result, or a nil
	// Classify, makes the error a 500 whose text is only logged.
	Classify func(error) *Error
	// Observers are told about every request once it is answered.
	Observers []func(Observation)

	// RequestIDs gives every answer an X-Request-Id, generating one when the
	// client sent none, as an access log needs. Otherwise a client's sane
	// ID is echoed and a new one is made only for problem documents.
	RequestIDs bool
}

// smallBody is the largest body net/http sizes by itself: it sets
// Content-Length when the handler returns before writing more than its
// chunking buffer holds (2048 bytes).
const smallBody = 2048

// varyAccept is the Vary header of negotiated answers, shared by all.
var varyAccept = []string{"Accept"}

// DefaultMaxBodyBytes is the request-body limit when Options leave it unset.
const DefaultMaxBodyBytes = 1 << 20

// Dispatcher is an http.Handler that serves a checked table of routes.
type Dispatcher struct {
	mux       *http.ServeMux
	routes    []*route // in declaration order
	log       *slog.Logger
	maxBody   int64
	classify  func(error) *Error
	observers []func(Observation)
	ids       *requestIDs
	alwaysIDs bool
	exchanges sync.Pool
}

// New checks the routes and builds a Dispatcher for them. A misdeclared
// route, or two that the dispatcher could not tell apart, make New fail with
// an error that names every such route.
func New(opts Options, routes ...Route) (*Dispatcher, error) {
	d := &Dispatcher{
		mux:       http.NewServeMux(),
		log:       opts.Logger,
		maxBody:   opts.MaxBodyBytes,
		classify:  opts.Classify,
		observers: opts.Observers,
		ids:       newRequestIDs(),
		alwaysIDs: opts.RequestIDs,
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.maxBody <= 0 {
		d.maxBody = DefaultMaxBodyBytes
	}
	d.exchanges.New = func() any { return new(exchange) }

	var errs []error
	groups := map[string]*group{}
	var order []*group
	for _, decl := range routes {
		rt, err := compile(decl)
		if err != nil {
			errs = append(errs, fmt.Errorf("route %s: %w", decl, err))
			continue
		}
		d.routes = append(d.routes, rt)
		key := decl.Method + " " + decl.Pattern
		g := groups[key]
		if g == nil {
			g = &group{d: d, key: key, pattern: decl.Pattern}
			groups[key] = g
			order = append(order, g)
		}
		if other := g.twin(rt); other != nil {
			errs = append(errs, fmt.Errorf("route %s: has the same method, pattern and conditions as route %s, so neither could ever be chosen over the other", rt.name, other.name))
			continue
		}
		g.routes = append(g.routes, rt)
	}
	for _, g := range order {
		if len(g.routes) > 64 {
			errs = append(errs, fmt.Errorf("%s: %d routes share one method and pattern; at most 64 can", g.key, len(g.routes)))
			continue
		}
		// Most specific first, so that the first full match is the best one.
		slices.SortStableFunc(g.routes, func(a, b *route) int { return b.rank() - a.rank() })
		g.negotiates = slices.ContainsFunc(g.routes, func(rt *route) bool { return len(rt.produces) > 0 })
		if err := register(d.mux, g); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid route table:\n%w", errors.Join(errs...))
	}
	return d, nil
}

// register adds a group to the ServeMux, turning the ServeMux's panic on a
// malformed or conflicting pattern into an error that names the route.
func register(mux *http.ServeMux, g *group) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("route %s: %v", g.routes[0].name, p)
		}
	}()
	mux.Handle(g.key, g)
	return nil
}

// route is a checked Route with everything the hot path needs precomputed.
type route struct {
	decl             Route
	name             string
	status           int
	params           []ParamCondition
	consumes         []representation // body types read; empty when none
	explicitConsumes bool
	produces         []representation // representations written; empty when no body
	produceTypes     []mediaType      // produces' media types, for negotiate
	explicitProduces bool
	inputs           []*inputSpec
	root             xmlRoot
	statusCoder      bool // the result type chooses its status
}

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

func compile(decl Route) (*route, error) {
	rt := &route{decl: decl, name: decl.String(), status: decl.Status}
	if rt.status == 0 {
		rt.status = http.StatusOK
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if !slices.Contains(methodNames, decl.Method) {
		fail("method %q is not one of %s", decl.Method, strings.Join(methodNames, ", "))
	}
	if !strings.HasPrefix(decl.Pattern, "/") || strings.ContainsAny(decl.Pattern, " \t") {
		fail("pattern %q must be a path starting with /, without method or host", decl.Pattern)
	}
	if decl.Handler.run == nil {
		fail("has no handler; build one with Returns, Accepts, Exchanges or Runs")
	}
	if rt.status < 200 || rt.status > 299 {
		fail("success status %d is not a 2xx status", rt.status)
	}
	for _, status := range decl.Errors {
		if status < 400 || status > 599 {
			fail("error status %d is not a 4xx or 5xx status", status)
		}
	}
	h := decl.Handler
	if h.result != nil && (rt.status == http.StatusNoContent || rt.status == http.StatusResetContent) {
		fail("success status %d cannot carry the %s its handler returns", rt.status, h.result)
	}

	for _, expr := range decl.Params {
		c, err := parseParamCondition(expr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rt.params = append(rt.params, c)
	}

	// Consumes: by default, every reader when the handler takes a body.
	switch {
	case len(decl.Consumes) == 0 && h.body != nil:
		rt.consumes = bodyReaders
	case len(decl.Consumes) > 0:
		rt.explicitConsumes = true
		for _, s := range decl.Consumes {
			m, err := parseMediaType(s)
			if err != nil {
				fail("consumes %q: %v", s, err)
				continue
			}
			f := formatText // a bodiless handler never reads it
			if h.body != nil {
				i := slices.IndexFunc(bodyReaders, func(r representation) bool { return r.mediaType.includes(m) })
				if i < 0 {
					fail("consumes %q, but bodies can only be read as %s", s, listTypes(bodyReaders))
					continue
				}
				f = bodyReaders[i].format
			}
			rt.consumes = append(rt.consumes, representation{mediaType: m, format: f})
		}
	}

	// Produces: by default, every writer for the result's type.
	if h.result != nil {
		writers := objectWriters
		switch {
		case h.result == reflect.TypeFor[[]byte]():
			// Bytes that are already a representation: written as they
			// are, in the one type the route declares.
			writers = nil
			if len(decl.Produces) != 1 {
				fail("returns []byte, so it must declare exactly one Produces type")
			} else if m, err := parseMediaType(decl.Produces[0]); err != nil || m.isPattern() {
				fail("produces %q: a []byte result needs one concrete media type", decl.Produces[0])
			} else {
				writers = []representation{{mediaType: m, contentType: decl.Produces[0], contentTypeHeader: []string{decl.Produces[0]}, format: formatRaw}}
			}
		case h.result.Kind() == reflect.String:
			writers = textWriters
		case !xmlWritable(h.result):
			writers = objectWriters[:1] // JSON only
		}
		rt.root = xmlRootOf(h.result)
		rt.statusCoder = h.result.Implements(reflect.TypeFor[StatusCoder]())
		if len(decl.Produces) == 0 {
			rt.produces = writers
		} else {
			rt.explicitProduces = true
			for _, s := range decl.Produces {
				m, err := parseMediaType(s)
				if err != nil {
					fail("produces %q: %v", s, err)
					continue
				}
				i := slices.IndexFunc(writers, func(w representation) bool { return m.includes(w.mediaType) })
				if i < 0 {
					fail("produces %q, but its %s result can only be written as %s", s, h.result, listTypes(writers))
					continue
				}
				rt.produces = append(rt.produces, writers[i])
			}
		}
		for _, p := range rt.produces {
			rt.produceTypes = append(rt.produceTypes, p.mediaType)
		}
	} else if len(decl.Produces) > 0 {
		fail("produces %v, but its handler answers with no body", decl.Produces)
	}

	// Inputs: each path variable in the pattern, and only those, declared.
	wildcards := patternWildcards(decl.Pattern)
	seen := map[string]bool{}
	for _, in := range decl.Inputs {
		if in == nil {
			fail("has a nil input")
			continue
		}
		s := in.spec()
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
		rt.inputs = append(rt.inputs, s)
	}
	for _, w := range wildcards {
		if !seen[inPath+" "+w] {
			fail("path variable {%s} has no declared type; list dispatch.Path[T](%q) in Inputs", w, w)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rt, nil
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

// group is the set of routes that share a method and a pattern; it is what
// the ServeMux dispatches to.
type group struct {
	d          *Dispatcher
	key        string
	pattern    string
	routes     []*route // most specific first
	negotiates bool     // some route writes a negotiated body: Vary: Accept
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

func (g *group) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := w.(*exchange) // the ServeMux is private: every writer is ours
	ex.matched = true
	ex.pattern = g.pattern
	g.d.serve(ex, r, g)
}

// ServeHTTP dispatches the request.
func (d *Dispatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := d.exchanges.Get().(*exchange)
	ex.reset(d, w, r)
	var began time.Time
	if len(d.observers) > 0 {
		began = time.Now()
	}
	if d.alwaysIDs {
		ex.setRequestID(d.ids.forRequest(r))
	} else if v := r.Header[RequestIDHeader]; len(v) == 1 && saneRequestID(v[0]) {
		// Echo the client's own ID; sharing its slice costs nothing. A
		// new ID is made only for a problem document (see requestIDFor).
		ex.requestID = v[0]
		w.Header()[RequestIDHeader] = v
	}
	defer d.finish(ex, r, began)
	d.mux.ServeHTTP(ex, r)
}

// finish recovers a panic into a 500 (or, when the response has begun, an
// aborted connection), reports the request to the observers and returns
// the exchange to the pool.
func (d *Dispatcher) finish(ex *exchange, r *http.Request, began time.Time) {
	p := recover()
	if p != nil && p != http.ErrAbortHandler {
		d.log.Error("handler panicked", "method", r.Method, "path", r.URL.Path,
			"route", ex.routeName(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		if !ex.wroteHeader {
			writeProblem(ex, r, http.StatusInternalServerError, "An unexpected error occurred.", ex.requestIDFor(r))
			p = nil
		} else {
			p = http.ErrAbortHandler // half a response cannot be taken back
		}
	}
	if len(d.observers) > 0 {
		d.observe(ex, r, began)
	}
	ex.release()
	d.exchanges.Put(ex)
	if p != nil {
		panic(p)
	}
}

// serve picks the group's route for the request and runs it.
func (d *Dispatcher) serve(ex *exchange, r *http.Request, g *group) {
	var ctHeader string
	if v := r.Header["Content-Type"]; len(v) > 0 { // the key is canonical: skip Get's canonicalisation
		ctHeader = v[0]
	}
	hasBody := r.ContentLength != 0 || ctHeader != ""
	var ct mediaType
	ctErr := error(nil)
	if ctHeader != "" {
		ct, ctErr = parseMediaType(ctHeader)
	}

	if g.negotiates { // every answer here depends on Accept, errors too
		ex.Header()["Vary"] = varyAccept
	}
	var consumable, acceptable, chosen *route
	negotiated := -1
	var concrete mediaType // the client's type, when a pattern was chosen
	for _, rt := range g.routes {
		if !rt.consumesOK(ct, ctHeader != "" && ctErr == nil, ctHeader != "", hasBody) {
			continue
		}
		consumable = rt
		out := -1
		var typ mediaType
		if len(rt.produces) > 0 {
			ranges, err := ex.acceptRanges(r)
			if err != nil {
				writeProblem(ex, r, http.StatusBadRequest, "Accept header is malformed: "+err.Error()+".", ex.requestIDFor(r))
				return
			}
			if out, typ = negotiateType(ranges, rt.produceTypes); out < 0 {
				continue
			}
		}
		acceptable = rt
		if !rt.paramsHold(r.URL.RawQuery) {
			continue
		}
		chosen, negotiated, concrete = rt, out, typ
		break
	}

	switch {
	case consumable == nil:
		ex.Header().Set("Accept", g.consumableTypes())
		shown := ctHeader
		if shown == "" {
			shown = "application/octet-stream"
		}
		writeProblem(ex, r, http.StatusUnsupportedMediaType, "Content-Type '"+clip(shown)+"' is not supported.", ex.requestIDFor(r))
		return
	case acceptable == nil:
		writeProblem(ex, r, http.StatusNotAcceptable, "Acceptable representations: ["+g.producibleTypes()+"].", ex.requestIDFor(r))
		return
	case chosen == nil:
		writeProblem(ex, r, http.StatusBadRequest, "Parameter conditions "+g.paramConditions()+" not met for the request.", ex.requestIDFor(r))
		return
	}
	ex.route = chosen
	d.run(ex, r, chosen, ct, negotiated, concrete)
}

// run converts the chosen route's inputs, reads its body, calls its handler
// and writes the result.
func (d *Dispatcher) run(ex *exchange, r *http.Request, rt *route, ct mediaType, out int, concrete mediaType) {
	for _, in := range rt.inputs {
		if err := in.validate(r); err != nil {
			d.fail(ex, r, err)
			return
		}
	}
	c := &ex.call
	*c = call{r: r, buf: &ex.out, root: rt.root, json: ex.jsonEncoder(), statusCoder: rt.statusCoder}
	if out >= 0 {
		c.out = rt.produces[out]
		if c.out.contentType == "" { // a pattern: answer in the client's type
			ct := concrete.String()
			if c.out.format == formatXML {
				ct += ";charset=UTF-8"
			}
			c.out.contentType, c.out.contentTypeHeader = ct, []string{ct}
		}
	}
	if rt.decl.Handler.body != nil {
		body, err := ex.readBody(r, d.maxBody)
		if err != nil {
			d.fail(ex, r, err)
			return
		}
		c.body = body
		if i := slices.IndexFunc(rt.consumes, func(rep representation) bool { return rep.mediaType.includes(ct) }); i >= 0 {
			c.in = rt.consumes[i].format
		}
	}
	if err := rt.decl.Handler.run(c); err != nil {
		d.fail(ex, r, err)
		return
	}
	if !c.result {
		ex.WriteHeader(rt.status)
		return
	}
	status := rt.status
	if c.status != 0 {
		status = c.status
	}
	h := ex.Header()
	h["Content-Type"] = c.out.contentTypeHeader // shared and never changed: no allocation
	if ex.out.Len() > smallBody {
		h["Content-Length"] = []string{strconv.Itoa(ex.out.Len())}
	} // else net/http computes it, as the handler returns before its buffer fills
	ex.WriteHeader(status)
	ex.Write(ex.out.Bytes())
}

// fail answers with the problem document that err deserves.
func (d *Dispatcher) fail(ex *exchange, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) && d.classify != nil {
		e = d.classify(err)
	}
	level := slog.LevelWarn // a failure the service knows and has a status for
	if e == nil {
		e = &Error{Status: http.StatusInternalServerError, Err: err}
		level = slog.LevelError
	}
	detail := e.Detail
	if e.Status >= 500 {
		d.log.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path, "route", ex.routeName(), "status", e.Status, "err", err)
		if detail == "" {
			detail = "An unexpected error occurred."
		}
	}
	writeProblem(ex, r, e.Status, detail, ex.requestIDFor(r))
}

func (rt *route) consumesOK(ct mediaType, parsed, hasCT, hasBody bool) bool {
	if len(rt.consumes) == 0 {
		return true
	}
	if !hasCT {
		// No Content-Type counts as application/octet-stream, which no route
		// reads; but a bodiless request to a route with only the default
		// readers goes on, to be told its body is missing.
		return !rt.explicitConsumes && !hasBody
	}
	if !parsed || !supportedCharset(ct.charset) {
		return false
	}
	for _, c := range rt.consumes {
		if c.mediaType.includes(ct) {
			return true
		}
	}
	return false
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

func (g *group) consumableTypes() string {
	var types []string
	for _, rt := range g.routes {
		for _, c := range rt.consumes {
			if s := c.mediaType.String(); !slices.Contains(types, s) {
				types = append(types, s)
			}
		}
	}
	return strings.Join(types, ", ")
}

func (g *group) producibleTypes() string {
	var types []string
	for _, rt := range g.routes {
		for _, p := range rt.produces {
			if s := p.mediaType.String(); !slices.Contains(types, s) {
				types = append(types, s)
			}
		}
	}
	return strings.Join(types, ", ")
}

func (g *group) paramConditions() string {
	var conds []string
	for _, rt := range g.routes {
		if len(rt.params) > 0 {
			conds = append(conds, `"`+strings.Join(rt.decl.Params, ", ")+`"`)
		}
	}
	return strings.Join(conds, " OR ")
}

// clip shortens a client-supplied value quoted in a problem detail.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// readBody reads the whole request body, refusing one over max with 413
// before reading it when its length is declared, and as soon as it passes
// the limit otherwise.
func (ex *exchange) readBody(r *http.Request, max int64) ([]byte, error) {
	if r.ContentLength > max {
		return nil, bodyTooLarge(max)
	}
	ex.in.Reset()
	_, err := ex.in.ReadFrom(http.MaxBytesReader(ex.ResponseWriter, r.Body, max))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, bodyTooLarge(max)
	case err != nil:
		return nil, &Error{Status: http.StatusBadRequest, Detail: "Failed to read the request body.", Err: err}
	}
	return ex.in.Bytes(), nil
}

func bodyTooLarge(max int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge,
		Detail: "Request body is larger than the limit of " + strconv.FormatInt(max, 10) + " bytes."}
}

// xmlWritable reports whether encoding/xml can write values of type t (it
// cannot write maps, for one), judged by writing t's zero value.
func xmlWritable(t reflect.Type) bool {
	var buf bytes.Buffer
	return encode(&buf, nil, formatXML, xmlRootOf(t), reflect.Zero(t).Interface()) == nil
}
