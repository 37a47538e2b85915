package boottest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// hello is the service under test: one setting of its own, one route.
var hello = boot.Service[string]{
	Name:      "hello",
	Resources: fstest.MapFS{"application.properties": {Data: []byte("hello.greeting=Hello\n")}},
	Bind: func(b *config.Binder) string {
		return config.Bind(b, "hello.greeting", "Hi", config.String)
	},
	Start: func(ctx context.Context, app *boot.App, greeting string) error {
		app.Routes(dispatch.Route{Method: "GET", Pattern: "/hello/{name}", Inputs: []dispatch.Input{name},
			Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) {
				return greeting + ", " + name.Get(r) + "!", nil
			})})
		return nil
	},
}

var name = dispatch.Path[string]("name")

// A test starts the whole service on a free port, with its arguments and
// environment variables, and talks to it over HTTP; the service stops when
// the test ends. The body below is a test's, func TestHello(t *testing.T).
//
// It is compiled, not run: it needs the test's *testing.T.
func ExampleStart() {
	var t *testing.T // the test's own

	s := boottest.Start(t, hello, []string{"--hello.greeting=Bonjour"}, nil)
	resp, err := http.Get(s.URL + "/hello/Ada")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if got, want := string(body), "Bonjour, Ada!"; got != want {
		t.Errorf("GET /hello/Ada = %q; want %q", got, want)
	}
	if err := s.Stop(); err != nil { // as SIGTERM would: a graceful shutdown
		t.Errorf("the service did not stop cleanly: %v", err)
	}
}

// A test that sends the service a real signal runs it as a child process:
// the test binary itself, which runs the service's main when TestMain
// calls RunAsMain first:
//
//	func TestMain(m *testing.M) {
//		boottest.RunAsMain(main)
//		os.Exit(m.Run())
//	}
//
// The body below is a test's. It is compiled, not run: it needs the test's
// *testing.T.
func ExampleStartProcess() {
	var t *testing.T // the test's own

	p := boottest.StartProcess(t, "--server.shutdown-timeout=5s")
	p.Signal(t, syscall.SIGTERM)
	if err := p.Wait(t); err != nil {
		t.Errorf("after SIGTERM: %v; stdout ends:\n%s", err, boottest.Tail(p.Stdout.String(), 20))
	}
}

// Env gives a service environment variables of the test's choosing rather
// than the process's, here to boot.New, which builds a service without
// serving it. An environment variable sets the setting it names in
// capitals, as in Spring Boot.
func ExampleEnv() {
	env := boottest.Env(map[string]string{"HELLO_GREETING": "Hallo"})
	app, err := boot.New(context.Background(), hello, boot.Process{LookupEnv: env})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer app.Close()

	rec := httptest.NewRecorder()
	app.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/hello/Ada", nil))
	fmt.Println(rec.Code, rec.Body.String())
	// Output:
	// 200 Hallo, Ada!
}

// Tail keeps the end of a program's output, for a failure's message.
func ExampleTail() {
	stdout := "level=INFO msg=starting\nlevel=INFO msg=\"Started hello in 0.012 seconds (process running for 0.020)\" addr=127.0.0.1:8080\nlevel=ERROR msg=\"request failed\"\n"
	fmt.Println(boottest.Tail(stdout, 2))
	// Output:
	// level=INFO msg="Started hello in 0.012 seconds (process running for 0.020)" addr=127.0.0.1:8080
	// level=ERROR msg="request failed"
}
