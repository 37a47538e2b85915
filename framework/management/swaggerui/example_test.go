package swaggerui_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/openapi"
	"github.com/springport/greeter/framework/management/swaggerui"
)

// The page is served beside a service's routes and the OpenAPI document
// it reads (see package openapi); users open Entry.
func ExampleRoutes() {
	for _, r := range swaggerui.Routes() {
		fmt.Println(r.Method, r.Pattern)
	}

	var routes []dispatch.Route // the service's own
	routes = append(routes, openapi.Routes(openapi.Info{Title: "Items", Version: "1.0"}, routes)...)
	d, err := dispatch.New(dispatch.Options{}, append(routes, swaggerui.Routes()...)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	entry := get(swaggerui.Entry)
	fmt.Println(swaggerui.Entry, entry.Code, entry.Header().Get("Location"))
	// The script that starts the page reads the document at a relative
	// URL, so that the page works behind any path prefix.
	script := get("/swagger-ui/swagger-initializer.js")
	fmt.Println(script.Code, strings.Contains(script.Body.String(), `url: "../v3/api-docs"`))
	// Output:
	// GET /swagger-ui.html
	// GET /swagger-ui/{file...}
	// /swagger-ui.html 302 /swagger-ui/index.html
	// 200 true
}
