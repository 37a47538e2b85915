package openapi

import (
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/springport/greeter/framework/dispatch"
)

// builder builds the operations of one document, sharing its schemas and
// its problem responses among them.
type builder struct {
	schemas      *schemas
	responses    object // components/responses: the problem responses
	operationIDs map[string]bool
}

// operation describes the routes of one method and path.
func (b *builder) operation(method, path string, routes []dispatch.RouteInfo) object {
	op := object{"operationId": b.operationID(method, path)}
	if summary := summaryOf(routes); summary != "" {
		op["summary"] = summary
	}
	if tags := tagsOf(routes); len(tags) > 0 {
		op["tags"] = tags
	}
	// Open to anyone unless Info.Security says otherwise (Document): the
	// operation says so, rather than leaving tools to guess.
	op["security"] = []any{}
	if params := b.parameters(path, routes); len(params) > 0 {
		op["parameters"] = params
	}
	if body := b.requestBody(routes); body != nil {
		op["requestBody"] = body
	}
	if desc := conditions(routes); desc != "" {
		op["description"] = desc
	}
	op["responses"] = b.operationResponses(routes)
	return op
}

// summaryOf is the summary of the first route that has one: routes merged
// into one operation differ in their conditions, not in what they do.
func summaryOf(routes []dispatch.RouteInfo) string {
	for _, r := range routes {
		if r.Summary != "" {
			return r.Summary
		}
	}
	return ""
}

