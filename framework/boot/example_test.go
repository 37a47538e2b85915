package boot_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing/fstest"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// hello is a whole service: one setting of its own, one route.
var hello = boot.Service[string]{
	Name:      "hello",
	Resources: fstest.MapFS{"application.properties": {Data: []byte("hello.greeting=Hello\n")}},
	Bind: func(b *config.Binder) string {
		return config.Bind(b, "hello.greeting", "Hi", config.String)
	},
	Help: map[string]string{"hello.greeting": "what GET /hello answers"},
	Start: func(ctx context.Context, app *boot.App, greeting string) error {
		app.Routes(dispatch.Route{Method: "GET", Pattern: "/hello/{name}", Inputs: []dispatch.Input{name},
			Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) {
				return greeting + ", " + name.Get(r) + "!", nil
			})})
		return nil
	},
}

var name = dispatch.Path[string]("name")

// Example builds a service as Run would, from its packaged settings and
// the arguments, and serves requests through its handler: the service's
// route and the framework's endpoints.
func Example() {
	// Arguments of the example's own, no environment variables, and the
	// log lines discarded.
	app, err := boot.New(context.Background(), hello, boot.Process{Args: []string{"--hello.greeting=Bonjour"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer app.Close()
	for _, path := range []string{"/hello/Ada", "/actuator/health", "/nowhere"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("X-Request-Id", "example") // a fixed id, for the output
		req.Header.Set("Accept", "text/plain, application/json")
		app.Handler().ServeHTTP(rec, req)
		fmt.Println(rec.Code, rec.Body.String())
	}
	// Output:
	// 200 Bonjour, Ada!
	// 200 {"status":"UP","groups":["liveness","readiness"]}
	// 404 {"type":"about:blank","title":"Not Found","status":404,"detail":"No endpoint GET /nowhere.","instance":"/nowhere","requestId":"example"}
}

// ExampleMain is a service's main: Main runs the service with the
// process's arguments and environment until SIGTERM, and exits with status
// 1, having printed the failure report, when it cannot start.
func ExampleMain() {
	boot.Main(hello)
}

// ExampleSettings lists a service's settings as --help does: its own
// first, then the framework's.
func ExampleSettings() {
	settings, err := boot.Settings(hello)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range settings[:3] {
		fmt.Printf("%s=%s (own: %v): %s\n", s.Key, s.Default, s.Own, s.Help)
	}
	// Output:
	// hello.greeting=Hello (own: true): what GET /hello answers
	// server.port=8080 (own: false): listening port; 0 picks a free one
	// server.address= (own: false): the network address (an IP, v4 or v6, or a host name) server.port listens on; none: every interface
}
