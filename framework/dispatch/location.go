package dispatch

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
)

// Results whose answer names a resource in its Location header: a
// redirect, and a 201 Created. A handler returns one of them as its result
// (Returns, Exchanges); the route's Status says which answer, and New
// checks that the two agree, so that a 3xx never goes out without a
// Location and a Location result never goes out with a 200.
//
// A Location that is a path (it starts with one /) is a path under the
// service, as Spring's RedirectView is context-relative by default
// (redirect:/x): the context path, or the prefix a proxy forwarded, is
// put in front. Anything else, an absolute URL or a network-path
// reference (//host/x), is sent as it is, but for its spaces and bytes
// beyond ASCII, which are percent-encoded (/café is /caf%C3%A9). An empty
// Location, one with a control character (CR or LF would split the
// header), and one starting with \ or /\ (browsers read a backslash as
// a slash, so /\host is another host) are the handler's mistake: a 500,
// never a header.

// Redirect is a result that sends the client to Location with no body, as
// Spring's RedirectView (a controller's "redirect:/x"). The route's Status
// chooses the redirect: 301, 302 (the default, as "redirect:" gives),
// 303, 307 or 308. There is nothing to negotiate: Accept is not read, so
// no Accept is refused with a 406.
type Redirect struct {
	Location string
}

// Created is a result that answers 201 Created with Location naming the
// resource made and Body representing it, as Spring's
// ResponseEntity.created(uri).body(x). The body is negotiated and written
// as a Returns of a T would write it. The route's Status is 0 or 201.
type Created[T any] struct {
	Location string
	Body     T
}

// CreatedAt is a result that answers 201 Created with Location and no
// body, as Spring's ResponseEntity.created(uri).build(). The route's
// Status is 0 or 201.
type CreatedAt struct {
	Location string
}

// locationKind says whether, and how, a route's result answers with a
// Location.
type locationKind uint8

const (
	noLocation locationKind = iota
	redirecting
	creating
)

// located is implemented by the results above (the methods are
// unexported, so by no other type): compile asks a zero value which kind
// it is and what body it carries, and a handler's run asks its result for
// the Location and the body.
type located interface {
	kind() locationKind
	bodyType() reflect.Type // nil when the answer has no body
	location() string
	body() (any, bool) // the body to write; false when there is none
}

func (Redirect) kind() locationKind       { return redirecting }
func (Redirect) bodyType() reflect.Type   { return nil }
func (r Redirect) location() string       { return r.Location }
func (Redirect) body() (any, bool)        { return nil, false }
func (Created[T]) kind() locationKind     { return creating }
func (Created[T]) bodyType() reflect.Type { return reflect.TypeFor[T]() }
func (c Created[T]) location() string     { return c.Location }
func (c Created[T]) body() (any, bool)    { return c.Body, true }
func (CreatedAt) kind() locationKind      { return creating }
func (CreatedAt) bodyType() reflect.Type  { return nil }
func (c CreatedAt) location() string      { return c.Location }
func (CreatedAt) body() (any, bool)       { return nil, false }

var locatedType = reflect.TypeFor[located]()

// locatedResult returns the kind of Location answer a handler's result
// type gives, and the type of its body (nil for none); noLocation and the
// result itself for any other result. A pointer to one of them is
// refused: a nil one would have no Location to send, and the value says
// the same.
func locatedResult(result reflect.Type) (locationKind, reflect.Type, error) {
	if result == nil || !result.Implements(locatedType) {
		return noLocation, result, nil
	}
	if result.Kind() == reflect.Pointer {
		return noLocation, result, fmt.Errorf("returns %s; return %s", result, result.Elem())
	}
	l := reflect.Zero(result).Interface().(located)
	return l.kind(), l.bodyType(), nil
}

