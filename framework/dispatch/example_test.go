package dispatch_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
)

// Item is the resource of these examples.
type Item struct {
	ID   int32  `json:"id" xml:"id"`
	Name string `json:"name" xml:"name"`
}

// errNoItem is a domain error: it knows nothing of HTTP.
var errNoItem = errors.New("no such item")

// serve sends one request to h and prints the answer's status, Content-Type
// and body.
func serve(h http.Handler, r *http.Request) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("Content-Type"))
	fmt.Println(strings.TrimSpace(w.Body.String()))
}

func ExampleNew() {
	id := dispatch.Path[int32]("id")       // {id} of the pattern, converted to an int32
	items := map[int32]string{1: "kettle"} // a real store is safe for concurrent requests

	d, err := dispatch.New(dispatch.Options{},
		dispatch.Route{
			Method: "GET", Pattern: "/items/{id}", Inputs: []dispatch.Input{id},
			Handler: dispatch.Returns(func(r *dispatch.Request) (Item, error) {
				return Item{ID: id.Get(r), Name: items[id.Get(r)]}, nil
			}),
		},
		dispatch.Route{
			Method: "POST", Pattern: "/items", Status: http.StatusCreated,
			Handler: dispatch.Exchanges(func(r *dispatch.Request, body Item) (Item, error) {
				body.ID = int32(len(items) + 1)
				items[body.ID] = body.Name
				return body, nil
			}),
		},
	)
	if err != nil { // a misdeclared route is refused here, before serving
		fmt.Println(err)
		return
	}

	post := httptest.NewRequest("POST", "/items", strings.NewReader(`{"name":"teapot"}`))
	post.Header.Set("Content-Type", "application/json")
	serve(d, post)
	serve(d, httptest.NewRequest("GET", "/items/2", nil))
	bad := httptest.NewRequest("GET", "/items/two", nil) // not an int32: 400, and the handler never runs
	bad.Header.Set("X-Request-Id", "req-1")              // echoed in the problem document; one is made up without it
	serve(d, bad)
	// Output:
	// 201 application/json
	// {"id":2,"name":"teapot"}
	// 200 application/json
	// {"id":2,"name":"teapot"}
	// 400 application/problem+json
	// {"type":"about:blank","title":"Bad Request","status":400,"detail":"Failed to convert 'id' with value: 'two' (expected a 32-bit integer).","instance":"/items/two","requestId":"req-1"}
}

// Options.Classify gives domain errors their statuses in one place; the
// dispatcher answers each with an RFC 9457 problem document. An error it
// does not classify is a 500 whose text is logged, never sent.
func ExampleOptions_classify() {
	id := dispatch.Path[int32]("id")
	opts := dispatch.Options{
		Classify: func(err error) *dispatch.Error {
			if errors.Is(err, errNoItem) {
				return &dispatch.Error{Status: http.StatusNotFound, Detail: err.Error()}
			}
			return nil
		},
	}
	d, err := dispatch.New(opts, dispatch.Route{
		Method: "GET", Pattern: "/items/{id}", Inputs: []dispatch.Input{id},
		Errors: []int{http.StatusNotFound}, // for the route's description (OpenAPI)
		Handler: dispatch.Returns(func(r *dispatch.Request) (Item, error) {
			return Item{}, fmt.Errorf("item %d: %w", id.Get(r), errNoItem)
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	r := httptest.NewRequest("GET", "/items/7", nil)
	r.Header.Set("X-Request-Id", "req-7")
	serve(d, r)
	// Output:
	// 404 application/problem+json
	// {"type":"about:blank","title":"Not Found","status":404,"detail":"item 7: no such item","instance":"/items/7","requestId":"req-7"}
}

// A typed result is written in the representation the client's Accept
// header asks for: JSON or XML for a struct, plain text for a string.
// A client that accepts none of those the route produces is answered 406.
func ExampleNew_negotiation() {
	d, err := dispatch.New(dispatch.Options{}, dispatch.Route{
		Method: "GET", Pattern: "/items/first",
		Handler: dispatch.Returns(func(*dispatch.Request) (Item, error) {
			return Item{ID: 1, Name: "kettle"}, nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	for _, accept := range []string{"application/json", "application/xml", "text/csv"} {
		r := httptest.NewRequest("GET", "/items/first", nil)
		r.Header.Set("Accept", accept)
		r.Header.Set("X-Request-Id", "req-1") // the ID a problem document names
		serve(d, r)
	}
	// Output:
	// 200 application/json
	// {"id":1,"name":"kettle"}
	// 200 application/xml;charset=UTF-8
	// <Item><id>1</id><name>kettle</name></Item>
	// 406 application/problem+json
	// {"type":"about:blank","title":"Not Acceptable","status":406,"detail":"Acceptable representations: [application/json, application/*+json, application/xml, text/xml, application/*+xml].","instance":"/items/first","requestId":"req-1"}
}
