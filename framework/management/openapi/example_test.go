package openapi_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http/httptest"
	"slices"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/openapi"
)

// Item is the resource of these examples.
type Item struct {
	ID   int32  `json:"id"`
	Name string `json:"name"`
	Note string `json:"note,omitempty"` // optional: encoding/json may leave it out
}

var id = dispatch.Path[int32]("id")

// routes are a service's routes, as it gives them to its dispatcher.
var routes = []dispatch.Route{{
	Method: "GET", Pattern: "/items/{id}", Summary: "Get an item", Tags: []string{"items"},
	Inputs: []dispatch.Input{id}, Errors: []int{404},
	Handler: dispatch.Returns(func(r *dispatch.Request) (Item, error) { return Item{ID: id.Get(r)}, nil }),
}}

// The document is served beside the routes it describes, at /v3/api-docs
// (and /v3/api-docs.yaml), where tools such as Swagger UI and client
// generators look for it. The operation lists every status the dispatcher
// can answer for the route: 400 for an id that is not an int32, the 404 the
// route declares, 405, 406 and 500.
func ExampleRoutes() {
	info := openapi.Info{Title: "Items", Version: "1.0", Tags: []openapi.Tag{{Name: "items", Description: "The store's items"}}}
	d, err := dispatch.New(dispatch.Options{}, append(routes, openapi.Routes(info, routes)...)...)
	if err != nil {
		fmt.Println(err)
		return
	}

	rec := httptest.NewRecorder()
	d.ServeHTTP(rec, httptest.NewRequest("GET", "/v3/api-docs", nil))
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct{ Title, Version string }
		Paths   map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Summary     string
			Responses   map[string]any
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Code, doc.OpenAPI, doc.Info.Title, doc.Info.Version)
	op := doc.Paths["/items/{id}"]["get"]
	fmt.Println(op.OperationID, op.Summary, slices.Sorted(maps.Keys(op.Responses)))
	// Output:
	// 200 3.1.0 Items 1.0
	// getItemsById Get an item [200 400 404 405 406 500]
}

// Document builds the document itself from the routes' descriptions; its
// schemas are those of the Go types the routes read and write.
func ExampleDocument() {
	described, err := dispatch.Describe(routes...)
	if err != nil {
		fmt.Println(err)
		return
	}
	doc := openapi.Document(openapi.Info{Title: "Items", Version: "1.0"}, described)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	item := schemas["Item"].(map[string]any)
	props := item["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name].(map[string]any)
		line := fmt.Sprint(name, ": ", p["type"])
		if format, ok := p["format"]; ok {
			line += fmt.Sprint(" (", format, ")")
		}
		if slices.Contains(item["required"].([]string), name) {
			line += ", required"
		}
		fmt.Println(line)
	}
	// Output:
	// id: integer (int32), required
	// name: string, required
	// note: string
}