// compileStatus checks the route's success status against its result: a
// 3xx only with a Redirect, a Redirect only with a redirect's status, a
// Created or CreatedAt only with 201; any other result with a 2xx. A
// status left 0 is the result's default (302, 201, else 200).
func (rt *route) compileStatus(declared int, result reflect.Type) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch rt.located {
	case redirecting:
		if rt.status == 0 {
			rt.status = http.StatusFound
		}
		switch rt.status {
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		default:
			fail("returns a dispatch.Redirect, so its status must be 301, 302, 303, 307 or 308 (0 means 302), not %d", rt.status)
		}
	case creating:
		if rt.status == 0 {
			rt.status = http.StatusCreated
		}
		if rt.status != http.StatusCreated {
			fail("returns a %s, which answers 201 Created, but declares success status %d", result, declared)
		}
		if rt.result != nil && rt.result.Implements(reflect.TypeFor[StatusCoder]()) {
			fail("returns a %s, which answers 201 Created, but its body chooses its own status (StatusCoder)", result)
		}
	default:
		if rt.status == 0 {
			rt.status = http.StatusOK
		}
		switch {
		case rt.status >= 300 && rt.status <= 399 && result == nil:
			fail("success status %d is a redirect, but its handler answers with no Location; return a dispatch.Redirect", rt.status)
		case rt.status >= 300 && rt.status <= 399:
			fail("success status %d is a redirect, but its handler returns %s, not a dispatch.Redirect", rt.status, result)
		case rt.status < 200 || rt.status > 299:
			fail("success status %d is not a 2xx status", rt.status)
		}
	}
	return errs
}

// writeLocated answers with a Redirect, Created or CreatedAt result: the
// Location among the response headers, and the body when there is one
// (else execute sends the status alone).
func writeLocated(c *call, l located) error {
	loc, err := c.resolveLocation(l.location())
	if err != nil {
		return err
	}
	c.req.ResponseHeader()["Location"] = []string{loc}
	v, ok := l.body()
	if !ok {
		return nil
	}
	c.wrote = true
	if c.out.raw {
		c.buf.Write(v.([]byte))
		return nil
	}
	if s, isString := v.(string); isString && c.out.format == FormatText {
		c.buf.WriteString(s)
		return nil
	}
	return encode(c.buf, c.json, c.out.format, c.root, v)
}

// resolveLocation checks a result's Location and puts the context path in
// front of a path under the service.
func (c *call) resolveLocation(loc string) (string, error) {
	if loc == "" {
		return "", &Error{Status: http.StatusInternalServerError,
			Err: fmt.Errorf("route %s answered a %d with an empty Location", c.req.route.name, c.req.route.status)}
	}
	if i := strings.IndexFunc(loc, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		return "", &Error{Status: http.StatusInternalServerError,
			Err: fmt.Errorf("route %s answered a %d with a Location holding a control character at byte %d: %q", c.req.route.name, c.req.route.status, i, Clip(loc))}
	}
	if strings.HasPrefix(loc, `\`) || strings.HasPrefix(loc, `/\`) {
		// A browser reads \ as / in an http URL: /\evil.example is
		// //evil.example, another host. No service means a backslash
		// there, so none is sent, rather than guessing which it meant.
		return "", &Error{Status: http.StatusInternalServerError,
			Err: fmt.Errorf("route %s answered a %d with a Location starting with a backslash, which browsers read as a slash (/\\host is another host): %q", c.req.route.name, c.req.route.status, Clip(loc))}
	}
	loc = encodeLocation(loc)
	if loc[0] == '/' && !strings.HasPrefix(loc, "//") {
		if base := ContextPath(c.req.Request); base != "" {
			loc = base + loc
		}
	}
	return loc, nil
}

// encodeLocation percent-encodes the spaces and the bytes beyond ASCII
// of a Location, which a URI cannot hold (RFC 3986 §2), as a browser
// does with a link; what else it holds, a % escape included, is left as
// the handler wrote it.
func encodeLocation(loc string) string {
	i := strings.IndexFunc(loc, func(r rune) bool { return r == ' ' || r >= 0x80 })
	if i < 0 {
		return loc
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(loc) + 16)
	b.WriteString(loc[:i])
	for j := i; j < len(loc); j++ {
		if c := loc[j]; c == ' ' || c >= 0x80 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
