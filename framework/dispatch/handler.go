package dispatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
)

// Handler is a route's action. Build a typed one with Returns, Accepts,
// Exchanges or Runs: the type parameters tell the dispatcher which body the
// route reads and what it writes, so both are known, and checked, before
// any request arrives. Plain makes one of an http.Handler that reads and
// writes for itself.
type Handler struct {
	body   reflect.Type // the body's type; nil when the action takes no body
	result reflect.Type // the result's type; nil when success has no body
	run    func(c *call) error
	plain  http.Handler
}

// Request is a request as a typed handler sees it: the HTTP request, and
// the inputs its route declares, converted (read them with Param.Get). The
// dispatcher reuses it once the handler returns, so a handler must not keep
// it.
type Request struct {
	*http.Request
	route  *route
	inputs []inputValue // parallel to route.inputs
	call   *call
}

// ResponseType returns the Content-Type negotiated for a successful
// answer, for a handler whose result's shape depends on it, as the
// versions of Spring's actuator types do.
func (r *Request) ResponseType() string { return r.call.out.contentType }

// ResponseHeader returns the headers that a successful answer carries
// besides its Content-Type, for the handler to set: a download's
// Content-Disposition. A failure's problem document does not carry them,
// as a Stream's Header.
func (r *Request) ResponseHeader() http.Header {
	if r.call.header == nil {
		r.call.header = http.Header{}
	}
	return r.call.header
}

// input returns the converted value of the input s.
func (r *Request) input(s *inputSpec) inputValue {
	for i, in := range r.route.inputs {
		if in == s {
			return r.inputs[i]
		}
	}
	panic(fmt.Sprintf("dispatch: the handler of route %s reads %s parameter %q, which the route does not declare in Inputs", r.route.name, s.in, s.name))
}

// StatusCoder is implemented by results that choose their own success or
// failure status while keeping their representation, as a health report
// that is DOWN answers 503 with its body (Spring's ResponseEntity).
type StatusCoder interface {
	StatusCode() int
}

// validator is implemented by body types that check themselves after
// decoding, and after the constraints their tags declare hold; a failure
// is a 400 whose detail carries the error's text.
type validator interface{ Validate() error }

// call is what a typed handler's run needs from one request, and what it
// leaves for the dispatcher to write.
type call struct {
	req  *Request
	body []byte // the whole request body, when the route reads one
	in   Format // the body's format

	buf         *bytes.Buffer  // the result, encoded
	json        *json.Encoder  // writes into buf
	out         representation // the negotiated representation
	root        xmlRoot
	statusCoder bool // the result type chooses its status
	located     locationKind

	wrote  bool        // run encoded a result into buf
	status int         // the status the result chose; 0 for the route's
	header http.Header // a Stream's headers, sent with its first bytes

	ex       *exchange // where buf goes, for a Stream that sends as it goes
	okStatus int       // the route's success status

	// faults are the parameters' faults, reported with the body's
	// violations; nil when the parameters are fine.
	faults []*paramFault
}

// head sends the status line and headers of a successful result: the
// negotiated Content-Type, the result's own headers, and the body's
// length when it is known (n >= 0) and net/http would not compute it.
func (c *call) head(n int) {
	h := c.ex.Header()
	h["Content-Type"] = c.out.contentTypeHeader // shared and never changed: no allocation
	for k, v := range c.header {
		h[k] = v
	}
	if n > smallBody {
		h["Content-Length"] = []string{strconv.Itoa(n)}
	} // else net/http computes it, as the handler returns before its buffer fills
	status := c.okStatus
	if c.status != 0 {
		status = c.status
	}
	c.ex.WriteHeader(status)
}

// flush sends what buf holds and empties it, sending the head first if
// it has not gone yet: a Stream's body, piece by piece. It fails with
// errClientGone when the connection no longer takes the bytes.
func (c *call) flush() error {
	if !c.ex.wroteHeader {
		c.head(-1)
	}
	_, err := c.ex.Write(c.buf.Bytes())
	c.buf.Reset()
	if err != nil {
		return fmt.Errorf("%w: %w", errClientGone, err)
	}
	return nil
}

// errClientGone ends a Stream whose client stopped reading: nothing is
// wrong with the service, so it is not logged as a failure.
var errClientGone = errors.New("the client is gone")

// Returns builds a handler that takes no body and answers with a value.
func Returns[T any](fn func(r *Request) (T, error)) Handler {
	return Handler{result: reflect.TypeFor[T](), run: func(c *call) error {
		v, err := fn(c.req)
		if err != nil {
			return err
		}
		return writeResult(c, v)
	}}
}

// Accepts builds a handler that reads a B body and answers with no body.
//
// A B that implements json.Unmarshaler is given the whole JSON body as it
// came, without encoding/json's validation pass first, and must itself
// refuse what is not valid JSON (json.Unmarshal inside it does).
func Accepts[B any](fn func(r *Request, body B) error) Handler {
	return Handler{body: reflect.TypeFor[B](), run: func(c *call) error {
		b, err := readBody[B](c)
		if err != nil {
			return err
		}
		return fn(c.req, b)
	}}
}

// Exchanges builds a handler that reads a B body and answers with a T.
func Exchanges[B, T any](fn func(r *Request, body B) (T, error)) Handler {
	return Handler{body: reflect.TypeFor[B](), result: reflect.TypeFor[T](), run: func(c *call) error {
		b, err := readBody[B](c)
		if err != nil {
			return err
		}
		v, err := fn(c.req, b)
		if err != nil {
			return err
		}
		return writeResult(c, v)
	}}
}

// Runs builds a handler that takes no body and answers with no body.
func Runs(fn func(r *Request) error) Handler {
	return Handler{run: func(c *call) error { return fn(c.req) }}
}

// Plain makes a route of an http.Handler that reads the request and writes
// the response itself, as chi's Mount does: the dispatcher still chooses
// the route by its conditions (406 when the client accepts none of its
// Produces), observes it and recovers its panics, but converts nothing.
func Plain(h http.Handler) Handler {
	return Handler{plain: h}
}

func readBody[B any](c *call) (B, error) {
	var b B
	if err := decode(c.body, c.in, &b); err != nil {
		return b, c.orFaults(err)
	}
	if c.req.route.checks != nil || c.faults != nil {
		if err := checkBody(c, &b); err != nil {
			return b, err
		}
	}
	if v, ok := any(&b).(validator); ok {
		if err := v.Validate(); err != nil {
			return b, badRequest("Invalid request body: " + err.Error() + ".")
		}
	}
	return b, nil
}

func writeResult[T any](c *call, v T) error {
	if c.located != noLocation {
		return writeLocated(c, any(v).(located))
	}
	c.wrote = true
	if c.out.format == FormatText && !c.statusCoder && !c.out.raw {
		// A string is written as it is: the conversion below does not
		// escape, so a text result is not boxed on the heap.
		if s, ok := any(v).(string); ok {
			c.buf.WriteString(s)
			return nil
		}
	}
	av := any(v) // boxed once, for both uses
	if c.statusCoder {
		c.status = av.(StatusCoder).StatusCode()
	}
	if c.out.raw {
		c.buf.Write(av.([]byte))
		return nil
	}
	return encode(c.buf, c.json, c.out.format, c.root, av)
}
