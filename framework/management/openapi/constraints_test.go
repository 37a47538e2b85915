package openapi

import (
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// signup declares every constraint a body field can.
type signup struct {
	Name   string            `json:"name" xml:"name" validate:"required,size=1..64"`
	Email  *string           `json:"email" xml:"email" validate:"required,email"`
	Home   *string           `json:"home,omitempty" xml:"home" validate:"url"`
	Age    int               `json:"age" xml:"age" validate:"min=18,max=130"`
	Level  uint8             `json:"level" xml:"level" validate:"min=1,max=1000"`
	Slug   string            `json:"slug" xml:"slug" pattern:"^[a-z0-9-]+$"`
	Code   string            `json:"code" xml:"code" pattern:"[A-Z]{2}"`
	Color  string            `json:"color" xml:"color" validate:"enum=red|green|blue"`
	Tags   []string          `json:"tags" xml:"tags" validate:"size=1..5"`
	Labels map[string]string `json:"labels" xml:"labels" validate:"size=..3"`
	Plain  int               `json:"plain" xml:"plain"`
}

// TestConstraintKeywords: each constraint a body field or a parameter
// declares is its schema's keyword, the required list is what the
// dispatcher enforces, and the problem schema lists violations.
func TestConstraintKeywords(t *testing.T) {
	t.Parallel()
	q := dispatch.OptionalQuery[string]("q").Size(2, 10).Pattern("^[a-z]+$")
	sort := dispatch.OptionalQuery[string]("sort").OneOf("asc", "desc")
	mail := dispatch.OptionalQuery[string]("mail").Email()
	site := dispatch.OptionalQuery[string]("site").URL()
	limit := dispatch.OptionalQuery[int32]("limit").Min(1).Max(50)
	doc := document(t, dispatch.Route{Method: "POST", Pattern: "/signups", Inputs: []dispatch.Input{q, sort, mail, site, limit},
		Handler: accepts[signup]()})
	const props = "/components/schemas/signup/properties"
	const params = "/paths/~1signups/post/parameters"
	tests := []struct{ ptr, want string }{
		{"/components/schemas/signup/required", `["name","email"]`},
		{props + "/name", `{"maxLength":64,"minLength":1,"type":"string"}`},
		{props + "/email", `{"format":"email","type":"string"}`},
		{props + "/home", `{"format":"uri","type":"string"}`},
		{props + "/age", `{"format":"int64","maximum":130,"minimum":18,"type":"integer"}`},
		{props + "/level", `{"format":"int32","maximum":255,"minimum":1,"type":"integer"}`},
		{props + "/slug", `{"pattern":"^[a-z0-9-]+$","type":"string"}`},
		{props + "/code", `{"pattern":"^(?:[A-Z]{2})$","type":"string"}`},
		{props + "/color", `{"enum":["red","green","blue"],"type":"string"}`},
		{props + "/tags", `{"items":{"type":"string"},"maxItems":5,"minItems":1,"type":"array"}`},
		{props + "/labels", `{"additionalProperties":{"type":"string"},"maxProperties":3,"type":"object"}`},
		{props + "/plain", `{"format":"int64","type":"integer"}`},
		{params + "/0/schema", `{"maxLength":10,"minLength":2,"pattern":"^[a-z]+$","type":"string"}`},
		{params + "/1/schema", `{"enum":["asc","desc"],"type":"string"}`},
		{params + "/2/schema", `{"format":"email","type":"string"}`},
		{params + "/3/schema", `{"format":"uri","type":"string"}`},
		{params + "/4/schema", `{"format":"int32","maximum":50,"minimum":1,"type":"integer"}`},
		{"/components/schemas/Problem/properties/errors/items/required", `["detail"]`},
		{"/components/schemas/Problem/properties/errors/items/properties/pointer/format", `"uri-reference"`},
	}
	for _, tt := range tests {
		if got := pointer(doc, tt.ptr); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.ptr, got, tt.want)
		}
	}
	if got := pointer(doc, "/components/schemas/Problem/required"); got != `["type","title","status","instance"]` {
		t.Errorf("errors must stay optional: required %s", got)
	}
}
