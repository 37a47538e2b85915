package dispatch

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/testing/logtest"
)

// TestPlain serves an http.Handler as a route: the dispatcher chooses it by
// its conditions, answers 406 from its Produces before it runs, observes
// what it writes and recovers its panic, but leaves reading and writing to
// it.
func TestPlain(t *testing.T) {
	t.Parallel()
	var seen []Observation
	metrics := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte("up 1\n"))
	})
	d := newDispatcher(t, Options{Observers: []func(Observation){func(o Observation) { seen = append(seen, o) }}},
		Route{Method: "GET", Pattern: "/metrics", Produces: []string{"text/plain;version=0.0.4"}, Handler: Plain(metrics)},
		Route{Method: "GET", Pattern: "/files/{name...}", Handler: Plain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(r.PathValue("name")))
		}))},
		Route{Method: "GET", Pattern: "/broken", Handler: Plain(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			panic("plain panic")
		}))},
	)

	w := serve(d, "GET", "/metrics", nil, "Accept: text/plain")
	if w.Code != http.StatusAccepted || w.Body.String() != "up 1\n" || w.Header().Get("Content-Type") != "text/plain; version=0.0.4" {
		t.Errorf("%q:\ngot  %d %q %q\nwant the handler's own answer", "/metrics", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	if o := seen[len(seen)-1]; o.Route != "/metrics" || o.Status != http.StatusAccepted || o.Bytes != 5 {
		t.Errorf("%q: observed %+v, want route /metrics, 202, 5 bytes", "/metrics", o)
	}
	w = serve(d, "GET", "/metrics", nil, "Accept: application/json")
	checkProblem(t, "/metrics as JSON", w, http.StatusNotAcceptable, "/metrics", "Acceptable representations: [text/plain].")

	w = serve(d, "GET", "/files/a/b.txt", nil)
	if w.Code != http.StatusOK || w.Body.String() != "a/b.txt" {
		t.Errorf("%q:\ngot  %d %q\nwant 200 %q, the path value", "/files/a/b.txt", w.Code, w.Body, "a/b.txt")
	}

	w = serve(d, "GET", "/broken", nil)
	checkProblem(t, "/broken", w, http.StatusInternalServerError, "/broken", "An unexpected error occurred.")
	if got := w.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("%q: the problem document keeps the handler's Content-Encoding %q", "/broken", got)
	}
}

func TestPlainRefusesInputs(t *testing.T) {
	t.Parallel()
	_, err := New(Options{}, Route{Method: "GET", Pattern: "/p/{id}", Inputs: []Input{Path[int32]("id")}, Handler: Plain(http.NotFoundHandler())})
	if err == nil || !strings.Contains(err.Error(), "a Plain handler reads the request itself") {
		t.Errorf("a Plain route with Inputs:\ngot  %v\nwant an error saying a Plain handler reads the request itself", err)
	}
}

// TestUndeclaredInputPanics reads an input the route does not declare: a
// programming error, which the first request shows as a logged panic and
// a 500, never as a silently empty value.
func TestUndeclaredInputPanics(t *testing.T) {
	t.Parallel()
	var log logtest.Buffer
	undeclared := Query[int32]("n")
	d := newDispatcher(t, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))},
		Route{Method: "GET", Pattern: "/n", Handler: Returns(func(r *Request) (int32, error) { return undeclared.Get(r), nil })})
	w := serve(d, "GET", "/n?n=1", nil)
	checkProblem(t, "/n?n=1", w, http.StatusInternalServerError, "/n", "An unexpected error occurred.")
	if want := `reads query parameter \"n\", which the route does not declare in Inputs`; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, log.String())
	}
}
