package dispatch

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// Error is a failure with the HTTP status it deserves. Detail is shown to
// the client; Err, when set, is only logged. Violations, when set, are
// listed in the problem document's errors member (see Invalid).
type Error struct {
	Status int
	Detail string
	Err    error
	// Kind names the kind of failure for the observers, as Spring names
	// one by its exception's class: the metrics' exception tag. A fixed
	// name ("IndexOutOfBoundsException"), never text of the error's, so
	// that the tag's values stay few; see errorkind.go. Empty: the
	// observers name it by the error's type.
	Kind string
	// Violations, when set, are the problem document's errors member:
	// what is wrong with the request's content (see Invalid).
	Violations []Violation
}

func (e *Error) Error() string {
	s := e.Detail
	if len(e.Violations) > 0 {
		s += " (" + describeViolations(e.Violations) + ")"
	}
	if e.Err != nil {
		return s + ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

func badRequest(detail string) *Error {
	return &Error{Status: http.StatusBadRequest, Detail: detail}
}

// Clip shortens a value that a client sent, for quoting it in a problem
// detail: enough to recognise it, never a way to echo a whole body back.
func Clip(s string) string {
	const limit = 64
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// problem is an RFC 9457 problem document. Spring Boot answers errors with
// {"timestamp","status","error","path"} by default; a problem document says
// the same in a standard shape, with a detail a client can act on.
type problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance"`
	// Errors lists what is wrong with the request's content, each
	// violation once (RFC 9457 §3's example); absent when none is.
	Errors []Violation `json:"errors,omitempty"`
	// RequestID ties the answer to the server's log (an extension member).
	RequestID string `json:"requestId,omitempty"`
	// TraceID names the request's distributed trace, for a tracing
	// backend (an extension member); absent when it is in none.
	TraceID string `json:"traceId,omitempty"`
}

// WriteProblem answers with a problem document of status and detail, as
// a route's failure is answered: for what refuses a request before any
// route sees it (framework/server's bound on requests handled at once).
func WriteProblem(w http.ResponseWriter, r *http.Request, status int, detail string) {
	writeProblem(w, r, status, detail, "", "")
}

// writeProblem answers with a problem document, whatever the client's
// Accept says: an error is better reported in a type the client did not ask
// for than not at all (Spring does the same).
func writeProblem(w http.ResponseWriter, r *http.Request, status int, detail, requestID, traceID string, violations ...Violation) {
	instance := escapedPath(r)
	if instance == "" { // CONNECT's authority form (host:port) has no path
		instance = Clip(r.RequestURI)
	}
	var buf bytes.Buffer
	if err := newJSONEncoder(&buf).Encode(problem{
		Type:      "about:blank",
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Instance:  instance,
		Errors:    violations,
		RequestID: requestID,
		TraceID:   traceID,
	}); err != nil { // cannot happen for these field types
		buf.Reset()
		buf.WriteString(`{"type":"about:blank","status":500}`)
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// fail answers with the problem document that err deserves: its own status
// when it is an *Error, else the one Options.Classify gives it, else 500.
// A 5xx is logged with the error; its internal text never reaches the
// client.
func (d *Dispatcher) fail(ex *exchange, r *http.Request, err error) {
	ex.err = err
	var e *Error
	if !errors.As(err, &e) && d.classify != nil {
		if e = d.classify(err); e != nil && e.Kind != "" {
			ex.err = &classified{as: e, err: err}
		}
	}
	level := slog.LevelWarn // a failure the service knows and has a status for
	if e == nil {
		e = &Error{Status: http.StatusInternalServerError, Err: err}
		level = slog.LevelError
	}
	if ex.wroteHeader {
		// A Stream failed after its first bytes went: its status line
		// cannot be taken back, and a problem document appended to half
		// a list would be read as part of it. The connection is closed,
		// so that the client sees a cut response, and the failure is
		// logged unless it is the client's own leaving.
		if !errors.Is(err, errClientGone) && r.Context().Err() == nil {
			d.logFailure(ex, r, level, e.Status, err)
		}
		panic(http.ErrAbortHandler)
	}
	if e.Status == http.StatusUnsupportedMediaType && ex.Header().Get("Accept") == "" {
		// A 415 for the body's Content-Encoding or XML charset, rather
		// than its type: the types the path reads are as true here.
		if g := d.groups[r.Pattern]; g != nil {
			ex.Header().Set("Accept", g.readable)
		}
	}
	detail := e.Detail
	if e.Status >= 500 {
		d.logFailure(ex, r, level, e.Status, err)
		if detail == "" {
			detail = "An unexpected error occurred."
		}
	} else if d.log.Enabled(r.Context(), slog.LevelDebug) {
		d.logRefusal(ex, r, e.Status, detail)
	}
	writeProblem(ex, r, e.Status, detail, ex.requestIDFor(r, d.ids), d.traceID(r), e.Violations...)
}

// logRefusal logs, at DEBUG, a request refused with a 4xx: the client's
// doing rather than a failure of the service, so it is not logged
// otherwise, but an operator chasing a client's 400s can turn it on and
// see why each was refused, with the ID the client got. The detail is
// what the client was told; the error's own text may be internal, and is
// left out.
func (d *Dispatcher) logRefusal(ex *exchange, r *http.Request, status int, detail string) {
	d.log.LogAttrs(r.Context(), slog.LevelDebug, "request refused",
		slog.String("method", r.Method), slog.String("path", fullPath(r)), slog.String("route", ex.routeName()),
		slog.Int("status", status), slog.String("detail", detail), slog.String("request_id", ex.requestIDFor(r, d.ids)))
}

// logFailure logs a request that failed with status, unless the flood
// limiter says that enough like it were logged this second.
func (d *Dispatcher) logFailure(ex *exchange, r *http.Request, level slog.Level, status int, err error) {
	// The ID is made before the log line so that the line carries the one
	// the client gets; a 4xx is not logged, so only a failure pays for it.
	id := ex.requestIDFor(r, d.ids)
	if logIt, dropped := d.failures.admit(failureKind{route: ex.routeName(), status: status}); logIt {
		attrs := append([]any{"method", r.Method, "path", fullPath(r), "route", ex.routeName(),
			"status", status, "error", err}, notLogged(dropped)...)
		d.log.Log(r.Context(), level, "request failed", append(attrs, "request_id", id)...)
	}
}
