package dispatch

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Paging says how the routes read their Pageable inputs: the names of
// the parameters and the page sizes, as Spring Boot configures Spring
// Data's PageableHandlerMethodArgumentResolver and
// SortHandlerMethodArgumentResolver from spring.data.web.*. Its zero
// value is Spring's defaults; boot binds it from app.data.web.* and
// gives it to the service's routes with WithPaging.
type Paging struct {
	// DefaultPageSize is a page's size when the request names none; 0
	// means 20.
	DefaultPageSize int
	// MaxPageSize is the largest size served: a request for more is
	// served this many, as in Spring; 0 means 2000.
	MaxPageSize int

	// PageParameter and SizeParameter name the page's number and size
	// parameters ("" means page and size), each after Prefix and, for a
	// qualified Pageable, its qualifier and QualifierDelimiter ("" means
	// "_"): with prefix p_ and qualifier left, p_left_page.
	PageParameter      string
	SizeParameter      string
	Prefix             string
	QualifierDelimiter string

	// OneIndexedParameters makes page 1 the first page in requests (and
	// in the OpenAPI document); PageRequest.Number stays zero-based.
	OneIndexedParameters bool

	// SortParameter names the sort parameter ("" means sort). As in
	// Spring, whose sort resolver is configured apart, it takes neither
	// Prefix nor QualifierDelimiter: a qualified Pageable's is
	// <qualifier>_sort.
	SortParameter string
}

// Spring Data's defaults.
const (
	DefaultPageSize = 20
	MaxPageSize     = 2000
)

// withDefaults returns p with every unset field at Spring's default.
func (p Paging) withDefaults() Paging {
	if p.DefaultPageSize == 0 {
		p.DefaultPageSize = DefaultPageSize
	}
	if p.MaxPageSize == 0 {
		p.MaxPageSize = MaxPageSize
	}
	if p.PageParameter == "" {
		p.PageParameter = "page"
	}
	if p.SizeParameter == "" {
		p.SizeParameter = "size"
	}
	if p.QualifierDelimiter == "" {
		p.QualifierDelimiter = "_"
	}
	if p.SortParameter == "" {
		p.SortParameter = "sort"
	}
	return p
}

// Check reports what makes the settings unusable: a size below 1, a
// default above the largest size, or parameters that share a name.
func (p Paging) Check() error {
	p = p.withDefaults()
	var errs []error
	if p.DefaultPageSize < 1 {
		errs = append(errs, fmt.Errorf("default page size %d is not 1 or more", p.DefaultPageSize))
	}
	if p.MaxPageSize < 1 {
		errs = append(errs, fmt.Errorf("largest page size %d is not 1 or more", p.MaxPageSize))
	}
	if p.DefaultPageSize > p.MaxPageSize && p.MaxPageSize >= 1 {
		errs = append(errs, fmt.Errorf("default page size %d is above the largest, %d", p.DefaultPageSize, p.MaxPageSize))
	}
	page, size, sort := p.names("")
	if page == size || page == sort || size == sort {
		errs = append(errs, fmt.Errorf("the page, size and sort parameters must have three names, not %s, %s and %s", page, size, sort))
	}
	return errors.Join(errs...)
}

// names returns the names of the page, size and sort parameters of a
// Pageable with qualifier ("" for none), as Spring Data builds them.
func (p Paging) names(qualifier string) (page, size, sort string) {
	q, sortQ := "", ""
	if qualifier != "" {
		q, sortQ = qualifier+p.QualifierDelimiter, qualifier+"_"
	}
	return p.Prefix + q + p.PageParameter, p.Prefix + q + p.SizeParameter, sortQ + p.SortParameter
}

// WithPaging returns routes with p as the Paging of each that has none,
// as boot gives the service's routes the one app.data.web.* sets.
func WithPaging(p *Paging, routes ...Route) []Route {
	if p == nil {
		return routes
	}
	out := make([]Route, len(routes))
	for i, rt := range routes {
		if rt.Paging == nil {
			rt.Paging = p
		}
		out[i] = rt
	}
	return out
}

