package dispatch

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
)

// Route declares one endpoint: what requests it takes and what it does.
type Route struct {
	Method  string // GET, POST, PUT, DELETE, PATCH…; GET routes answer HEAD too
	Pattern string // a ServeMux path pattern without method or host: "/api/hello/{id}"

	// Params are request-parameter conditions in Spring's syntax: "p", "!p",
	// "p=v", "p!=v". All must hold for the route to be chosen.
	Params []string

	// Consumes narrows the body types the route reads. By default a route
	// whose handler takes a body reads JSON and XML; one that takes none
	// reads nothing.
	Consumes []string

	// Produces narrows the types the route writes. By default an object is
	// written as JSON or XML and a string as plain text.
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

	Handler Handler
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

// Handler is a route's typed action. Build one with Returns, Accepts,
// Exchanges or Runs: the type parameters tell the dispatcher which bodies
// the route reads and which representations it writes, so both are known,
// and checked, before any request arrives.
type Handler struct {
	body   reflect.Type // the body's type; nil when the action takes no body
	result reflect.Type // the result's type; nil when success has no body
	run    func(c *call) error
}

// call is what a handler's run needs from one request.
type call struct {
	r      *http.Request
	body   []byte // the whole request body, when the route takes one
	in     format // the body's format
	buf    *bytes.Buffer
	out    representation // the negotiated representation, when there is a result
	root   xmlRoot
	json   *json.Encoder // writes into buf
	result bool          // run wrote a result into buf
	status int           // a status the result chose (StatusCoder); 0 for the route's

	statusCoder bool // the result type implements StatusCoder
}

// StatusCoder is implemented by results that choose their own success or
// failure status while keeping their representation, as a health report
// that is DOWN answers 503 with its body (Spring's ResponseEntity).
type StatusCoder interface {
	StatusCode() int
}

// validator is implemented by body types that check themselves after
// decoding; a failure is a 400 whose detail carries the error's text.
type validator interface{ Validate() error }

func decodeInto[B any](c *call) (B, error) {
	var b B
	if err := decode(c.body, c.in, &b); err != nil {
		return b, err
	}
	if v, ok := any(&b).(validator); ok {
		if err := v.Validate(); err != nil {
			return b, badRequest("Invalid request body: " + err.Error() + ".")
		}
	}
	return b, nil
}

func encodeResult[T any](c *call, v T) error {
	c.result = true
	av := any(v) // boxed once, for both uses
	if c.statusCoder {
		c.status = av.(StatusCoder).StatusCode()
	}
	return encode(c.buf, c.json, c.out.format, c.root, av)
}

// Returns builds a handler that takes no body and answers with a value.
func Returns[T any](fn func(r *http.Request) (T, error)) Handler {
	return Handler{result: typeOf[T](), run: func(c *call) error {
		v, err := fn(c.r)
		if err != nil {
			return err
		}
		return encodeResult(c, v)
	}}
}

// Accepts builds a handler that reads a B body and answers with no body.
//
// A B that implements json.Unmarshaler is given the whole JSON body as it
// came, without encoding/json's validation pass first, and must itself
// refuse what is not valid JSON (json.Unmarshal inside it does).
func Accepts[B any](fn func(r *http.Request, body B) error) Handler {
	return Handler{body: typeOf[B](), run: func(c *call) error {
		b, err := decodeInto[B](c)
		if err != nil {
			return err
		}
		return fn(c.r, b)
	}}
}

// Exchanges builds a handler that reads a B body and answers with a T.
func Exchanges[B, T any](fn func(r *http.Request, body B) (T, error)) Handler {
	return Handler{body: typeOf[B](), result: typeOf[T](), run: func(c *call) error {
		b, err := decodeInto[B](c)
		if err != nil {
			return err
		}
		v, err := fn(c.r, b)
		if err != nil {
			return err
		}
		return encodeResult(c, v)
	}}
}

// Runs builds a handler that takes no body and answers with no body.
func Runs(fn func(r *http.Request) error) Handler {
	return Handler{run: func(c *call) error { return fn(c.r) }}
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }
