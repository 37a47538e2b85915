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
// dispatcher converts every declared input once, before the handler runs,
// so a bad or missing one is a 400 that names it and no handler sees it;
// the handler reads the converted value with Param.Get.
type Input interface {
	spec() *inputSpec
}

// Where an input comes from.
const (
	inPath  = "path"
	inQuery = "query"
)

// kind is the Scalar an input converts to.
type kind uint8

const (
	kindInt32 kind = iota
	kindInt64
	kindString
	kindUUID
)

type inputSpec struct {
	name        string
	in          string // inPath or inQuery
	required    bool
	kind        kind
	typ         reflect.Type
	description string // for the route's description; may be empty
	hasMin      bool   // an integer input's least value is min
	min         int64
	// def is an optional query parameter's value when the request
	// leaves it out, when hasDefault (querydefault.go); defaultValue is
	// the same as a T, for the route's description.
	hasDefault   bool
	def          inputValue
	defaultValue any
	page         *pageSpec // a Pageable's (pageable.go); nil for a parameter
	// checks are its constraints beyond Min (inputcheck.go).
	checks inputRules
}

// inputValue is one converted input of a request. The field that holds it
// depends on the input's kind; a union rather than an interface, so that
// converting allocates nothing.
type inputValue struct {
	present bool
	integer int64
	text    string
	id      uuid.UUID
	page    *PageRequest // a Pageable's
}

// Param is a typed path variable or query parameter. Declare it once, list
// it in the Inputs of the routes that take it, and read it in their
// handlers with Get or Lookup.
type Param[T Scalar] struct {
	s    inputSpec
	from func(inputValue) T
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
	p := &Param[T]{s: inputSpec{name: name, in: in, required: required, typ: reflect.TypeFor[T]()}}
	var zero T
	switch any(zero).(type) {
	case int32:
		p.s.kind = kindInt32
		p.from = func(v inputValue) T { return any(int32(v.integer)).(T) }
	case int64:
		p.s.kind = kindInt64
		p.from = func(v inputValue) T { return any(v.integer).(T) }
	case uuid.UUID:
		p.s.kind = kindUUID
		p.from = func(v inputValue) T { return any(v.id).(T) }
	default: // string
		p.s.kind = kindString
		p.from = func(v inputValue) T { return any(v.text).(T) }
	}
	return p
}

func (p *Param[T]) spec() *inputSpec { return &p.s }

// Describe sets what the parameter means, for the routes' descriptions
// (the OpenAPI document), and returns p.
func (p *Param[T]) Describe(meaning string) *Param[T] {
	p.s.description = meaning
	return p
}

// Min sets the least value of an integer parameter and returns p. The
// dispatcher answers a smaller one with a 400 that names the parameter and
// the bound, before the handler runs, and the OpenAPI document gives the
// bound as the parameter's minimum, so that the document says what the
// service refuses. New refuses a route whose parameter with a minimum is
// not an integer.
func (p *Param[T]) Min(least int64) *Param[T] {
	p.s.hasMin, p.s.min = true, least
	return p
}

// Name returns the parameter's name.
func (p *Param[T]) Name() string { return p.s.name }

// Get returns the converted value, or, when an optional query parameter
// is absent, its Default or T's zero value.
func (p *Param[T]) Get(r *Request) T {
	v, _ := p.Lookup(r)
	return v
}

// Lookup returns the converted value and whether the request carries it.
// It panics when the route serving r does not declare p: a handler may
// read only the inputs its route declares, which the dispatcher has
// converted.
func (p *Param[T]) Lookup(r *Request) (T, bool) {
	v := r.input(&p.s)
	return p.from(v), v.present
}

// convert reads the input from r and converts it. A required input that is
// absent, a query parameter given more than once and a value that does not
// convert are errors whose details name the input.
func (s *inputSpec) convert(r *http.Request) (inputValue, error) {
	raw, present, err := s.raw(r)
	if err != nil || !present {
		if err == nil && s.hasDefault {
			return s.def, nil
		}
		return inputValue{}, err
	}
	v := inputValue{present: true}
	switch s.kind {
	case kindInt32:
		v.integer, err = strconv.ParseInt(raw, 10, 32)
	case kindInt64:
		v.integer, err = strconv.ParseInt(raw, 10, 64)
	case kindUUID:
		v.id, err = parseUUID(raw)
	default:
		v.text = raw
	}
	if err != nil {
		return inputValue{}, s.conversionError(raw)
	}
	if s.hasMin && v.integer < s.min {
		return inputValue{}, s.legacyFault(fmt.Sprintf("Parameter '%s' must be %d or more, not %d.", s.name, s.min, v.integer),
			fmt.Sprintf("must be greater than or equal to %d", s.min))
	}
	return v, s.checkValue(v)
}

// parseUUID takes only the canonical 36-character form, as Java's
// UUID.fromString does; uuid.Parse alone would also take URNs, braces and
// bare hex.
func parseUUID(s string) (uuid.UUID, error) {
	if len(s) != 36 {
		return uuid.UUID{}, errors.New("not a canonical UUID")
	}
	return uuid.Parse(s)
}

// raw returns the input's unconverted value.
func (s *inputSpec) raw(r *http.Request) (string, bool, error) {
	if s.in == inPath {
		return r.PathValue(s.name), true, nil
	}
	v, n, err := queryValue(r.URL.RawQuery, s.name)
	switch {
	case err != nil:
		return "", false, err
	case n > 1:
		// Spring joins repeated values with commas, which turns two
		// integers into a conversion error at best; saying so is clearer.
		return "", false, s.legacyFault(fmt.Sprintf("Parameter '%s' is given %d times; it takes one value.", s.name, n),
			fmt.Sprintf("must be given once, not %d times", n))
	case n == 0 || (v == "" && !s.required):
		if s.required {
			return "", false, s.legacyFault(fmt.Sprintf("Required parameter '%s' is not present.", s.name), msgNull)
		}
		return "", false, nil
	}
	return v, true, nil
}

func (s *inputSpec) conversionError(raw string) *paramFault {
	return s.legacyFault(fmt.Sprintf("Failed to convert '%s' with value: '%s' (expected %s).", s.name, Clip(raw), s.kind.describe()),
		fmt.Sprintf("must be %s, not '%s'", s.kind.describe(), Clip(raw)))
}

// describe names the type a kind converts to, as problem details show it.
func (k kind) describe() string {
	switch k {
	case kindInt32:
		return "a 32-bit integer"
	case kindInt64:
		return "a 64-bit integer"
	case kindUUID:
		return "a UUID such as 123e4567-e89b-12d3-a456-426614174000"
	}
	return "a string"
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
