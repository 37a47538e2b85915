package api

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/messagestore/inmem"
)

// greeterDocument loads greeter's OpenAPI document, as /v3/api-docs
// serves it, into kin-openapi, which must accept it as valid OpenAPI 3.1.
func greeterDocument(t *testing.T) *openapi3.T {
	t.Helper()
	routes, err := dispatch.Describe(Routes("Hello World!", &inmem.Messages{}, Paging{}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	asJSON, err := json.Marshal(openapi.Document(openapi.Info{Title: "greeter", Version: "(devel)"}, routes))
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(asJSON)
	if err != nil {
		t.Fatalf("kin-openapi cannot load greeter's document: %v", err)
	}
	if err := spec.Validate(loader.Context, openapi3.EnableSchemaFormatValidation()); err != nil {
		t.Fatalf("greeter's document is not valid: %v", err)
	}
	return spec
}

// TestMessageBodyRequiresText checks that the document says what the
// service enforces: a message body without text is refused.
func TestMessageBodyRequiresText(t *testing.T) {
	spec := greeterDocument(t)
	for _, route := range []struct{ method, path string }{{"POST", "/api/messages"}, {"PUT", "/api/messages/{index}"}} {
		op := spec.Paths.Value(route.path).GetOperation(route.method)
		if op == nil {
			t.Fatalf("no operation for %s %s", route.method, route.path)
		}
		schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
		if !slices.Contains(schema.Required, "text") {
			t.Errorf("%s %s: the body's schema requires %v, want [text]; tag messageBody.Text in api/handlers.go with openapi:\"required\"", route.method, route.path, schema.Required)
		}
		if err := schema.VisitJSON(map[string]any{"text": nil}, openapi3.EnableJSONSchema2020()); err == nil {
			t.Errorf("%s %s: a null text satisfies the body's schema, but the service refuses it", route.method, route.path)
		}
	}
}
