package openapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/springport/greeter/framework/dispatch"
)

// widget is a result and body type for the tests.
type widget struct {
	ID   int64   `json:"id" xml:"id,attr"`
	Name string  `json:"name" xml:"name"`
	Note *string `json:"note,omitempty" xml:"note"`
}

// order refers to another component and to itself.
type order struct {
	Items []widget `json:"items" xml:"item"`
	Next  *order   `json:"next,omitempty"`
}

// report chooses its own status, as a health report that is DOWN does.
type report struct {
	Status string `json:"status"`
}

func (report) StatusCode() int { return http.StatusServiceUnavailable }

func returns[T any](v T) dispatch.Handler {
	return dispatch.Returns(func(*dispatch.Request) (T, error) { return v, nil })
}

func accepts[B any]() dispatch.Handler {
	return dispatch.Accepts(func(*dispatch.Request, B) error { return nil })
}

func runs() dispatch.Handler { return dispatch.Runs(func(*dispatch.Request) error { return nil }) }

// document builds the routes with the dispatcher, so that their
// descriptions are the real ones, and returns their document as JSON would
// decode it.
func document(t *testing.T, routes ...dispatch.Route) any {
	t.Helper()
	infos, err := dispatch.Describe(routes...)
	if err != nil {
		t.Fatal(err)
	}
	return decoded(t, Document(Info{Title: "test", Version: "1.0"}, infos))
}

