package dispatch

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

var errFails = errors.New("fails")

// health chooses its status by its own field, as a health report does.
type health struct {
	Status string `json:"status"`
}

var healthStatuses = map[string]int{"UP": http.StatusOK, "DOWN": http.StatusServiceUnavailable}

func (h health) StatusCode() int { return healthStatuses[h.Status] }

func TestObservations(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []Observation
	d, err := New(Options{RequestIDs: true, Observers: []func(Observation){func(o Observation) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, o)
	}}},
		Route{Method: "GET", Pattern: "/items/{id}", Inputs: []Input{Path[int32]("id")},
			Handler: Returns(func(*Request) (string, error) { return "item", nil })},
		Route{Method: "GET", Pattern: "/fails", Handler: Returns(func(*Request) (string, error) { return "", errFails })},
		Route{Method: "GET", Pattern: "/panics", Handler: Returns(func(*Request) (string, error) { panic("at the disco") })},
		Route{Method: "GET", Pattern: "/health", Handler: Returns(func(r *Request) (health, error) {
			return health{Status: r.URL.Query().Get("s")}, nil
		})},
	)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, target string
		route          string
		status         int
		bytes          int64
		err            string // the type of Observation.Err
	}{
		{"GET", "/items/7", "/items/{id}", 200, 4, ""},
		{"GET", "/items/x", "/items/{id}", 400, -1, "*dispatch.Error"},
		{"GET", "/fails", "/fails", 500, -1, "*errors.errorString"},
		{"GET", "/panics", "/panics", 500, -1, "*dispatch.PanicError"},
		{"GET", "/nowhere/" + strings.Repeat("x", 20), NotFound, 404, -1, ""},
		{"POST", "/items/7", Unknown, 405, -1, ""},
		{"GET", "/items//7", Redirection, 307, 0, ""},
		{"GET", "/health?s=UP", "/health", 200, 15, ""},
		{"GET", "/health?s=DOWN", "/health", 503, 17, ""},
	}
	ids := map[string]int{} // route IDs by route
	for _, tt := range tests {
		w := httptest.NewRecorder()
		d.ServeHTTP(w, httptest.NewRequest(tt.method, tt.target, nil))
		mu.Lock()
		o := seen[len(seen)-1]
		mu.Unlock()
		in := tt.method + " " + tt.target
		if o.Route != tt.route || o.Status != tt.status || o.Method != tt.method || w.Code != tt.status {
			t.Errorf("%q: observed %s %q %d (answered %d), want %s %q %d", in, o.Method, o.Route, o.Status, w.Code, tt.method, tt.route, tt.status)
		}
		switch id, seen := ids[o.Route]; {
		case (o.RouteID == 0) != (tt.route == NotFound || tt.route == Unknown || tt.route == Redirection):
			t.Errorf("%q: route ID %d for the route %q", in, o.RouteID, o.Route)
		case seen && id != o.RouteID:
			t.Errorf("%q: route ID %d, and %d for another request of the route %q", in, o.RouteID, id, o.Route)
		}
		ids[o.Route] = o.RouteID
		if tt.bytes >= 0 && o.Bytes != tt.bytes {
			t.Errorf("%q: observed %d bytes, want %d", in, o.Bytes, tt.bytes)
		}
		if o.Bytes != int64(w.Body.Len()) {
			t.Errorf("%q: observed %d bytes, the body has %d", in, o.Bytes, w.Body.Len())
		}
		if got := fmt.Sprintf("%T", o.Err); o.Err != nil && got != tt.err || o.Err == nil && tt.err != "" {
			t.Errorf("%q: observed the error %s, want %s", in, got, tt.err)
		}
		if o.End.IsZero() || time.Since(o.End) < 0 {
			t.Errorf("%q: observed the end %v", in, o.End)
		}
		if o.RequestID == "" || o.RequestID != w.Header().Get(RequestIDHeader) || o.Duration <= 0 {
			t.Errorf("%q: request ID %q (header %q), duration %v", in, o.RequestID, w.Header().Get(RequestIDHeader), o.Duration)
		}
	}
}

func TestRequestIDs(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	id := func(sent string) string {
		r := httptest.NewRequest("GET", "/nope", nil)
		if sent != "" {
			r.Header.Set(RequestIDHeader, sent)
		}
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		if !strings.Contains(w.Body.String(), `"requestId":"`+w.Header().Get(RequestIDHeader)+`"`) {
			t.Errorf("sent %q: the problem document does not carry the ID %q: %s", sent, w.Header().Get(RequestIDHeader), w.Body)
		}
		return w.Header().Get(RequestIDHeader)
	}
	for _, sane := range []string{"abc-123", "trace:1.2_3", strings.Repeat("a", 64)} {
		if got := id(sane); got != sane {
			t.Errorf("a sane X-Request-Id %q came back as %q", sane, got)
		}
	}
	// Without Options.RequestIDs a success carries only the client's ID.
	w := httptest.NewRecorder()
	d.ServeHTTP(w, httptest.NewRequest("GET", "/hello", nil))
	if w.Code != 200 || w.Header().Get(RequestIDHeader) != "" {
		t.Errorf("a success without a client ID: %d, X-Request-Id %q; want 200 and none", w.Code, w.Header().Get(RequestIDHeader))
	}
	generated := map[string]bool{}
	for _, insane := range []string{"", "has space", "<script>", strings.Repeat("a", 65), "ünï"} {
		got := id(insane)
		if got == insane || got == "" || generated[got] {
			t.Errorf("X-Request-Id %q: answered %q; want a new, unique ID", insane, got)
		}
		generated[got] = true
	}
}