// tagsOf is every tag of the routes, each once, in order.
func tagsOf(routes []dispatch.RouteInfo) []any {
	var tags []any
	for _, r := range routes {
		for _, t := range r.Tags {
			if !slices.Contains(tags, any(t)) {
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// operationID derives a unique id from the method and path:
// GET /api/hello/{id} is getApiHelloById.
func (b *builder) operationID(method, path string) string {
	var id strings.Builder
	id.WriteString(method)
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			id.WriteString("By")
			seg = strings.TrimSuffix(name, "}")
		}
		upper := true
		for _, r := range seg {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				upper = true
				continue
			}
			if upper {
				r = unicode.ToUpper(r)
				upper = false
			}
			id.WriteRune(r)
		}
	}
	base := id.String()
	name := base
	for i := 2; b.operationIDs[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	b.operationIDs[name] = true
	return name
}

// parameters describes the routes' path variables and query parameters.
// A query parameter named by a "p" or "p=v" condition, and not declared as an
// input, is a string. A parameter is required when every route requires it.
// An optional query input allows an empty value (allowEmptyValue), which
// the dispatcher reads as the parameter left out, as Spring does; an
// integer input's minimum (Param.Min) is its schema's, as are its other
// constraints (Max, Size, Pattern, OneOf, Email, URL).
func (b *builder) parameters(path string, routes []dispatch.RouteInfo) []any {
	type param struct {
		in, name    string
		schema      object
		required    int  // how many routes require it
		optional    bool // a route declares it an optional query input
		description string
	}
	var params []*param
	find := func(in, name string) *param {
		for _, p := range params {
			if p.in == in && p.name == name {
				return p
			}
		}
		p := &param{in: in, name: name}
		params = append(params, p)
		return p
	}
	for _, r := range routes {
		for _, in := range r.Inputs {
			p := find(in.In, in.Name)
			p.schema = b.schemas.json(in.Type)
			if in.Minimum != nil {
				p.schema = maps.Clone(p.schema)
				p.schema["minimum"] = *in.Minimum
			}
			p.schema = inputBounds(p.schema, in)
			if in.Constraints != nil {
				p.schema = constrained(p.schema, in.Type, *in.Constraints)
			}
			if in.Description != "" {
				p.description = in.Description
			}
			if in.Required || in.In == "path" {
				p.required++
			} else if in.In == "query" {
				p.optional = true
			}
		}
		for _, cond := range r.Params {
			if cond.Negated {
				continue // the parameter may be absent
			}
			name := cond.Name
			p := find("query", name)
			if p.schema == nil {
				p.schema = object{"type": "string"}
			}
			if !slices.ContainsFunc(r.Inputs, func(in dispatch.InputInfo) bool { return in.In == "query" && in.Name == name && in.Required }) {
				p.required++
			}
		}
	}
	// Path parameters first, in the path's order; then query parameters.
	position := func(p *param) int {
		if p.in != "path" {
			return len(path)
		}
		return strings.Index(path, "{"+p.name+"}")
	}
	slices.SortStableFunc(params, func(a, b *param) int { return position(a) - position(b) })
	out := make([]any, 0, len(params))
	for _, p := range params {
		o := object{"name": p.name, "in": p.in, "schema": p.schema}
		if p.required == len(routes) {
			o["required"] = true
		} else if p.optional {
			o["allowEmptyValue"] = true
		}
		if p.description != "" {
			o["description"] = p.description
		}
		if p.schema["type"] == "array" && p.in == "query" {
			o["explode"] = true // sort=a&sort=b, as the dispatcher reads it
		}
		out = append(out, o)
	}
	return out
}

// requestBody describes the bodies the routes read, nil when none reads one.
func (b *builder) requestBody(routes []dispatch.RouteInfo) object {
	content := object{}
	readers := 0
	for _, r := range routes {
		if len(r.Consumes) == 0 {
			continue
		}
		if r.Body != nil {
			readers++
		}
		for _, ct := range r.Consumes {
			mt := object{}
			if r.Body != nil {
				mt["schema"] = b.bodySchema(ct, r.Body, false)
			}
			addContent(content, ct.Type, mt)
		}
	}
	if len(content) == 0 {
		return nil
	}
	body := object{"content": content}
	if readers == len(routes) {
		body["required"] = true
	}
	return body
}

// operationResponses describes the success of every route, then each error
// status any of them can answer, with the ServeMux's 404 and 405, which are
// always possible.
func (b *builder) operationResponses(routes []dispatch.RouteInfo) object {
	responses := object{}
	errs := []int{http.StatusNotFound, http.StatusMethodNotAllowed}
	for _, r := range routes {
		key := strconv.Itoa(r.Status)
		resp, _ := responses[key].(object)
		if resp == nil {
			resp = object{"description": statusText(r.Status)}
			responses[key] = resp
		}
		if len(r.Headers) > 0 {
			headers, _ := resp["headers"].(object)
			if headers == nil {
				headers = object{}
				resp["headers"] = headers
			}
			for _, h := range r.Headers {
				headers[h.Name] = object{"description": h.Description, "schema": b.schemas.json(h.Type)}
			}
		}
		locationHeader(resp, r)
		if r.Result != nil {
			content, _ := resp["content"].(object)
			if content == nil {
				content = object{}
				resp["content"] = content
			}
			for _, ct := range r.Produces {
				addContent(content, responseContentKey(ct), object{"schema": b.bodySchema(ct, r.Result, true)})
			}
			if r.Result.Implements(reflect.TypeFor[dispatch.StatusCoder]()) {
				// The result chooses its status, keeping its representation.
				responses["default"] = object{"description": "The status the result chose.", "content": content}
			}
		}
		for _, status := range r.Errors {
			if !slices.Contains(errs, status) {
				errs = append(errs, status)
			}
		}
	}
	for _, status := range errs {
		if _, ok := responses[strconv.Itoa(status)]; ok {
			continue // a success status is not also a problem
		}
		responses[strconv.Itoa(status)] = object{"$ref": "#/components/responses/" + b.problemResponse(status)}
	}
	return responses
}

// addContent adds a media type entry; when routes disagree on its schema,
// either is allowed.
func addContent(content object, ct string, mt object) {
	old, ok := content[ct].(object)
	if !ok {
		content[ct] = mt
		return
	}
	if oldSchema, newSchema := old["schema"], mt["schema"]; newSchema != nil && !reflect.DeepEqual(oldSchema, newSchema) {
		if oldSchema == nil {
			content[ct] = mt
			return
		}
		content[ct] = object{"schema": object{"oneOf": []any{oldSchema, newSchema}}}
	}
}

// bodySchema is the schema of a body or result of type t in media type mt.
func (b *builder) bodySchema(mt dispatch.MediaType, t reflect.Type, result bool) object {
	if result && t == bytesType {
		// Bytes that already are a representation: any JSON, or a string.
		if mt.Format == dispatch.FormatJSON {
			return object{}
		}
		return object{"type": "string"}
	}
	switch mt.Format {
	case dispatch.FormatXML:
		return b.schemas.xmlRoot(t)
	case dispatch.FormatJSON:
		return b.schemas.json(t)
	}
	return object{"type": "string"} // text/plain: a string, written raw
}

// conditions describes the routes' params, consumes and produces conditions,
// which OpenAPI has no place for, when any route declares one.
func conditions(routes []dispatch.RouteInfo) string {
	var lines []string
	for _, r := range routes {
		if len(r.Params) > 0 {
			exprs := make([]string, len(r.Params))
			for i, c := range r.Params {
				exprs[i] = c.String()
			}
			lines = append(lines, "Chosen when the request's parameters satisfy "+strings.Join(exprs, " and ")+".")
		}
	}
	if len(routes) > 1 {
		lines = append(lines, "Several routes share this method and path; the dispatcher chooses by their conditions, and the request body and responses list what any of them reads and writes.")
	}
	return strings.Join(lines, "\n")
}
