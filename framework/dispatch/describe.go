package dispatch

import (
	"net/http"
	"reflect"
	"slices"
	"sync"
)

// RouteInfo describes a checked route, for listings (/actuator/mappings) and
// for the OpenAPI document; both are read from the routes the dispatcher
// serves, so neither can drift from them.
type RouteInfo struct {
	Method   string
	Pattern  string
	Summary  string
	Tags     []string
	Params   []ParamCondition // request-parameter conditions
	Consumes []MediaType      // body types read; empty when the route reads none
	Produces []MediaType      // representations written; empty when success has no body
	Status   int              // success status
	Inputs   []InputInfo
	Body     reflect.Type // the body's Go type; nil when none
	Result   reflect.Type // the result's Go type; nil when none, or for a Plain route

	// Errors lists the statuses the dispatcher can answer for this route,
	// beyond the ServeMux's 404 and 405, each as a problem document.
	Errors []int

	// Headers are the response headers of a success, as declared.
	Headers []ResponseHeader

	// Location is set when a success carries a Location header that the
	// dispatcher writes: the result is a Redirect, Created or CreatedAt
	// (Result is then the type of the body, or nil for none).
	Location bool
}

// MediaType is a media type (or range) that a route reads or writes, with
// the syntax of its bodies.
type MediaType struct {
	Type   string // "application/json", "application/*+json", "text/plain"
	Format Format
	// ContentType is the Content-Type of a response written in it
	// ("text/xml;charset=UTF-8"); empty for a body read and for a range,
	// whose response carries the type the client asked for.
	ContentType string
}

// InputInfo describes a declared path variable or query parameter.
type InputInfo struct {
	Name     string
	In       string // "path" or "query"
	Required bool
	Type     reflect.Type // int32, int64, string or uuid.UUID
	// Description says what the input means; empty when undeclared.
	Description string
	// Minimum is an integer input's least value (Param.Min); nil when it
	// has none.
	Minimum *int64
	// Maximum is an integer input's largest value (a Pageable's size);
	// nil when it has none.
	Maximum *int64
	// Default is an optional input's value when the request leaves it
	// out (Param.Default, a Pageable's), of Type; nil when it has none.
	Default any
	// Enum lists the values the input takes, each item's for a list
	// (a Pageable's sort); nil when any value of Type will do.
	Enum []string
	// Constraints are those it declares beyond Min: Max, Size, Pattern,
	// OneOf, Email, URL (Maximum and Enum above say the first and the
	// fifth too); nil when none.
	Constraints *Constraints `json:",omitempty"`
}

// Describe describes routes as a dispatcher built with them would, without
// building one: for a document about some of a dispatcher's routes. It
// refuses a misdeclared route as New does; conflicts between routes are
// New's to find.
func Describe(routes ...Route) ([]RouteInfo, error) {
	compiled, errs := compileAll(routes)
	if len(errs) > 0 {
		return nil, tableError(errs)
	}
	return describe(compiled), nil
}

func describe(routes []*route) []RouteInfo {
	infos := make([]RouteInfo, 0, len(routes))
	for _, rt := range routes {
		info := RouteInfo{
			Method:   rt.decl.Method,
			Pattern:  rt.decl.Pattern,
			Summary:  rt.decl.Summary,
			Tags:     slices.Clone(rt.decl.Tags),
			Params:   slices.Clone(rt.params),
			Consumes: mediaTypes(rt.consumes),
			Produces: mediaTypes(rt.produces),
			Status:   rt.status,
			Body:     rt.body,
			Result:   rt.result,
			Errors:   rt.errorStatuses(),
			Headers:  slices.Clone(rt.decl.Headers),
			Location: rt.located != noLocation,
		}
		for i, in := range rt.inputs {
			if in.page != nil {
				info.Inputs = append(info.Inputs, rt.pagers[i].describe()...)
				continue
			}
			input := InputInfo{Name: in.name, In: in.in, Required: in.required, Type: in.typ, Description: in.description,
				Constraints: in.describeChecks()}
			if in.checks.hasMax {
				input.Maximum = new(in.checks.max)
			}
			input.Enum = in.checks.enum
			if in.hasMin {
				input.Minimum = new(in.min)
			}
			if in.hasDefault {
				input.Default = in.defaultValue
			}
			info.Inputs = append(info.Inputs, input)
		}
		infos = append(infos, info)
	}
	return infos
}

func mediaTypes(reps []representation) []MediaType {
	var types []MediaType
	for _, r := range reps {
		types = append(types, MediaType{Type: r.mediaType.String(), Format: r.format, ContentType: r.contentType})
	}
	return types
}

// errorStatuses lists, in order, the statuses of the problem documents
// that the dispatcher can answer for the route, and those its handler
// declares.
func (rt *route) errorStatuses() []int {
	var errs []int
	if len(rt.inputs) > 0 || len(rt.params) > 0 || len(rt.produces) > 0 || rt.body != nil {
		errs = append(errs, http.StatusBadRequest)
	}
	if len(rt.produces) > 0 {
		errs = append(errs, http.StatusNotAcceptable)
	}
	if rt.body != nil {
		// 408: the body did not arrive within the read timeout; 415 also
		// for a Content-Encoding or an XML charset the codecs cannot read.
		errs = append(errs, http.StatusRequestTimeout, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	for _, status := range slices.Concat(rt.decl.Errors, []int{http.StatusInternalServerError}) {
		if !slices.Contains(errs, status) {
			errs = append(errs, status)
		}
	}
	slices.Sort(errs)
	return errs
}

// Catalog collects the routes of every dispatcher built with it (see
// Options.Catalog), so that one listing, such as /actuator/mappings, shows
// every route the service serves, on every port, its own included. Its
// zero value is ready to use.
type Catalog struct {
	mu     sync.RWMutex
	routes []RouteInfo
}

// Routes returns the routes listed so far, in the order their dispatchers
// were built and their routes declared.
func (c *Catalog) Routes() []RouteInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.routes)
}

func (c *Catalog) add(routes []RouteInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.routes = append(c.routes, routes...)
}
