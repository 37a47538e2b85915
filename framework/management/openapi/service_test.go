package openapi

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/inmem"
)

// serviceDocument returns the document of the service's own routes, as
// JSON, with the routes it describes.
func serviceDocument(t *testing.T) ([]byte, []dispatch.RouteInfo, map[string]any) {
	t.Helper()
	routes, err := dispatch.Describe(api.Routes("Hello World!", &inmem.Messages{}, api.Paging{}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	doc := Document(Info{Title: "greeter", Version: "(devel)"}, routes)
	asJSON, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return asJSON, routes, doc
}

// TestServiceDocument loads the document of the service's routes, as JSON
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

// TestMessageBodyRequiresText checks that the document says what the
// service enforces: a message body without text is refused.
func TestMessageBodyRequiresText(t *testing.T) {
	asJSON, _, _ := serviceDocument(t)
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(asJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"POST", "PUT"} {
		for _, path := range []string{"/api/messages", "/api/messages/{index}"} {
			op := spec.Paths.Value(path).GetOperation(method)
			if op == nil {
				continue
			}
			// Every body type refers to the one component.
			schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
			if !slices.Contains(schema.Required, "text") {
				t.Errorf("%s %s: the body's schema requires %v, want [text]; tag messageBody.Text in api/handlers.go with openapi:\"required\"", method, path, schema.Required)
			}
			if err := schema.VisitJSON(map[string]any{"text": nil}, openapi3.EnableJSONSchema2020()); err == nil {
				t.Errorf("%s %s: a null text satisfies the body's schema, but the service refuses it", method, path)
			}
		}
	}
}
