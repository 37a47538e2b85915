package dispatch

import (
	"net/http"
	"reflect"
	"slices"
)

// RouteInfo describes a checked route, for listings (/actuator/mappings) and
// for the OpenAPI document; both are read from the table the dispatcher
// serves, so neither can drift from it.
type RouteInfo struct {
	Method   string
	Pattern  string
	Params   []ParamCondition // request-parameter conditions
	Consumes []string         // body types read; empty when the route reads none
	Produces []string         // representations written; empty when success has no body
	Status   int              // success status
	Inputs   []InputInfo
	Body     reflect.Type // the body's Go type; nil when none
	Result   reflect.Type // the result's Go type; nil when none

	// Errors lists the statuses the dispatcher can answer for this route,
	// beyond the ServeMux's 404 and 405, each as a problem document.
	Errors []int
}

// InputInfo describes a declared path variable or query parameter.
type InputInfo struct {
	Name     string
	In       string // "path" or "query"
	Required bool
	Type     reflect.Type // int32, int64, string or uuid.UUID
}

// Routes describes every route, in declaration order.
func (d *Dispatcher) Routes() []RouteInfo {
	infos := make([]RouteInfo, 0, len(d.routes))
	for _, rt := range d.routes {
		info := RouteInfo{
			Method:  rt.decl.Method,
			Pattern: rt.decl.Pattern,
			Params:  slices.Clone(rt.params),
			Status:  rt.status,
			Body:    rt.decl.Handler.body,
			Result:  rt.decl.Handler.result,
		}
		for _, c := range rt.consumes {
			info.Consumes = append(info.Consumes, c.mediaType.String())
		}
		for _, p := range rt.produces {
			info.Produces = append(info.Produces, p.mediaType.String())
		}
		for _, in := range rt.inputs {
			info.Inputs = append(info.Inputs, InputInfo{Name: in.name, In: in.in, Required: in.required, Type: in.typ})
		}
		if len(rt.inputs) > 0 || len(rt.params) > 0 || len(rt.produces) > 0 || rt.decl.Handler.body != nil {
			info.Errors = append(info.Errors, http.StatusBadRequest)
		}
		if len(rt.produces) > 0 {
			info.Errors = append(info.Errors, http.StatusNotAcceptable)
		}
		if rt.decl.Handler.body != nil {
			info.Errors = append(info.Errors, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
		}
		for _, status := range rt.decl.Errors {
			if !slices.Contains(info.Errors, status) {
				info.Errors = append(info.Errors, status)
			}
		}
		if !slices.Contains(info.Errors, http.StatusInternalServerError) {
			info.Errors = append(info.Errors, http.StatusInternalServerError)
		}
		slices.Sort(info.Errors)
		infos = append(infos, info)
	}
	return infos
}
