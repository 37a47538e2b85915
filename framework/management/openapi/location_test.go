package openapi

import (
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// TestLocationResponses: a redirect is its status with a Location and no
// content; a Created is 201 with a Location and its body's schema in each
// representation; a CreatedAt is 201 with a Location alone. The route's
// author lists no header.
func TestLocationResponses(t *testing.T) {
	t.Parallel()
	doc := document(t,
		dispatch.Route{Method: "GET", Pattern: "/go", Handler: returns(dispatch.Redirect{Location: "/there"})},
		dispatch.Route{Method: "GET", Pattern: "/moved", Status: 301, Handler: returns(dispatch.Redirect{Location: "/there"})},
		dispatch.Route{Method: "POST", Pattern: "/widgets", Handler: dispatch.Exchanges(func(*dispatch.Request, widget) (dispatch.Created[widget], error) {
			return dispatch.Created[widget]{}, nil
		})},
		dispatch.Route{Method: "PUT", Pattern: "/links", Handler: returns(dispatch.CreatedAt{Location: "/links/1"})},
	)
	const uriRef = `{"format":"uri-reference","type":"string"}`
	want := map[string]string{
		"/paths/~1go/get/responses/302":                                        `{"description":"Found","headers":{"Location":{"description":"Where the client is sent.","schema":` + uriRef + `}}}`,
		"/paths/~1go/get/responses/200":                                        `<missing>`,
		"/paths/~1go/get/responses/406":                                        `<missing>`,
		"/paths/~1moved/get/responses/301/headers/Location/schema":             uriRef,
		"/paths/~1moved/get/responses/301/content":                             `<missing>`,
		"/paths/~1widgets/post/responses/201/headers/Location":                 `{"description":"The resource created.","schema":` + uriRef + `}`,
		"/paths/~1widgets/post/responses/201/content/application~1json/schema": `{"$ref":"#/components/schemas/widget"}`,
		"/paths/~1widgets/post/responses/201/content/application~1xml/schema":  `{"$ref":"#/components/schemas/widget"}`,
		"/paths/~1widgets/post/responses/406":                                  `{"$ref":"#/components/responses/NotAcceptable"}`,
		"/paths/~1links/put/responses/201":                                     `{"description":"Created","headers":{"Location":{"description":"The resource created.","schema":` + uriRef + `}}}`,
		"/components/schemas/Created[widget]":                                  `<missing>`,
	}
	for ptr, w := range want {
		if got := pointer(doc, ptr); got != w {
			t.Errorf("%s:\ngot  %s\nwant %s", ptr, got, w)
		}
	}
}