// pager is a Pageable as one route reads it: its parameters' names and
// sizes under the route's Paging.
type pager struct {
	spec             *pageSpec
	page, size, sort string // the parameters' names
	first            int    // the number of the first page in requests: 0 or 1
	defaultSize      int
	maxSize          int
}

// compilePageable checks the Pageable s, the route's i-th input, under
// the route's Paging, and keeps what reading it needs. seen holds the
// names of the route's inputs, to which its three parameters are added.
func (rt *route) compilePageable(i int, s *inputSpec, seen map[string]bool) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	var settings Paging
	if rt.decl.Paging != nil {
		settings = *rt.decl.Paging
	}
	if err := settings.Check(); err != nil {
		fail("has unusable Paging: %v", err)
	}
	settings = settings.withDefaults()
	ps := s.page
	pg := &pager{spec: ps, defaultSize: settings.DefaultPageSize, maxSize: settings.MaxPageSize}
	pg.page, pg.size, pg.sort = settings.names(ps.qualifier)
	if settings.OneIndexedParameters {
		pg.first = 1
	}
	if ps.defaultSize != 0 {
		pg.defaultSize = ps.defaultSize
		if ps.defaultSize < 1 || ps.defaultSize > settings.MaxPageSize {
			fail("declares a default page size of %d, which is not from 1 to the largest page size, %d", ps.defaultSize, settings.MaxPageSize)
		}
	}
	for j, p := range ps.properties {
		if p == "" || strings.ContainsRune(p, ',') || strings.TrimSpace(p) != p {
			fail("declares sort property %q, which a sort parameter cannot name", p)
		}
		if slices.Contains(ps.properties[:j], p) {
			fail("declares sort property %q twice", p)
		}
	}
	for _, o := range ps.defaultSort {
		if !slices.Contains(ps.properties, o.Property) {
			fail("sorts by %q by default, which is not one of its sort properties (%s)", o.Property, propertyList(ps.properties))
		}
	}
	for _, name := range []string{pg.page, pg.size, pg.sort} {
		if seen[inQuery+" "+name] {
			fail("declares query parameter %q twice (a Pageable's)", name)
		}
		seen[inQuery+" "+name] = true
	}
	for len(rt.pagers) <= i {
		rt.pagers = append(rt.pagers, nil)
	}
	rt.pagers[i] = pg
	return errs
}

// propertyList names the properties a route sorts by, for messages.
func propertyList(properties []string) string {
	if len(properties) == 0 {
		return "none"
	}
	return strings.Join(properties, ", ")
}

// describe describes the Pageable's parameters as springdoc describes a
// Pageable's, with the bounds and defaults of the route's Paging, and the
// sort parameter only when the route sorts.
func (pg *pager) describe() []InputInfo {
	page := InputInfo{Name: pg.page, In: inQuery, Type: reflect.TypeFor[int32](), Minimum: new(int64(pg.first)), Default: int32(pg.first),
		Description: fmt.Sprintf("The page to return, the first being %d.", pg.first)}
	size := InputInfo{Name: pg.size, In: inQuery, Type: reflect.TypeFor[int32](), Minimum: new(int64(1)), Maximum: new(int64(pg.maxSize)), Default: int32(pg.defaultSize),
		Description: fmt.Sprintf("How many items a page has; a larger size than %d is served as %d.", pg.maxSize, pg.maxSize)}
	infos := []InputInfo{page, size}
	if len(pg.spec.properties) == 0 {
		return infos
	}
	var forms []string
	for _, p := range pg.spec.properties {
		forms = append(forms, p, p+",asc", p+",desc")
	}
	sort := InputInfo{Name: pg.sort, In: inQuery, Type: reflect.TypeFor[[]string](), Enum: forms,
		Description: "The order of the items: property,(asc|desc), ascending when the direction is left out; several properties may share a direction (a,b,desc) and ignorecase may follow it. Repeat the parameter to sort by more than one. Properties: " +
			propertyList(pg.spec.properties) + "."}
	if len(pg.spec.defaultSort) > 0 {
		def := make([]string, len(pg.spec.defaultSort))
		for i, o := range pg.spec.defaultSort {
			def[i] = o.String()
		}
		sort.Default = def
	}
	return append(infos, sort)
}