func decoded(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// pointer returns the value at a JSON pointer (RFC 6901) as compact JSON,
// or "<missing>".
func pointer(doc any, ptr string) string {
	v := doc
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return "<missing>"
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return "<missing>"
			}
			v = c[i]
		default:
			return "<missing>"
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDocument(t *testing.T) {
	note := "n"
	tests := []struct {
		name   string
		routes []dispatch.Route
		want   map[string]string // JSON pointer: compact JSON
	}{
		{
			name:   "bodiless success with a path variable",
			routes: []dispatch.Route{{Method: "DELETE", Pattern: "/w/{id}", Status: 204, Inputs: []dispatch.Input{dispatch.Path[int64]("id")}, Handler: runs()}},
			want: map[string]string{
				"/openapi":                                                      "\"3.1.0\"",
				"/info":                                                         `{"title":"test","version":"1.0"}`,
				"/paths/~1w~1{id}/delete/operationId":                           `"deleteWById"`,
				"/paths/~1w~1{id}/delete/parameters":                            `[{"in":"path","name":"id","required":true,"schema":{"format":"int64","type":"integer"}}]`,
				"/paths/~1w~1{id}/delete/responses/204":                         `{"description":"No Content"}`,
				"/paths/~1w~1{id}/delete/responses/400":                         `{"$ref":"#/components/responses/BadRequest"}`,
				"/paths/~1w~1{id}/delete/responses/404":                         `{"$ref":"#/components/responses/NotFound"}`,
				"/paths/~1w~1{id}/delete/responses/405":                         `{"$ref":"#/components/responses/MethodNotAllowed"}`,
				"/paths/~1w~1{id}/delete/responses/500":                         `{"$ref":"#/components/responses/InternalServerError"}`,
				"/paths/~1w~1{id}/delete/responses/406":                         `<missing>`,
				"/paths/~1w~1{id}/delete/requestBody":                           `<missing>`,
				"/components/responses/NotFound":                                `{"content":{"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem","properties":{"status":{"const":404}}}}},"description":"Not Found"}`,
				"/components/responses/MethodNotAllowed/headers/Allow/required": `true`,
				"/components/schemas/Problem/required":                          `["type","title","status","instance"]`,
			},
		},
		{
			name: "summary, tags and security",
			routes: []dispatch.Route{
				{Method: "GET", Pattern: "/a", Summary: "The a", Tags: []string{"letters"}, Handler: returns("A")},
				{Method: "GET", Pattern: "/a", Params: []string{"loud"}, Tags: []string{"letters", "loud"}, Handler: returns("A!")},
			},
			want: map[string]string{
				"/paths/~1a/get/summary":  `"The a"`,
				"/paths/~1a/get/tags":     `["letters","loud"]`,
				"/paths/~1a/get/security": `[]`,
				"/servers":                `[{"description":"this service","url":"/"}]`,
			},
		},
		{
			name: "described parameters and response headers",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/list", Handler: returns("Hi"),
				Inputs:  []dispatch.Input{dispatch.OptionalQuery[int32]("page").Describe("The page, from 0.")},
				Headers: []dispatch.ResponseHeader{{Name: "X-Total-Count", Type: reflect.TypeFor[int64](), Description: "How many in all."}},
			}},
			want: map[string]string{
				"/paths/~1list/get/parameters":                        `[{"allowEmptyValue":true,"description":"The page, from 0.","in":"query","name":"page","schema":{"format":"int32","type":"integer"}}]`,
				"/paths/~1list/get/responses/200/headers":             `{"X-Total-Count":{"description":"How many in all.","schema":{"format":"int64","type":"integer"}}}`,
				"/paths/~1list/get/responses/200/content/text~1plain": `{"schema":{"type":"string"}}`,
			},
		},
		{
			name:   "plain text result",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/hi", Handler: returns("Hi")}},
			want: map[string]string{
				"/paths/~1hi/get/responses/200": `{"content":{"text/plain":{"schema":{"type":"string"}}},"description":"OK"}`,
				"/paths/~1hi/get/responses/406": `{"$ref":"#/components/responses/NotAcceptable"}`,
			},
		},
		{
			name: "bytes in a declared type",
			routes: []dispatch.Route{
				{Method: "GET", Pattern: "/csv", Produces: []string{"text/csv"}, Handler: returns([]byte("a,b"))},
				{Method: "GET", Pattern: "/raw.json", Produces: []string{"application/json"}, Handler: returns([]byte("{}"))},
			},
			want: map[string]string{
				"/paths/~1csv/get/responses/200/content":      `{"text/csv":{"schema":{"type":"string"}}}`,
				"/paths/~1raw.json/get/responses/200/content": `{"application/json":{"schema":{}}}`,
				"/paths/~1raw.json/get/operationId":           `"getRawJson"`,
			},
		},
		{
			name:   "scalar result as JSON and XML",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/n", Handler: returns(int64(5))}},
			want: map[string]string{
				"/paths/~1n/get/responses/200/content/application~1json":       `{"schema":{"format":"int64","type":"integer"}}`,
				"/paths/~1n/get/responses/200/content/application~1*+json":     `{"schema":{"format":"int64","type":"integer"}}`,
				"/paths/~1n/get/responses/200/content/application~1xml":        `{"schema":{"format":"int64","type":"integer","xml":{"name":"Long"}}}`,
				"/paths/~1n/get/responses/200/content/text~1xml;charset=UTF-8": `{"schema":{"format":"int64","type":"integer","xml":{"name":"Long"}}}`,
			},
		},
		{
			name:   "struct result is a component; a list is <List> of <item>",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/w", Handler: returns([]widget{{Note: &note}})}},
			want: map[string]string{
				"/paths/~1w/get/responses/200/content/application~1json/schema": `{"items":{"$ref":"#/components/schemas/widget"},"type":"array"}`,
				"/paths/~1w/get/responses/200/content/application~1xml/schema":  `{"items":{"$ref":"#/components/schemas/widget","xml":{"name":"item"}},"type":"array","xml":{"name":"List","wrapped":true}}`,
				"/components/schemas/widget":                                    `{"properties":{"id":{"format":"int64","type":"integer","xml":{"attribute":true,"name":"id"}},"name":{"type":"string"},"note":{"type":"string"}},"required":["id","name"],"type":"object","xml":{"name":"widget"}}`,
			},
		},
		{
			name:   "body read in the declared types only",
			routes: []dispatch.Route{{Method: "POST", Pattern: "/w", Consumes: []string{"application/json"}, Status: 201, Handler: accepts[widget]()}},
			want: map[string]string{
				"/paths/~1w/post/requestBody":                                               `{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/widget"}}},"required":true}`,
				"/paths/~1w/post/responses/201":                                             `{"description":"Created"}`,
				"/paths/~1w/post/responses/413":                                             `{"$ref":"#/components/responses/RequestEntityTooLarge"}`,
				"/paths/~1w/post/responses/415":                                             `{"$ref":"#/components/responses/UnsupportedMediaType"}`,
				"/components/responses/UnsupportedMediaType/headers/Accept/required":        `true`,
				"/components/responses/UnsupportedMediaType/headers/Accept-Encoding/schema": `{"type":"string"}`,
				"/paths/~1w/post/responses/408":                                             `{"$ref":"#/components/responses/RequestTimeout"}`,
			},
		},
		{
			name:   "body and result in JSON and XML",
			routes: []dispatch.Route{{Method: "PUT", Pattern: "/o", Handler: dispatch.Exchanges(func(*dispatch.Request, order) (order, error) { return order{}, nil })}},
			want: map[string]string{
				"/paths/~1o/put/requestBody/content/text~1xml/schema":           `{"$ref":"#/components/schemas/order"}`,
				"/paths/~1o/put/requestBody/content/application~1*+xml/schema":  `{"$ref":"#/components/schemas/order"}`,
				"/paths/~1o/put/responses/200/content/application~1json/schema": `{"$ref":"#/components/schemas/order"}`,
				"/components/schemas/order/properties/items":                    `{"items":{"$ref":"#/components/schemas/widget","xml":{"name":"item"}},"type":"array"}`,
				"/components/schemas/order/properties/next":                     `{"$ref":"#/components/schemas/order","xml":{"name":"Next"}}`,
				"/components/schemas/order/required":                            `["items"]`,
			},
		},
		{
			name: "query parameters",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/s", Inputs: []dispatch.Input{
				dispatch.Query[string]("q"), dispatch.OptionalQuery[uuid.UUID]("u"), dispatch.OptionalQuery[int32]("n"),
			}, Handler: runs()}},
			want: map[string]string{
				"/paths/~1s/get/parameters": `[{"in":"query","name":"q","required":true,"schema":{"type":"string"}},` +
					`{"allowEmptyValue":true,"in":"query","name":"u","schema":{"format":"uuid","type":"string"}},` +
					`{"allowEmptyValue":true,"in":"query","name":"n","schema":{"format":"int32","type":"integer"}}]`,
			},
		},
		{
			// The dispatcher refuses what is below a minimum, so the
			// document says so; the int64 schema shared by "m" is not
			// changed by its minimum.
			name: "minimums",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/p/{i}", Inputs: []dispatch.Input{
				dispatch.Path[int64]("i").Min(-3), dispatch.Query[int32]("size").Min(1), dispatch.OptionalQuery[int64]("m"),
			}, Handler: runs()}},
			want: map[string]string{
				"/paths/~1p~1{i}/get/parameters": `[{"in":"path","name":"i","required":true,"schema":{"format":"int64","minimum":-3,"type":"integer"}},` +
					`{"in":"query","name":"size","required":true,"schema":{"format":"int32","minimum":1,"type":"integer"}},` +
					`{"allowEmptyValue":true,"in":"query","name":"m","schema":{"format":"int64","type":"integer"}}]`,
			},
		},
		{
			name: "path parameters in the path's order",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/a/{x}/b/{y}", Inputs: []dispatch.Input{
				dispatch.Query[int64]("q"), dispatch.Path[string]("y"), dispatch.Path[int32]("x"),
			}, Handler: runs()}},
			want: map[string]string{
				"/paths/~1a~1{x}~1b~1{y}/get/parameters/0/name": `"x"`,
				"/paths/~1a~1{x}~1b~1{y}/get/parameters/1/name": `"y"`,
				"/paths/~1a~1{x}~1b~1{y}/get/parameters/2/name": `"q"`,
				"/paths/~1a~1{x}~1b~1{y}/get/operationId":       `"getAByXBByY"`,
			},
		},
		{
			name: "ServeMux patterns become OpenAPI paths",
			routes: []dispatch.Route{
				{Method: "GET", Pattern: "/{$}", Handler: runs()},
				{Method: "GET", Pattern: "/files/{path...}", Inputs: []dispatch.Input{dispatch.Path[string]("path")}, Handler: runs()},
			},
			want: map[string]string{
				"/paths/~1/get/operationId":                    `"get"`,
				"/paths/~1files~1{path}/get/parameters/0/name": `"path"`,
			},
		},
		{
			name: "routes sharing a method and path are one operation",
			routes: []dispatch.Route{
				{Method: "GET", Pattern: "/m", Params: []string{"mode=a"}, Handler: returns(int32(1))},
				{Method: "GET", Pattern: "/m", Params: []string{"mode=b", "!debug"}, Handler: returns(widget{})},
			},
			want: map[string]string{
				"/paths/~1m/get/parameters": `[{"in":"query","name":"mode","required":true,"schema":{"type":"string"}}]`,
				"/paths/~1m/get/description": `"Chosen when the request's parameters satisfy mode=a.\nChosen when the request's parameters satisfy mode=b and !debug.\n` +
					`Several routes share this method and path; the dispatcher chooses by their conditions, and the request body and responses list what any of them reads and writes."`,
				"/paths/~1m/get/responses/200/content/application~1json/schema": `{"oneOf":[{"format":"int32","type":"integer"},{"$ref":"#/components/schemas/widget"}]}`,
			},
		},
		{
			name: "a condition on one route only does not make its parameter required",
			routes: []dispatch.Route{
				{Method: "GET", Pattern: "/m", Params: []string{"mode"}, Handler: runs()},
				{Method: "GET", Pattern: "/m", Handler: runs()},
			},
			want: map[string]string{
				"/paths/~1m/get/parameters": `[{"in":"query","name":"mode","schema":{"type":"string"}}]`,
			},
		},
		{
			name:   "declared error statuses",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/c", Errors: []int{409, 503}, Handler: runs()}},
			want: map[string]string{
				"/paths/~1c/get/responses/409": `{"$ref":"#/components/responses/Conflict"}`,
				"/paths/~1c/get/responses/503": `{"$ref":"#/components/responses/ServiceUnavailable"}`,
				"/components/responses/Conflict/content/application~1problem+json/schema/properties/status": `{"const":409}`,
			},
		},
		{
			name:   "a result that chooses its status",
			routes: []dispatch.Route{{Method: "GET", Pattern: "/health", Produces: []string{"application/json"}, Handler: returns(report{})}},
			want: map[string]string{
				"/paths/~1health/get/responses/200":     `{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/report"}}},"description":"OK"}`,
				"/paths/~1health/get/responses/default": `{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/report"}}},"description":"The status the result chose."}`,
			},
		},
		{
			name: "operation ids are unique",
			routes: []dispatch.Route{
				{Method: "GET", Pattern: "/a-b", Handler: runs()},
				{Method: "GET", Pattern: "/a_b", Handler: runs()},
				{Method: "GET", Pattern: "/aB", Handler: runs()},
			},
			want: map[string]string{
				"/paths/~1a-b/get/operationId": `"getAB"`,
				"/paths/~1a_b/get/operationId": `"getAB2"`,
				"/paths/~1aB/get/operationId":  `"getAB3"`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := document(t, tt.routes...)
			for ptr, want := range tt.want {
				if got := pointer(doc, ptr); got != want {
					t.Errorf("%s:\ngot  %s\nwant %s", ptr, got, want)
				}
			}
		})
	}
}

