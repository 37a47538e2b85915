package component_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/session/memstore"
)

// BenchmarkSessionCreatingRequest serves requests without a session
// cookie that resolve a session-scoped component, to a store already full:
// the path a cookieless flood takes, each request making a session and
// ending another. Its cost must not grow with the sessions held.
//
//	go test -run '^$' -bench SessionCreatingRequest -benchmem ./framework/component
func BenchmarkSessionCreatingRequest(b *testing.B) {
	store := memstore.New(memstore.Options{MaxSessions: 10_000, Logger: slog.New(slog.DiscardHandler)})
	defer store.Close()
	var r component.Registry
	counter := component.Provide(&r, component.Def[*int]{Name: "counter", Scope: component.Session,
		New: func(*component.Context) (*int, error) { return new(int), nil }})
	c, err := r.Start([]string{"default"}, component.Options{Sessions: store})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := counter.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		*n++
	}))
	req := httptest.NewRequest("GET", "/", nil)
	serve := func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 || w.Header().Get("Set-Cookie") == "" {
			b.Fatalf("%d, Set-Cookie %q; want 200 and a new session", w.Code, w.Header().Get("Set-Cookie"))
		}
	}
	for range store.Max() { // fill it
		serve()
	}
	b.ReportAllocs()
	for b.Loop() {
		serve()
	}
}
