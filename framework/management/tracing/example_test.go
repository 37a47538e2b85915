package tracing_test

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/tracing"
)

// withoutTime drops the time from each line, so that the output is the
// same from run to run.
func withoutTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// Without an endpoint to send spans to, tracing records none, but the
// dispatcher's tracer still carries a caller's trace into each request's
// context: a line logged with that context, through LogHandler, names the
// trace, and so does a problem document, so that one request can be
// followed through every service it crossed.
func ExampleNew() {
	t, err := tracing.New(tracing.Options{Enabled: true, DefaultService: "items"}) // no Endpoint
	if err != nil {
		fmt.Println(err)
		return
	}
	defer t.Shutdown()
	fmt.Println("recording:", t.Recording())

	logger := slog.New(tracing.LogHandler(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: withoutTime})))
	d, err := dispatch.New(dispatch.Options{Tracer: t.Tracer()}, dispatch.Route{
		Method: "GET", Pattern: "/items",
		Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) {
			logger.InfoContext(r.Context(), "listing items")
			return "kettle", nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	get := func(path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01") // the caller's
		r.Header.Set("X-Request-Id", "req-1")
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		return w
	}
	get("/items")
	missing := get("/nowhere")
	fmt.Println(missing.Code, missing.Body.String())
	logger.Info("no request, no trace")
	// Output:
	// recording: false
	// level=INFO msg="listing items" trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7
	// 404 {"type":"about:blank","title":"Not Found","status":404,"detail":"No endpoint GET /nowhere.","instance":"/nowhere","requestId":"req-1","traceId":"4bf92f3577b34da6a3ce929d0e0e4736"}
	// level=INFO msg="no request, no trace"
}