// TestDocumentIsDeterministic builds the same document twice: the JSON and
// the YAML must not change, so the served document is stable.
func TestDocumentIsDeterministic(t *testing.T) {
	routes := []dispatch.Route{
		{Method: "GET", Pattern: "/w", Handler: returns([]widget{})},
		{Method: "PUT", Pattern: "/o", Handler: dispatch.Exchanges(func(*dispatch.Request, order) (order, error) { return order{}, nil })},
	}
	infos, err := dispatch.Describe(routes...)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(Document(Info{}, infos))
	b, _ := json.Marshal(Document(Info{}, infos))
	if string(a) != string(b) {
		t.Errorf("two documents for one table differ:\n%s\n%s", a, b)
	}
	ya, erra := encodeYAML(Document(Info{}, infos))
	yb, errb := encodeYAML(Document(Info{}, infos))
	if erra != nil || errb != nil {
		t.Fatal(erra, errb)
	}
	if string(ya) != string(yb) {
		t.Errorf("two YAML documents for one table differ:\n%s\n%s", ya, yb)
	}
}

// TestDocumentInfo checks what the document says of the service as a
// whole: its description, licence and tags.
func TestDocumentInfo(t *testing.T) {
	doc := decoded(t, Document(Info{Title: "t", Version: "1", Description: "Does things.", License: "MIT",
		Tags: []Tag{{Name: "letters", Description: "The alphabet."}}}, nil))
	for ptr, want := range map[string]string{
		"/info":  `{"description":"Does things.","license":{"identifier":"MIT","name":"MIT"},"title":"t","version":"1"}`,
		"/tags":  `[{"description":"The alphabet.","name":"letters"}]`,
		"/paths": `{}`,
	} {
		if got := pointer(doc, ptr); got != want {
			t.Errorf("%s\ngot  %s\nwant %s", ptr, got, want)
		}
	}
	if got := pointer(decoded(t, Document(Info{Title: "t", Version: "1"}, nil)), "/tags"); got != "<missing>" {
		t.Errorf("a document without tags has /tags %s", got)
	}
}

