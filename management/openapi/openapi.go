// Package openapi describes the service as an OpenAPI 3.1 document, built
// from the dispatcher's own route table so that the document and the
// service cannot drift apart, and serves it where springdoc does:
// /v3/api-docs (JSON) and /v3/api-docs.yaml.
//
// Each route becomes an operation of its path: its typed path variables and
// query parameters, its body in every type it reads, its success status with
// every representation it writes, and each error status the dispatcher can
// answer for it as an RFC 9457 problem document, with the ServeMux's 404 and
// 405, which every operation can meet. HEAD and OPTIONS, which the dispatcher
// answers for every GET and every path, are not operations of their own.
//
// Schemas are derived from the Go types of bodies and results by reflection,
// following encoding/json (schema.go has the rules). A struct field is
// required when encoding/json always writes it: not a pointer, and without
// omitempty or omitzero. The struct tag openapi:"required" makes any field
// required, as a pointer field that a body's Validate method insists on, and
// openapi:"optional" makes any field optional.
package openapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/springport/greeter/framework/dispatch"
)

// Info is the document's info object.
type Info struct {
	Title   string
	Version string
}

// problemType is the media type of every error response.
const problemType = "application/problem+json"

// Document returns the OpenAPI document for routes. Routes that share a
// method and a path (differing in their params, consumes or produces
// conditions) are merged into one operation, since OpenAPI has one per
// method and path; its description lists their conditions.
func Document(info Info, routes []dispatch.RouteInfo) map[string]any {
	b := &builder{schemas: newSchemas(), responses: object{}, operationIDs: map[string]bool{}}
	type key struct{ path, method string }
	var order []key
	groups := map[key][]dispatch.RouteInfo{}
	for _, r := range routes {
		k := key{openAPIPath(r.Pattern), strings.ToLower(r.Method)}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	paths := object{}
	for _, k := range order {
		item, _ := paths[k.path].(object)
		if item == nil {
			item = object{}
			paths[k.path] = item
		}
		item[k.method] = b.operation(k.method, k.path, groups[k])
	}
	b.schemas.components["Problem"] = problemSchema()
	return object{
		"openapi": "3.1.0",
		"info":    object{"title": info.Title, "version": info.Version},
		"paths":   paths,
		"components": object{
			"schemas":   b.schemas.components,
			"responses": b.responses,
		},
	}
}

// Routes returns the routes that serve the document of routes. The
// document is made on first use, not at start-up, which it would slow.
func Routes(info Info, routes []dispatch.Route) []dispatch.Route {
	var once sync.Once
	var jsonDoc, yamlDoc []byte
	var err error
	documents := func() {
		var infos []dispatch.RouteInfo
		if infos, err = dispatch.Describe(routes...); err != nil {
			return
		}
		doc := Document(info, infos)
		if jsonDoc, err = json.Marshal(doc); err == nil {
			yamlDoc, err = encodeYAML(doc)
		}
	}
	return []dispatch.Route{
		{Method: "GET", Pattern: "/v3/api-docs", Produces: []string{"application/json"},
			Handler: dispatch.Returns(func(*dispatch.Request) ([]byte, error) { once.Do(documents); return jsonDoc, err })},
		{Method: "GET", Pattern: "/v3/api-docs.yaml", Produces: []string{"application/vnd.oai.openapi"},
			Handler: dispatch.Returns(func(*dispatch.Request) ([]byte, error) { once.Do(documents); return yamlDoc, err })},
	}
}

// openAPIPath turns a ServeMux pattern into an OpenAPI path: its {name}
// wildcards already are path parameters; {$} (end of path) goes, and a
// {name...} remainder becomes {name}, though OpenAPI cannot say that it
// spans several segments.
func openAPIPath(pattern string) string {
	p := strings.TrimSuffix(pattern, "{$}")
	return strings.ReplaceAll(p, "...}", "}")
}

type builder struct {
	schemas      *schemas
	responses    object // components/responses: the problem responses
	operationIDs map[string]bool
}

// operation describes the routes of one method and path.
func (b *builder) operation(method, path string, routes []dispatch.RouteInfo) object {
	op := object{"operationId": b.operationID(method, path)}
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
func (b *builder) parameters(path string, routes []dispatch.RouteInfo) []any {
	type param struct {
		in, name string
		schema   object
		required int // how many routes require it
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
			if in.Required || in.In == "path" {
				p.required++
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
		if r.Result != nil {
			content, _ := resp["content"].(object)
			if content == nil {
				content = object{}
				resp["content"] = content
			}
			for _, ct := range r.Produces {
				addContent(content, ct.Type, object{"schema": b.bodySchema(ct, r.Result, true)})
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

// problemResponse returns the name of the shared response for an error
// status, defining it the first time.
func (b *builder) problemResponse(status int) string {
	name := strings.ReplaceAll(statusText(status), " ", "")
	name = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, name)
	if name == "" || http.StatusText(status) == "" {
		name = "Status" + strconv.Itoa(status)
	}
	if _, ok := b.responses[name]; ok {
		return name
	}
	schema := object{"$ref": "#/components/schemas/Problem", "properties": object{"status": object{"const": status}}}
	resp := object{
		"description": statusText(status),
		"content":     object{problemType: object{"schema": schema}},
	}
	switch status {
	case http.StatusMethodNotAllowed:
		resp["headers"] = object{"Allow": object{
			"description": "The methods the path allows.",
			"required":    true,
			"schema":      object{"type": "string"},
		}}
	case http.StatusUnsupportedMediaType:
		resp["headers"] = object{"Accept": object{
			"description": "The body types the operation reads.",
			"required":    true,
			"schema":      object{"type": "string"},
		}}
	}
	b.responses[name] = resp
	return name
}

func problemSchema() object {
	return object{
		"type":        "object",
		"description": "An RFC 9457 problem document.",
		"properties": object{
			"type":      object{"type": "string", "format": "uri-reference", "description": "about:blank unless a more specific type exists."},
			"title":     object{"type": "string", "description": "The status's reason phrase."},
			"status":    object{"type": "integer", "format": "int32", "minimum": 400, "maximum": 599},
			"detail":    object{"type": "string", "description": "What went wrong, for a human reader."},
			"instance":  object{"type": "string", "format": "uri-reference", "description": "The request's path."},
			"requestId": object{"type": "string", "description": "The request's ID, as in the server's log."},
		},
		"required": []any{"type", "title", "status", "instance"},
	}
}

func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Status " + strconv.Itoa(status)
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
