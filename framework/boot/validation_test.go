package boot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// An order of a service of the test's own, with constraints on its body
// and its parameters.
type (
	orderBody struct {
		Name  string      `json:"name" validate:"required,size=1..64"`
		Email string      `json:"email" validate:"email"`
		Items []orderItem `json:"items" validate:"required"`
	}
	orderItem struct {
		SKU   string `json:"sku" pattern:"^[A-Z]{3}-[0-9]+$"`
		Count int    `json:"count" validate:"min=1,max=100"`
	}
)

var (
	shop   = dispatch.Path[string]("shop").Size(1, 8)
	expand = dispatch.OptionalQuery[string]("expand").OneOf("items", "none")
)

func ordersService() boot.Service[struct{}] {
	return boot.Service[struct{}]{
		Name: "orders",
		Bind: func(*config.Binder) struct{} { return struct{}{} },
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(dispatch.Route{Method: "POST", Pattern: "/shops/{shop}/orders", Inputs: []dispatch.Input{shop, expand}, Status: http.StatusCreated,
				Handler: dispatch.Exchanges(func(_ *dispatch.Request, o orderBody) (orderBody, error) { return o, nil })})
			return nil
		},
	}
}

// TestValidationThroughTheProgram: a request whose parameters and body
// break several constraints is answered, through the whole program, with
// one 400 problem document listing every violation; a valid one reaches
// the handler; the OpenAPI document describes the constraints.
func TestValidationThroughTheProgram(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, ordersService(), nil, nil)
	url := s.URL + "/shops/much-too-long/orders?expand=all"
	r := send(t, nil, "POST", url, `{"name":" ","email":"nobody","items":[{"sku":"ABC-1","count":1},{"sku":"abc","count":101}]}`,
		"Content-Type: application/json")
	if r.status != http.StatusBadRequest {
		t.Fatalf("%s: %d %s", r.request, r.status, r.body)
	}
	p := problemOf(t, r)
	if p.Detail != "Invalid request content." || p.Instance != "/shops/much-too-long/orders" || p.RequestID == "" {
		t.Errorf("problem %+v", p)
	}
	doc := decode[struct {
		Errors []map[string]string `json:"errors"`
	}](t, r)
	want := []map[string]string{
		{"parameter": "shop", "detail": "size must be between 1 and 8"},
		{"parameter": "expand", "detail": "must be one of: items, none"},
		{"pointer": "#/name", "detail": "must not be blank"},
		{"pointer": "#/email", "detail": "must be a well-formed email address"},
		{"pointer": "#/items/1/sku", "detail": `must match "^[A-Z]{3}-[0-9]+$"`},
		{"pointer": "#/items/1/count", "detail": "must be less than or equal to 100"},
	}
	if !slices.EqualFunc(doc.Errors, want, func(a, b map[string]string) bool {
		return len(a) == len(b) && a["detail"] == b["detail"] && a["pointer"] == b["pointer"] && a["parameter"] == b["parameter"]
	}) {
		t.Errorf("errors\ngot  %v\nwant %v", doc.Errors, want)
	}

	r = send(t, nil, "POST", s.URL+"/shops/main/orders?expand=items", `{"name":"Ada","items":[{"sku":"ABC-1","count":2}]}`,
		"Content-Type: application/json")
	if r.status != http.StatusCreated {
		t.Errorf("a valid order: %d %s", r.status, r.body)
	}

	r = send(t, nil, "GET", s.URL+"/v3/api-docs", "")
	var api struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(r.body), &api); err != nil {
		t.Fatal(err)
	}
	var item struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	json.Unmarshal(api.Components.Schemas["orderItem"], &item)
	if item.Properties["sku"]["pattern"] != "^[A-Z]{3}-[0-9]+$" || item.Properties["count"]["maximum"] != float64(100) {
		t.Errorf("the document's orderItem: %s", api.Components.Schemas["orderItem"])
	}
}
