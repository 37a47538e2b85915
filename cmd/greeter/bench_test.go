package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/springport/greeter/bench/reference"
	"github.com/springport/greeter/framework/boot"
)

// The benchmarks and allocation budgets below serve the five measured
// requests through the service's wired handler, as run builds it with no
// arguments (metrics on), and through the bare net/http reference in
// bench/reference, each into a reusable discard writer so that the counts
// are the handlers' own. bench/run measures the same requests over real
// connections.

// benchRequest is one of the measured requests.
type benchRequest struct {
	name   string
	method string
	target string
	body   string // sent as application/json when not empty
	status int
}

var benchRequests = []benchRequest{
	{"hello", "GET", "/api/hello", "", http.StatusOK},
	{"hi", "GET", "/api/hi", "", http.StatusOK},
	{"hello-id", "GET", "/api/hello/42", "", http.StatusOK},
	{"number", "GET", "/api/number/val-a", "", http.StatusOK},
	{"post-message", "POST", "/api/messages", `{"text":"hello world 20 bytes"}`, http.StatusCreated},
}

// discardWriter is a ResponseWriter that keeps nothing but its header map,
// which it reuses.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}

func (w *discardWriter) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}

// serveOnce is one request through h, reusing r and w; a body is re-read
// from the start each time.
type serveOnce struct {
	h    http.Handler
	r    *http.Request
	body *bytes.Reader
	w    *discardWriter
}

func newServeOnce(h http.Handler, br benchRequest) *serveOnce {
	s := &serveOnce{h: h, w: &discardWriter{h: http.Header{}}}
	var rd io.Reader
	if br.body != "" {
		s.body = bytes.NewReader([]byte(br.body))
		rd = s.body
	}
	s.r = httptest.NewRequest(br.method, br.target, rd)
	if br.body != "" {
		s.r.Header.Set("Content-Type", "application/json")
	}
	return s
}

func (s *serveOnce) serve() {
	if s.body != nil {
		s.body.Seek(0, io.SeekStart)
		s.r.Body = io.NopCloser(s.body)
	}
	s.w.reset()
	s.h.ServeHTTP(s.w, s.r)
}

// loop serves the request once, which must answer 200, then as many
// times as b asks, counting allocations.
func (s *serveOnce) loop(b *testing.B) {
	b.Helper()
	s.serve()
	if s.w.status != http.StatusOK {
		b.Fatalf("status %d", s.w.status)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.serve()
	}
}

// serviceHandler builds the service's handler as run does with no
// arguments and no environment: the embedded settings, metrics on.
func serviceHandler(tb testing.TB) http.Handler {
	tb.Helper()
	return serviceHandlerWith(tb)
}

// serviceHandlerWith is serviceHandler with arguments.
func serviceHandlerWith(tb testing.TB, args ...string) http.Handler {
	tb.Helper()
	app, err := boot.New(context.Background(), greeter(), boot.Process{Args: args, LookupEnv: noEnvironment})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { app.Close() })
	return app.Handler()
}

// noEnvironment is an environment in which no variable is set.
func noEnvironment(string) (string, bool) { return "", false }

// handlers are the two handlers compared, by name.
func handlers(tb testing.TB) []struct {
	name string
	h    http.Handler
} {
	return []struct {
		name string
		h    http.Handler
	}{
		{"service", serviceHandler(tb)},
		{"reference", reference.Handler()},
	}
}

// BenchmarkRequest serves each measured request through the service and
// through the reference:
//
//	go test -run '^$' -bench Request -benchmem -count 10 ./cmd/greeter/ | benchstat -
func BenchmarkRequest(b *testing.B) {
	for _, br := range benchRequests {
		for _, h := range handlers(b) {
			b.Run(br.name+"/"+h.name, func(b *testing.B) {
				s := newServeOnce(h.h, br)
				s.serve()
				if s.w.status != br.status {
					b.Fatalf("%s %s: status %d, want %d", br.method, br.target, s.w.status, br.status)
				}
				b.ReportAllocs()
				for b.Loop() {
					s.serve()
				}
			})
		}
	}
}
