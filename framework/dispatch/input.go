package dispatch

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Scalar lists the types a path variable or query parameter converts to.
type Scalar interface {
	int32 | int64 | string | uuid.UUID
}

// Input is a declared path variable or query parameter of a route. The
// dispatcher converts every declared input before the handler runs, so a
// bad or missing one is a 400 that names it and no handler sees it.
type Input interface {
	spec() *inputSpec
}

// Where an input comes from.
const (
	inPath  = "path"
	inQuery = "query"
)

type inputSpec struct {
	name     string
	in       string // inPath or inQuery
	required bool
	typeName string // how the expected type is named to clients
	typ      reflect.Type
	check    func(string) error
}

// Param is a typed path variable or query parameter. Declare it once, list
// it in the route's Inputs, and read it in the handler with Get or Lookup.
type Param[T Scalar] struct {
	s     inputSpec
	parse func(string) (T, error)
}

// Path declares the path variable name, which the route's pattern must
// contain as {name}.
func Path[T Scalar](name string) *Param[T] { return newParam[T](name, inPath, true) }

// Query declares a required query parameter.
func Query[T Scalar](name string) *Param[T] { return newParam[T](name, inQuery, true) }

// OptionalQuery declares a query parameter that may be left out; an empty
// value counts as left out.
func OptionalQuery[T Scalar](name string) *Param[T] { return newParam[T](name, inQuery, false) }

func newParam[T Scalar](name, in string, required bool) *Param[T] {
	p := &Param[T]{s: inputSpec{name: name, in: in, required: required}}
	p.s.typeName, p.parse = parserFor[T]()
	p.s.typ = reflect.TypeFor[T]()
	p.s.check = func(s string) error { _, err := p.parse(s); return err }
	return p
}

func (p *Param[T]) spec() *inputSpec { return &p.s }

// Name returns the parameter's name.
func (p *Param[T]) Name() string { return p.s.name }

// Get returns the converted value, or T's zero value when an optional query
// parameter is absent.
func (p *Param[T]) Get(r *http.Request) (T, error) {
	v, _, err := p.Lookup(r)
	return v, err
}

// Lookup returns the converted value and whether the request carries it.
func (p *Param[T]) Lookup(r *http.Request) (T, bool, error) {
	var zero T
	raw, present, err := p.s.raw(r)
	if err != nil || !present {
		return zero, false, err
	}
	v, err := p.parse(raw)
	if err != nil {
		return zero, false, p.s.conversionError(raw)
	}
	return v, true, nil
}

// raw returns the input's unconverted value. A required input that is absent
// and a query parameter given more than once are errors.
func (s *inputSpec) raw(r *http.Request) (string, bool, error) {
	if s.in == inPath {
		return r.PathValue(s.name), true, nil
	}
	v, n, err := queryValue(r.URL.RawQuery, s.name)
	switch {
	case err != nil:
		return "", false, err
	case n > 1:
		return "", false, badRequest(fmt.Sprintf("Parameter '%s' is given %d times; it takes one value.", s.name, n))
	case n == 0 || (v == "" && !s.required):
		if s.required {
			return "", false, badRequest(fmt.Sprintf("Required parameter '%s' is not present.", s.name))
		}
		return "", false, nil
	}
	return v, true, nil
}

// validate converts the input's value only to see that it converts.
func (s *inputSpec) validate(r *http.Request) error {
	raw, present, err := s.raw(r)
	if err != nil || !present {
		return err
	}
	if s.check(raw) != nil {
		return s.conversionError(raw)
	}
	return nil
}

func (s *inputSpec) conversionError(raw string) *Error {
	if len(raw) > 64 { // enough to recognise the value, not a way to echo a body
		raw = raw[:64] + "…"
	}
	return badRequest(fmt.Sprintf("Failed to convert '%s' with value: '%s' (expected %s).", s.name, raw, s.typeName))
}

func parserFor[T Scalar]() (string, func(string) (T, error)) {
	var zero T
	switch any(zero).(type) {
	case int32:
		return "a 32-bit integer", func(s string) (T, error) {
			n, err := strconv.ParseInt(s, 10, 32)
			return any(int32(n)).(T), err
		}
	case int64:
		return "a 64-bit integer", func(s string) (T, error) {
			n, err := strconv.ParseInt(s, 10, 64)
			return any(n).(T), err
		}
	case uuid.UUID:
		return "a UUID such as 123e4567-e89b-12d3-a456-426614174000", func(s string) (T, error) {
			// Only the canonical 36-character form, as Java's UUID.fromString;
			// uuid.Parse would also take URNs, braces and bare hex.
			if len(s) != 36 {
				return zero, errors.New("not a canonical UUID")
			}
			u, err := uuid.Parse(s)
			return any(u).(T), err
		}
	default: // string
		return "a string", func(s string) (T, error) { return any(s).(T), nil }
	}
}

// queryValue scans a raw query string for name without building a map: it
// returns the first value, how many times the name occurs, and an error for
// a malformed escape in a pair it had to decode.
func queryValue(rawQuery, name string) (value string, count int, err error) {
	for rawQuery != "" {
		var pair string
		pair, rawQuery, _ = strings.Cut(rawQuery, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if strings.ContainsAny(k, "%+") { // rare: most keys have no escapes
			if k, err = url.QueryUnescape(k); err != nil {
				return "", 0, badRequest("Malformed query string.")
			}
		}
		if k != name {
			continue
		}
		count++
		if count == 1 {
			if strings.ContainsAny(v, "%+") {
				if v, err = url.QueryUnescape(v); err != nil {
					return "", 0, badRequest("Malformed query string.")
				}
			}
			value = v
		}
	}
	return value, count, nil
}
