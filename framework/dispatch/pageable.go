package dispatch

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// A Pageable input reads the page a client asks for from three query
// parameters, as Spring Data's PageableHandlerMethodArgumentResolver
// does: page (the page's number), size (how many items a page has) and
// sort, repeatable, each value one or more properties, then optionally a
// direction (asc or desc, in any case) and ignorecase, comma-separated:
// sort=name sorts by name ascending, sort=name,created,desc by both
// descending, sort=name,desc,ignorecase by name descending ignoring case.
// Their names and the sizes are the route's Paging's.
//
// Where Spring quietly serves something else, the dispatcher answers 400
// naming the parameter: a page or a size that is not an integer, a page
// below the first, a size below 1, and a sort property the route does not
// allow (Spring hands any property to the store, which fails with a 500
// or sorts by a column the client should not see). A size above the
// largest is served at the largest, as Spring does. An empty value counts
// as absent, as in Spring. A property sorted by twice is sorted by once,
// the first time. These faults are listed beside the request's others
// (every fault at once); the only one, it has its sentence as detail.

// PageRequest is the page a request asks for (Spring's Pageable).
type PageRequest struct {
	// Number is the page's number, zero-based even when the route's
	// Paging makes requests count from one.
	Number int
	// Size is how many items a page has: from 1 to the largest size.
	Size int
	// Sort is the order asked for, or the Pageable's default sort; empty
	// for none.
	Sort []Order
}

// Offset is the number of items before the page: Number × Size.
func (p PageRequest) Offset() int { return p.Number * p.Size }

// Order is one property to sort by (Spring's Sort.Order).
type Order struct {
	Property   string
	Descending bool
	IgnoreCase bool
}

// String writes o as a sort parameter's value: name,asc or
// name,desc,ignorecase.
func (o Order) String() string {
	s := o.Property + ",asc"
	if o.Descending {
		s = o.Property + ",desc"
	}
	if o.IgnoreCase {
		s += ",ignorecase"
	}
	return s
}

// PageParams is a declared Pageable input. Declare it once, list it in
// the Inputs of the routes that take it, and read it in their handlers
// with Get.
type PageParams struct {
	s inputSpec
}

// pageSpec is what a Pageable declares, whatever the route's Paging.
type pageSpec struct {
	properties  []string
	defaultSort []Order
	defaultSize int    // 0: the Paging's
	qualifier   string // "" for none
}

// Pageable declares the page, size and sort query parameters of a route
// whose result is a page of items. properties are what a client may sort
// by; sorting by any other is a 400 that names the ones allowed. With
// none, the route takes no sort.
func Pageable(properties ...string) *PageParams {
	p := &PageParams{}
	p.s = inputSpec{in: inQuery, name: "pageable", page: &pageSpec{properties: slices.Clone(properties)}}
	return p
}

func (p *PageParams) spec() *inputSpec { return &p.s }

// DefaultSort sets the order of a request that asks for none (Spring's
// @SortDefault, or @PageableDefault's sort) and returns p. New refuses a
// route whose default sorts by a property p does not allow.
func (p *PageParams) DefaultSort(orders ...Order) *PageParams {
	p.s.page.defaultSort = slices.Clone(orders)
	return p
}

// DefaultSize sets the size of a page when the request names none, in
// place of the Paging's, and returns p (@PageableDefault's size). New
// refuses a route whose default is above its Paging's largest size.
func (p *PageParams) DefaultSize(size int) *PageParams {
	p.s.page.defaultSize = size
	return p
}

// Qualifier prefixes the parameters' names with q and the Paging's
// qualifier delimiter (q_page, q_size, q_sort), so that a route can take
// two pages (Spring's @Qualifier on a Pageable), and returns p.
func (p *PageParams) Qualifier(q string) *PageParams {
	p.s.page.qualifier = q
	return p
}

// Get returns the page that the request asks for. It panics when the
// route serving r does not declare p.
func (p *PageParams) Get(r *Request) PageRequest {
	v := r.input(&p.s)
	return *v.page
}

// read reads the page that r asks for. What is wrong with its three
// parameters is one parameter fault listing each (addFault), so that it
// is reported beside the other inputs' and the body's; alone, a fault
// keeps the answer naming its parameter that it always had.
func (pg *pager) read(r *http.Request) (inputValue, error) {
	query := r.URL.RawQuery
	var fault *paramFault
	page := &PageRequest{Size: pg.defaultSize}
	number, present, err := pg.integer(query, pg.page)
	switch {
	case err != nil:
		if fault, err = joinFault(fault, err); err != nil {
			return inputValue{}, err
		}
	case present && number < int64(pg.first):
		fault, _ = joinFault(fault, legacyFault(pg.page, fmt.Sprintf("Parameter '%s' must be %d or more, not %d.", pg.page, pg.first, number),
			fmt.Sprintf("must be greater than or equal to %d", pg.first)))
	case present:
		page.Number = int(number) - pg.first
	}
	size, present, err := pg.integer(query, pg.size)
	switch {
	case err != nil:
		if fault, err = joinFault(fault, err); err != nil {
			return inputValue{}, err
		}
	case present && size < 1:
		fault, _ = joinFault(fault, legacyFault(pg.size, fmt.Sprintf("Parameter '%s' must be 1 or more, not %d.", pg.size, size),
			"must be greater than or equal to 1"))
	case present:
		page.Size = int(min(size, int64(pg.maxSize)))
	}
	if page.Sort, err = pg.readSort(query); err != nil {
		if fault, err = joinFault(fault, err); err != nil {
			return inputValue{}, err
		}
	}
	if fault != nil {
		return inputValue{}, fault
	}
	return inputValue{present: true, page: page}, nil
}

