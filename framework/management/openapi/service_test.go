package openapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/springport/greeter/framework/dispatch"
)

// serviceRoutes is a service's table with every kind of route the
// dispatcher describes: typed path variables and query parameters,
// optional ones, JSON and XML bodies, streamed lists with response
// headers, body-less successes, declared errors, tags and summaries.
func serviceRoutes() []dispatch.Route {
	id := dispatch.Path[int64]("id")
	page := dispatch.OptionalQuery[int32]("page")
	owner := dispatch.Query[uuid.UUID]("owner")
	unavailable := []int{http.StatusServiceUnavailable}
	tags := []string{"widgets"}
	count := []dispatch.ResponseHeader{{Name: "X-Total-Count", Type: reflect.TypeFor[int64](), Description: "how many widgets there are"}}
	return []dispatch.Route{
		{Method: "GET", Pattern: "/api/hello", Summary: "A greeting", Handler: returns("hello")},
		{Method: "GET", Pattern: "/api/nothing", Summary: "An empty success", Handler: runs()},
		{Method: "GET", Pattern: "/api/widgets", Summary: "Every widget, or a page", Tags: tags, Errors: unavailable, Inputs: []dispatch.Input{page}, Headers: count,
			Handler: dispatch.Streams(func(*dispatch.Request) (dispatch.Stream[widget], error) { return dispatch.Stream[widget]{}, nil })},
		{Method: "POST", Pattern: "/api/widgets", Summary: "Add a widget", Tags: tags, Status: http.StatusCreated, Errors: []int{http.StatusServiceUnavailable, http.StatusInsufficientStorage}, Handler: accepts[widget]()},
		{Method: "GET", Pattern: "/api/widgets/{id}", Summary: "One widget", Tags: tags, Errors: unavailable, Inputs: []dispatch.Input{id}, Handler: returns(widget{})},
		{Method: "PUT", Pattern: "/api/widgets/{id}", Summary: "Replace a widget", Tags: tags, Status: http.StatusNoContent, Inputs: []dispatch.Input{id}, Handler: accepts[widget]()},
		{Method: "DELETE", Pattern: "/api/widgets/{id}", Summary: "Remove a widget", Tags: tags, Status: http.StatusNoContent, Inputs: []dispatch.Input{id}, Handler: runs()},
		{Method: "GET", Pattern: "/api/widgets/search", Summary: "Search", Tags: tags, Inputs: []dispatch.Input{owner}, Handler: runs()},
		{Method: "PUT", Pattern: "/api/orders", Summary: "Exchange an order", Handler: dispatch.Exchanges(func(*dispatch.Request, order) (order, error) { return order{}, nil })},
		{Method: "GET", Pattern: "/api/report", Summary: "A report that chooses its status", Handler: returns(report{})},
	}
}

// serviceDocument returns the document of serviceRoutes, as JSON, with
// the routes it describes.
func serviceDocument(t *testing.T) ([]byte, []dispatch.RouteInfo, map[string]any) {
	t.Helper()
	routes, err := dispatch.Describe(serviceRoutes()...)
	if err != nil {
		t.Fatal(err)
	}
	doc := Document(Info{Title: "widgets", Version: "(devel)"}, routes)
	asJSON, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return asJSON, routes, doc
}

// TestServiceDocument loads the document of a service's routes, as JSON
// and as YAML, into kin-openapi, which must accept it as a valid OpenAPI 3.1
// document that lists every route with its success and its problems.
func TestServiceDocument(t *testing.T) {
	asJSON, routes, doc := serviceDocument(t)
	asYAML, err := encodeYAML(doc)
	if err != nil {
		t.Fatal(err)
	}
	for format, data := range map[string][]byte{"JSON": asJSON, "YAML": asYAML} {
		loader := openapi3.NewLoader()
		spec, err := loader.LoadFromData(data)
		if err != nil {
			t.Fatalf("%s: kin-openapi cannot load the document: %v", format, err)
		}
		if err := spec.Validate(loader.Context, openapi3.EnableSchemaFormatValidation()); err != nil {
			t.Errorf("%s: the document is not valid: %v", format, err)
		}
		if !spec.IsOpenAPI31OrLater() || spec.OpenAPI != "3.1.0" {
			t.Errorf("%s: openapi %q, want 3.1.0", format, spec.OpenAPI)
		}
		for _, r := range routes {
			item := spec.Paths.Value(r.Pattern)
			if item == nil || item.GetOperation(r.Method) == nil {
				t.Errorf("%s: no operation for %s %s", format, r.Method, r.Pattern)
				continue
			}
			op := item.GetOperation(r.Method)
			if op.Responses.Status(r.Status) == nil {
				t.Errorf("%s: %s %s does not document its success %d", format, r.Method, r.Pattern, r.Status)
			}
			for _, status := range append([]int{404, 405}, r.Errors...) {
				resp := op.Responses.Status(status)
				if resp == nil || resp.Value.Content.Get(problemType) == nil {
					t.Errorf("%s: %s %s does not document %d as a problem", format, r.Method, r.Pattern, status)
				}
			}
		}
	}
}
