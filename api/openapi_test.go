package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
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

// TestQueryParametersDocumented checks that the document says what the
// service does with its query parameters, as schemathesis found it did
// not: a value below a parameter's minimum is refused, and the document
// gives that minimum (GET /api/messages?size=-2147483648 was a 400 that
// the document allowed); an optional parameter sent empty counts as left
// out, and the document allows the empty value (?page=&size= and
// ?param2= were answered 200 where the document's integer and UUID
// schemas refused an empty string).
func TestQueryParametersDocumented(t *testing.T) {
	spec := greeterDocument(t)
	store := &inmem.Messages{}
	d, err := dispatch.New(dispatch.Options{Classify: Classify}, Routes("hi", store, Paging{}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	status := func(target string) int {
		w := httptest.NewRecorder()
		d.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		return w.Code
	}
	tests := []struct {
		path, name string
		min        *float64 // the minimum the service enforces; nil when none
		required   string   // the other parameters a request needs
	}{
		{"/api/messages", "page", new(0.0), ""},
		{"/api/messages", "size", new(1.0), ""},
		{"/api/messages/search", "param2", nil, "param1=1&"},
	}
	for _, tt := range tests {
		p := spec.Paths.Value(tt.path).Get.Parameters.GetByInAndName("query", tt.name)
		if p == nil {
			t.Fatalf("GET %s: no query parameter %s in the document", tt.path, tt.name)
		}
		if p.Required || !p.AllowEmptyValue {
			t.Errorf("GET %s: %s is required %v, allowEmptyValue %v; want an optional parameter that allows an empty value", tt.path, tt.name, p.Required, p.AllowEmptyValue)
		}
		if got := status(tt.path + "?" + tt.required + tt.name + "="); got != http.StatusOK {
			t.Errorf("GET %s?%s%s=: %d, want 200 (an empty value is left out)", tt.path, tt.required, tt.name, got)
		}
		documented := p.Schema.Value.Min
		if (documented == nil) != (tt.min == nil) || documented != nil && *documented != *tt.min {
			t.Errorf("GET %s: %s's documented minimum %v, want %v", tt.path, tt.name, ptrString(documented), ptrString(tt.min))
		}
		if tt.min == nil {
			continue
		}
		for value, want := range map[int]int{int(*tt.min): http.StatusOK, int(*tt.min) - 1: http.StatusBadRequest, math.MinInt32: http.StatusBadRequest} {
			if got := status(fmt.Sprintf("%s?%s%s=%d", tt.path, tt.required, tt.name, value)); got != want {
				t.Errorf("GET %s?%s%s=%d: %d, want %d", tt.path, tt.required, tt.name, value, got, want)
			}
		}
	}
}

func ptrString(f *float64) string {
	if f == nil {
		return "none"
	}
	return fmt.Sprint(*f)
}