// joinFault adds err, a parameter's fault, to f, the faults found so far
// (nil for none). An error that is no parameter's own is returned.
func joinFault(f *paramFault, err error) (*paramFault, error) {
	var g *paramFault
	if !errors.As(err, &g) {
		return f, err
	}
	if f == nil {
		return g, nil
	}
	// Two faults: listed, each with its own violation, as any two are.
	return &paramFault{violations: slices.Concat(f.violations, g.violations)}, nil
}

// integer reads the 32-bit integer parameter name (as Spring's int);
// an empty one is absent.
func (pg *pager) integer(query, name string) (int64, bool, error) {
	v, n, err := queryValue(query, name)
	switch {
	case err != nil:
		return 0, false, err
	case n > 1:
		return 0, false, legacyFault(name, fmt.Sprintf("Parameter '%s' is given %d times; it takes one value.", name, n),
			fmt.Sprintf("must be given once, not %d times", n))
	case n == 0 || v == "":
		return 0, false, nil
	}
	i, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false, legacyFault(name, fmt.Sprintf("Failed to convert '%s' with value: '%s' (expected %s).", name, Clip(v), kindInt32.describe()),
			fmt.Sprintf("must be %s, not '%s'", kindInt32.describe(), Clip(v)))
	}
	return i, true, nil
}

// readSort reads every sort parameter into one order, as Spring's
// SortHandlerMethodArgumentResolver does: no value, one blank value or
// values that name no property give the default sort. A property sorted
// by already is left out, its first order kept, as SQL's ORDER BY makes
// nothing of a repeat: an order has at most one entry for each property
// the route allows, however long the query.
func (pg *pager) readSort(query string) ([]Order, error) {
	values, err := queryValues(query, pg.sort)
	if err != nil {
		return nil, err
	}
	var orders []Order
	for _, v := range values {
		for _, o := range parseSort(v) {
			if !slices.Contains(pg.spec.properties, o.Property) {
				return nil, legacyFault(pg.sort, fmt.Sprintf("Parameter '%s' sorts by '%s', which this route cannot sort by; it sorts by: %s.",
					pg.sort, Clip(o.Property), propertyList(pg.spec.properties)),
					fmt.Sprintf("must sort by %s, not '%s'", propertyList(pg.spec.properties), Clip(o.Property)))
			}
			if !slices.ContainsFunc(orders, func(s Order) bool { return s.Property == o.Property }) {
				orders = append(orders, o)
			}
		}
	}
	if len(orders) == 0 {
		return slices.Clone(pg.spec.defaultSort), nil
	}
	return orders, nil
}

// parseSort reads one sort value as Spring Data's SortOrderParser does:
// the comma-separated elements without those that are blank or only
// dots; the last is ignorecase (in any case) or not, the one before it a
// direction or not, and every other one a property sorted that way.
func parseSort(value string) []Order {
	var elements []string
	for e := range strings.SplitSeq(value, ",") {
		if strings.TrimSpace(strings.ReplaceAll(e, ".", "")) != "" {
			elements = append(elements, e)
		}
	}
	var o Order
	if n := len(elements); n > 0 && strings.EqualFold(elements[n-1], "ignorecase") {
		o.IgnoreCase, elements = true, elements[:n-1]
	}
	if n := len(elements); n > 0 {
		switch strings.ToLower(elements[n-1]) {
		case "desc":
			o.Descending = true
			elements = elements[:n-1]
		case "asc":
			elements = elements[:n-1]
		}
	}
	orders := make([]Order, 0, len(elements))
	for _, e := range elements {
		o.Property = e
		orders = append(orders, o)
	}
	return orders
}

// queryValues returns every value of the query parameter name, in order.
func queryValues(rawQuery, name string) ([]string, error) {
	var values []string
	for rawQuery != "" {
		var pair string
		pair, rawQuery, _ = strings.Cut(rawQuery, "&")
		k, v, _ := strings.Cut(pair, "=")
		var err error
		if k, err = url.QueryUnescape(k); err != nil {
			return nil, badRequest("Malformed query string.")
		}
		if k != name {
			continue
		}
		if v, err = url.QueryUnescape(v); err != nil {
			return nil, badRequest("Malformed query string.")
		}
		values = append(values, v)
	}
	return values, nil
}
