package dispatch

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
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

	// Catalog, when set, lists the dispatcher's routes once it is built.
	Catalog *Catalog

	// Tracer, when set, follows every request in a trace (see Tracer).
	Tracer Tracer

	// ContextPath, when set, is the prefix every route lives under (see
	// ContextPath): it starts with / and does not end with one.
	ContextPath string

	// Guard, when set, decides whether each request may go on to the
	// routes (see Guard): framework/security's rules, when security is
	// on. Nil costs nothing.
	Guard Guard
}

// DefaultMaxBodyBytes is the request-body limit when Options leave it unset.
const DefaultMaxBodyBytes = 1 << 20

// Dispatcher is an http.Handler that serves a checked table of routes.
type Dispatcher struct {
	mux       *http.ServeMux
	groups    map[string]*group // by the pattern registered on mux
	routes    []*route          // in declaration order
	log       *slog.Logger
	maxBody   int64
	classify  func(error) *Error
	observers []func(Observation)
	tracer    Tracer
	ids       *requestIDs
	alwaysIDs bool
	failures  *failureLog // how often failures are logged
	// contextPath is stripped from every path before the ServeMux sees
	// it; "" for none.
	contextPath string
	guard       Guard
	exchanges   sync.Pool
	// crossOrigin refuses state-changing requests that a browser sends
	// from another origin (cors.go).
	crossOrigin *http.CrossOriginProtection
}

