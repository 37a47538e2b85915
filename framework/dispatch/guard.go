package dispatch

import "net/http"

// Guard decides whether a request may go on to the routes, as Spring
// Security's filter chain does in front of a Spring MVC dispatcher: it
// runs before a route is chosen, on the request as the routes see it
// (without the context path), so that an unauthenticated request for a
// path that does not exist is refused as one for a path that does.
//
// It returns the request to go on with (its context may carry the
// principal, which the observers then see too), or an error that the
// dispatcher answers as it answers a handler's: an *Error's status and
// detail in a problem document, with the headers the guard set on w
// (WWW-Authenticate, for one). requestID gives the ID the client gets,
// for a log line about the refusal.
type Guard func(w http.ResponseWriter, r *http.Request, requestID func() string) (*http.Request, error)

// guard runs d.guard on in, the request the routes see. It reports
// whether the request may go on, and with which request; when it may
// not, the answer is written.
func (d *Dispatcher) guardRequest(ex *exchange, r, in *http.Request) (*http.Request, bool) {
	guarded, err := d.guard(ex, in, func() string { return ex.requestIDFor(r, d.ids) })
	if err != nil {
		d.fail(ex, in, err)
		return nil, false
	}
	if guarded != nil && guarded.Context() != in.Context() {
		ex.guarded = guarded.Context()
		in = guarded
	}
	return in, true
}

// observed is the request the observers are told of: r, with the
// context the guard gave it.
func (ex *exchange) observed(r *http.Request) *http.Request {
	if ex.guarded == nil {
		return r
	}
	return r.WithContext(ex.guarded)
}
