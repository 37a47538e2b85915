// Package openapi describes a service's HTTP API as an OpenAPI 3.1
// document, the machine-readable description that tools such as Swagger
// UI and client generators read. The document is built from the
// dispatcher's own route table, so that it and the service cannot drift
// apart, and served where springdoc (Spring's OpenAPI library) serves it:
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
// openapi:"optional" makes any field optional. In a struct whose fields
// declare the dispatcher's constraints (validate and pattern tags), a
// field is required when its validate tag says so, and each constraint is
// a keyword of its schema (constraints.go), as are parameters'.
package openapi

import (
	"cmp"
	"encoding/json"
	"maps"
	"strings"
	"sync"

	"github.com/springport/greeter/framework/dispatch"
)

// Info is what the document says of the service as a whole.
type Info struct {
	Title       string
	Version     string
	Description string
	// License is the licence the API is offered under, as an SPDX
	// identifier ("MIT"); empty for none.
	License string
	// Tags describe the tags that routes group themselves by, in the
	// order tools list them.
	Tags []Tag
	// ContextPath is the prefix the routes are served under
	// (server.servlet.context-path), "" for none: the document's server
	// URL, so that Swagger UI and generated clients call the paths under it.
	ContextPath string
	// Security says how callers authenticate; nil when no one needs to.
	Security *Security
}

// Security is what the document says of authentication: the schemes a
// caller may use (components.securitySchemes, which gives Swagger UI its
// Authorize button) and, for each operation, whether it needs one.
type Security struct {
	Basic  bool // HTTP Basic, as basicAuth
	Bearer bool // a bearer token, a JWT, as bearerAuth
	// Open reports whether anyone may call path (an OpenAPI path, such as
	// /api/messages/{index}) without credentials; such an operation's
	// security is [], the others' any one of the schemes.
	Open func(path string) bool
}

// schemes returns the document's securitySchemes, and the requirement
// of an operation that needs credentials: any one of them.
func (s *Security) schemes() (object, []any) {
	schemes := object{}
	var anyOf []any
	if s.Basic {
		schemes["basicAuth"] = object{"type": "http", "scheme": "basic"}
		anyOf = append(anyOf, object{"basicAuth": []any{}})
	}
	if s.Bearer {
		schemes["bearerAuth"] = object{"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
		anyOf = append(anyOf, object{"bearerAuth": []any{}})
	}
	return schemes, anyOf
}

// Tag names a group of operations and says what they have in common.
type Tag struct {
	Name        string
	Description string
}

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
		op := b.operation(k.method, k.path, groups[k])
		if info.Security != nil && (info.Security.Open == nil || !info.Security.Open(k.path)) {
			_, op["security"] = info.Security.schemes()
		}
		item[k.method] = op
	}
	b.schemas.components["Problem"] = problemSchema()
	doc := object{
		"openapi": "3.1.0",
		"info":    infoObject(info),
		// Relative to where the document is served: the service itself,
		// on whatever host and port the client reached it, under its
		// context path. The paths below are without it, as springdoc
		// writes them.
		"servers": servers(info.ContextPath),
		"paths":   paths,
		"components": object{
			"schemas":   b.schemas.components,
			"responses": b.responses,
		},
	}
	if info.Security != nil {
		schemes, _ := info.Security.schemes()
		doc["components"].(object)["securitySchemes"] = schemes
	}
	if len(info.Tags) > 0 {
		tags := make([]any, len(info.Tags))
		for i, t := range info.Tags {
			tags[i] = object{"name": t.Name, "description": t.Description}
		}
		doc["tags"] = tags
	}
	return doc
}

// servers is the document's servers: the service, at base ("" for the
// root).
func servers(base string) []any {
	return []any{object{"url": cmp.Or(base, "/"), "description": "this service"}}
}

func infoObject(info Info) object {
	o := object{"title": info.Title, "version": info.Version}
	if info.Description != "" {
		o["description"] = info.Description
	}
	if info.License != "" {
		o["license"] = object{"name": info.License, "identifier": info.License}
	}
	return o
}

// Routes returns the routes that serve the document of routes. The
// document is made on first use, not at start-up, which it would slow.
// Its server is the path the request reached the service under
// (dispatch.ContextPath): the context path, or the prefix a proxy
// forwarded it from, for which the document is encoded again.
func Routes(info Info, routes []dispatch.Route) []dispatch.Route {
	var once sync.Once
	var doc object
	var jsonDoc, yamlDoc []byte
	var err error
	documents := func() {
		var infos []dispatch.RouteInfo
		if infos, err = dispatch.Describe(routes...); err != nil {
			return
		}
		doc = Document(info, infos)
		if jsonDoc, err = json.Marshal(doc); err == nil {
			yamlDoc, err = encodeYAML(doc)
		}
	}
	serve := func(encoded *[]byte, encode func(any) ([]byte, error)) func(*dispatch.Request) ([]byte, error) {
		return func(r *dispatch.Request) ([]byte, error) {
			once.Do(documents)
			base := dispatch.ContextPath(r.Request)
			if err != nil || base == info.ContextPath {
				return *encoded, err
			}
			forwarded := maps.Clone(doc)
			forwarded["servers"] = servers(base)
			return encode(forwarded)
		}
	}
	return []dispatch.Route{
		{Method: "GET", Pattern: "/v3/api-docs", Produces: []string{"application/json"},
			Handler: dispatch.Returns(serve(&jsonDoc, json.Marshal))},
		{Method: "GET", Pattern: "/v3/api-docs.yaml", Produces: []string{"application/vnd.oai.openapi"},
			Handler: dispatch.Returns(serve(&yamlDoc, encodeYAML))},
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