// New checks the routes and builds a Dispatcher for them. A misdeclared
// route, or two that the dispatcher could not tell apart, make New fail with
// an error that names every such route.
func New(opts Options, routes ...Route) (*Dispatcher, error) {
	d := &Dispatcher{
		failures:  newFailureLog(),
		mux:       http.NewServeMux(),
		groups:    map[string]*group{},
		log:       opts.Logger,
		maxBody:   opts.MaxBodyBytes,
		classify:  opts.Classify,
		observers: opts.Observers,
		tracer:    opts.Tracer,
		ids:       newRequestIDs(),
		alwaysIDs: opts.RequestIDs,
		guard:     opts.Guard,
		// The deny handler is not used: the dispatcher calls Check, and
		// answers a refusal with its own problem document.
		crossOrigin: http.NewCrossOriginProtection(),
	}
	if opts.ContextPath != "" {
		if !strings.HasPrefix(opts.ContextPath, "/") || strings.HasSuffix(opts.ContextPath, "/") {
			return nil, fmt.Errorf("context path %q: want a path that starts with / and does not end with one", opts.ContextPath)
		}
		d.contextPath = opts.ContextPath
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.maxBody <= 0 {
		d.maxBody = DefaultMaxBodyBytes
	}
	d.exchanges.New = func() any { return new(exchange) }

	var errs []error
	d.routes, errs = compileAll(routes)
	groups, groupErrs := groupRoutes(d.routes)
	errs = append(errs, groupErrs...)
	errs = append(errs, compilePolicies(groups)...)
	for _, g := range groups {
		d.groups[g.key] = g
		if err := register(d.mux, g); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, tableError(errs)
	}
	if opts.Catalog != nil {
		opts.Catalog.add(describe(d.routes))
	}
	return d, nil
}

func tableError(errs []error) error {
	return &TableError{Mistakes: errs}
}

// TableError is New's and Describe's refusal of a route table: mistakes
// in the routes' declarations (a status, an input, a Produces, two routes
// it cannot tell apart), each naming its route. They are the service's
// code, which must change, not its settings; errors.As finds it.
type TableError struct {
	Mistakes []error // one for each misdeclared route or conflict
}

func (e *TableError) Error() string {
	return "invalid route table:\n" + errors.Join(e.Mistakes...).Error()
}

func (e *TableError) Unwrap() []error { return e.Mistakes }

// compileAll compiles every route, collecting every route's mistakes.
func compileAll(routes []Route) ([]*route, []error) {
	var compiled []*route
	var errs []error
	for _, decl := range routes {
		rt, err := compile(decl)
		if err != nil {
			errs = append(errs, fmt.Errorf("route %s: %w", decl, err))
			continue
		}
		compiled = append(compiled, rt)
	}
	return compiled, errs
}

// ServeHTTP is what the ServeMux calls for a request the group matched:
// it writes nothing, and notes the group in the dispatcher's muxWriter, so
// that the dispatcher serves it once the ServeMux returns (see muxWriter)
// without looking it up again by r.Pattern.
func (g *group) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	if m, ok := w.(*muxWriter); ok {
		m.group = g
	}
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

// ServeHTTP serves one request. The ServeMux matches its method and path
// to a group of routes (or answers 404, 405 or a redirect itself, which
// answerUnmatched rewrites); the group chooses a route by the request's
// conditions; the route runs. A panic anywhere becomes a 500.
func (d *Dispatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r = d.startTrace(r)
	ex := d.exchanges.Get().(*exchange)
	ex.w = w
	if len(d.observers) > 0 || d.tracer != nil {
		ex.began = time.Now()
	}
	defer d.finish(ex, r)
	d.identify(ex, r)

	ex.mux = muxWriter{w: w}
	// in is the request the routes see: without the context path. The
	// observers, told of r, see the path the client sent.
	in := r
	if d.contextPath != "" {
		var ok bool
		if in, ok = d.withinContextPath(r); !ok {
			d.answerOutsideContextPath(ex, r)
			return
		}
	}
	if IsPreflight(in) {
		if origin := crossOrigin(in); origin != "" {
			d.answerPreflight(ex, in, origin)
			return
		}
	}
	// After the preflight, which carries no credentials, as Spring
	// Security's CorsFilter answers it before authentication.
	if d.guard != nil {
		var ok bool
		if in, ok = d.guardRequest(ex, r, in); !ok {
			return
		}
	}
	d.mux.ServeHTTP(&ex.mux, in) // sets in.Pattern and the path values
	if ex.mux.code != 0 {
		d.answerUnmatched(ex, in, ex.mux.code)
		return
	}
	g := ex.mux.group // every pattern on the ServeMux is a group's
	ex.pattern = g.pattern
	if !d.admitCrossOrigin(ex, in, g) {
		return
	}
	ch, err := g.choose(ex, in)
	if err != nil {
		d.fail(ex, in, err)
		return
	}
	ex.route = ch.route
	d.execute(ex, in, ch)
}

// identify gives the answer its request ID when every answer needs one,
// and otherwise echoes a client's sane ID; a new ID is then made only for
// a problem document (see exchange.requestIDFor).
func (d *Dispatcher) identify(ex *exchange, r *http.Request) {
	if d.alwaysIDs {
		ex.setRequestID(d.ids.forRequest(r))
	} else if v := r.Header[RequestIDHeader]; len(v) == 1 && saneRequestID(v[0]) {
		ex.requestID = v[0]
		ex.Header()[RequestIDHeader] = v // the client's own slice: no copy
	}
}

// finish recovers a panic into a 500 (or, when the response has begun, an
// aborted connection), reports the request to the observers and returns
// the exchange to the pool.
func (d *Dispatcher) finish(ex *exchange, r *http.Request) {
	p := recover()
	if p != nil && p != http.ErrAbortHandler {
		ex.err = panicked(p)
		// The ID is made (and its header set) before the log line, so that
		// the line carries the ID the client gets.
		id := ex.requestIDFor(r, d.ids)
		if logIt, dropped := d.failures.admit(failureKind{route: ex.routeName(), status: http.StatusInternalServerError, panicked: true}); logIt {
			attrs := append([]any{"method", r.Method, "path", r.URL.Path, "route", ex.routeName(),
				"panic", fmt.Sprint(p), "stack", string(debug.Stack())}, notLogged(dropped)...)
			d.log.ErrorContext(r.Context(), "handler panicked", append(attrs, "request_id", id)...)
		}
		if !ex.wroteHeader {
			// Nothing of what the handler set is true of the problem
			// document, Content-Encoding least of all.
			h := ex.Header()
			vary, idHeader := h["Vary"], h[RequestIDHeader]
			clear(h)
			h["Vary"], h[RequestIDHeader] = vary, idHeader
			writeProblem(ex, r, http.StatusInternalServerError, "An unexpected error occurred.", id, d.traceID(r))
			p = nil
		} else {
			p = http.ErrAbortHandler // half a response cannot be taken back
		}
	}
	if len(d.observers) > 0 || d.tracer != nil {
		observe(d.observers, d.tracer, ex, ex.observed(r))
	}
	ex.release()
	d.exchanges.Put(ex)
	if p != nil {
		panic(p)
	}
}