// TestDocumentSecurity: with security, the document names the schemes
// (which gives Swagger UI its Authorize button) and each operation says
// whether it needs one: any of them, or none when the rules leave it
// open.
func TestDocumentSecurity(t *testing.T) {
	infos, err := dispatch.Describe(
		dispatch.Route{Method: "GET", Pattern: "/open", Handler: returns("hi")},
		dispatch.Route{Method: "GET", Pattern: "/closed/{id}", Inputs: []dispatch.Input{dispatch.Path[int64]("id")}, Handler: returns("hi")},
	)
	if err != nil {
		t.Fatal(err)
	}
	open := func(path string) bool { return path == "/open" }
	for _, tt := range []struct {
		name     string
		security *Security
		want     map[string]string
	}{
		{"off", nil, map[string]string{
			"/components/securitySchemes":        `<missing>`,
			"/paths/~1open/get/security":         `[]`,
			"/paths/~1closed~1{id}/get/security": `[]`,
		}},
		{"basic", &Security{Basic: true, Open: open}, map[string]string{
			"/components/securitySchemes":        `{"basicAuth":{"scheme":"basic","type":"http"}}`,
			"/paths/~1open/get/security":         `[]`,
			"/paths/~1closed~1{id}/get/security": `[{"basicAuth":[]}]`,
		}},
		{"basic and bearer", &Security{Basic: true, Bearer: true, Open: open}, map[string]string{
			"/components/securitySchemes/bearerAuth": `{"bearerFormat":"JWT","scheme":"bearer","type":"http"}`,
			"/paths/~1closed~1{id}/get/security":     `[{"basicAuth":[]},{"bearerAuth":[]}]`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := decoded(t, Document(Info{Title: "t", Version: "1", Security: tt.security}, infos))
			for ptr, want := range tt.want {
				if got := pointer(doc, ptr); got != want {
					t.Errorf("%s:\ngot  %s\nwant %s", ptr, got, want)
				}
			}
		})
	}
}
