package openapi

import (
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// TestDocumentPageable: a Pageable route lists page, size and sort as
// query parameters with the bounds and defaults of the route's Paging,
// its result is a named Page component, and a query parameter's Default
// is its schema's default.
func TestDocumentPageable(t *testing.T) {
	pages := dispatch.Pageable("name", "id").DefaultSort(dispatch.Order{Property: "id", Descending: true})
	paging := &dispatch.Paging{DefaultPageSize: 25, MaxPageSize: 100, OneIndexedParameters: true, SortParameter: "order"}
	doc := document(t,
		dispatch.Route{Method: "GET", Pattern: "/widgets", Inputs: []dispatch.Input{pages}, Paging: paging,
			Handler: returns(dispatch.Page[widget]{})},
		dispatch.Route{Method: "GET", Pattern: "/plain", Inputs: []dispatch.Input{dispatch.Pageable(), dispatch.OptionalQuery[int32]("limit").Min(1).Default(10)},
			Handler: returns("x")})
	params := "/paths/~1widgets/get/parameters"
	for ptr, want := range map[string]string{
		params + "/0":         `{"allowEmptyValue":true,"description":"The page to return, the first being 1.","in":"query","name":"page","schema":{"default":1,"format":"int32","minimum":1,"type":"integer"}}`,
		params + "/1":         `{"allowEmptyValue":true,"description":"How many items a page has; a larger size than 100 is served as 100.","in":"query","name":"size","schema":{"default":25,"format":"int32","maximum":100,"minimum":1,"type":"integer"}}`,
		params + "/2/name":    `"order"`,
		params + "/2/explode": `true`,
		params + "/2/schema":  `{"default":["id,desc"],"items":{"enum":["name","name,asc","name,desc","id","id,asc","id,desc"],"type":"string"},"type":"array"}`,
		params + "/3":         `<missing>`,
		"/paths/~1widgets/get/responses/200/content/application~1json/schema": `{"$ref":"#/components/schemas/PageWidget"}`,
		"/components/schemas/PageWidget/properties/content":                   `{"items":{"$ref":"#/components/schemas/widget","xml":{"name":"content"}},"type":"array"}`,
		"/components/schemas/PageWidget/properties/page":                      `{"$ref":"#/components/schemas/PageMetadata","xml":{"name":"page"}}`,
		"/components/schemas/PageWidget/required":                             `["content","page"]`,
		"/components/schemas/PageWidget/xml":                                  `{"name":"Page"}`,
		"/components/schemas/PageMetadata/required":                           `["size","number","totalElements","totalPages"]`,
		"/paths/~1plain/get/parameters/0/schema":                              `{"default":0,"format":"int32","minimum":0,"type":"integer"}`,
		"/paths/~1plain/get/parameters/1/schema":                              `{"default":20,"format":"int32","maximum":2000,"minimum":1,"type":"integer"}`,
		"/paths/~1plain/get/parameters/2":                                     `{"allowEmptyValue":true,"in":"query","name":"limit","schema":{"default":10,"format":"int32","minimum":1,"type":"integer"}}`,
		"/paths/~1plain/get/responses/400":                                    `{"$ref":"#/components/responses/BadRequest"}`,
	} {
		if got := pointer(doc, ptr); got != want {
			t.Errorf("%s:\ngot  %s\nwant %s", ptr, got, want)
		}
	}
}
