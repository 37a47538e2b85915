package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func redirectTo(loc string) Handler {
	return Returns(func(*Request) (Redirect, error) { return Redirect{Location: loc}, nil })
}

// noFollow is a client that shows a redirect rather than following it.
func noFollow(srv *httptest.Server) *http.Client {
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// TestRedirect serves redirects through net/http's server: each status a
// Redirect may have (0 is 302), its Location, and neither a body nor a
// Content-Type, whatever the client accepts.
func TestRedirect(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{ContextPath: "/ctx"},
		Route{Method: "GET", Pattern: "/found", Handler: redirectTo("/target?x=1")},
		Route{Method: "GET", Pattern: "/moved", Status: 301, Handler: redirectTo("/target")},
		Route{Method: "POST", Pattern: "/see-other", Status: 303, Handler: redirectTo("/target")},
		Route{Method: "GET", Pattern: "/temporary", Status: 307, Handler: redirectTo("https://example.com/elsewhere")},
		Route{Method: "GET", Pattern: "/permanent", Status: 308, Handler: redirectTo("//cdn.example.com/x")},
		Route{Method: "GET", Pattern: "/relative", Handler: redirectTo("target")},
	)
	srv := httptest.NewServer(d)
	defer srv.Close()
	client := noFollow(srv)
	tests := []struct {
		method, path, accept string
		status               int
		location             string
	}{
		{"GET", "/ctx/found", "", 302, "/ctx/target?x=1"},
		{"GET", "/ctx/found", "image/png", 302, "/ctx/target?x=1"}, // nothing to negotiate: no 406
		{"HEAD", "/ctx/found", "application/xml;q=0", 302, "/ctx/target?x=1"},
		{"GET", "/ctx/moved", "text/html", 301, "/ctx/target"},
		{"POST", "/ctx/see-other", "", 303, "/ctx/target"},
		{"GET", "/ctx/temporary", "", 307, "https://example.com/elsewhere"},
		{"GET", "/ctx/permanent", "", 308, "//cdn.example.com/x"}, // names a host: not under the service
		{"GET", "/ctx/relative", "", 302, "target"},               // relative to the request's path, as sent
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		if tt.accept != "" {
			req.Header.Set("Accept", tt.accept)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		in := tt.method + " " + tt.path + " Accept: " + tt.accept
		if resp.StatusCode != tt.status || resp.Header.Get("Location") != tt.location {
			t.Errorf("%s: got %d Location %q, want %d %q", in, resp.StatusCode, resp.Header.Get("Location"), tt.status, tt.location)
		}
		if len(body) != 0 || resp.Header.Get("Content-Type") != "" || resp.Header.Get("Vary") != "" {
			t.Errorf("%s: body %q, Content-Type %q, Vary %q; want none", in, body, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
		}
	}
}

// TestLocationUnderForwardedPrefix: behind a proxy that forwards its own
// prefix, a path leads back through the proxy, as ContextPath says.
func TestLocationUnderForwardedPrefix(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{ContextPath: "/ctx"},
		Route{Method: "GET", Pattern: "/found", Handler: redirectTo("/target")},
		Route{Method: "POST", Pattern: "/made", Handler: Returns(func(*Request) (CreatedAt, error) { return CreatedAt{Location: "/made/1"}, nil })},
	)
	for _, tt := range []struct{ method, path, want string }{
		{"GET", "/ctx/found", "/proxy/target"},
		{"POST", "/ctx/made", "/proxy/made/1"},
	} {
		r := WithForwardedPrefix(httptest.NewRequest(tt.method, tt.path, nil), "/proxy")
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		if got := w.Header().Get("Location"); got != tt.want {
			t.Errorf("%s %s: Location %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

// TestLocationMistakes: an empty Location, one that would split the
// header, or one starting with a backslash, which a browser reads as a
// slash (so /\\evil.example is another host), is the handler's mistake: a
// 500 problem document, and no Location header at all.
func TestLocationMistakes(t *testing.T) {
	t.Parallel()
	for _, loc := range []string{"", "/a\r\nSet-Cookie: x=1", "/a\nb", "/a\rb", "/a\x00b", "/a\x7fb",
		`/\evil.example`, `/\/evil.example`, `\\evil.example`, `\/evil.example`, `\a`} {
		d := newDispatcher(t, Options{},
			Route{Method: "GET", Pattern: "/r", Handler: redirectTo(loc)},
			Route{Method: "POST", Pattern: "/c", Handler: Returns(func(*Request) (Created[Message], error) {
				return Created[Message]{Location: loc, Body: Message{Text: "x"}}, nil
			})},
		)
		for _, method := range []string{"GET", "POST"} {
			path := map[string]string{"GET": "/r", "POST": "/c"}[method]
			w := serve(d, method, path, nil)
			checkProblem(t, method+" "+path+" with Location "+loc, w, http.StatusInternalServerError, path, "An unexpected error occurred.")
			if _, ok := w.Header()["Location"]; ok || w.Header().Get("Set-Cookie") != "" {
				t.Errorf("Location %q: headers %v", loc, w.Header())
			}
		}
	}
}

// TestLocationEncoded: spaces and bytes beyond ASCII, which a URI cannot
// hold, are percent-encoded, whatever else the Location is; an escape
// the handler wrote is left alone.
func TestLocationEncoded(t *testing.T) {
	t.Parallel()
	for loc, want := range map[string]string{
		"/café au lait":                 "/ctx/caf%C3%A9%20au%20lait",
		"/a%20b?q=x y":                  "/ctx/a%20b?q=x%20y",
		"https://example.com/ü?q=a b#é": "https://example.com/%C3%BC?q=a%20b#%C3%A9",
		" //evil.example":               "%20//evil.example", // a relative path, not another host
		"/plain":                        "/ctx/plain",
		`/a\b`:                          `/ctx/a\b`, // a backslash past the start names no host
	} {
		d := newDispatcher(t, Options{ContextPath: "/ctx"}, Route{Method: "GET", Pattern: "/r", Handler: redirectTo(loc)})
		w := serve(d, "GET", "/ctx/r", nil)
		if w.Code != 302 || w.Header().Get("Location") != want {
			t.Errorf("Location %q: got %d %q, want 302 %q", loc, w.Code, w.Header().Get("Location"), want)
		}
	}
}

// TestCreated answers 201 with a Location and the body negotiated as a
// T's would be: JSON, XML, or 406 for a type it cannot write.
func TestCreated(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{ContextPath: "/ctx"},
		Route{Method: "POST", Pattern: "/messages", Handler: Exchanges(func(r *Request, m Message) (Created[Message], error) {
			r.ResponseHeader().Set("ETag", `"1"`)
			return Created[Message]{Location: "/messages/1", Body: m}, nil
		})},
		Route{Method: "POST", Pattern: "/names", Handler: Returns(func(*Request) (Created[string], error) {
			return Created[string]{Location: "https://example.com/names/ada", Body: "Ada"}, nil
		})},
		Route{Method: "PUT", Pattern: "/links", Status: 201, Handler: Returns(func(*Request) (CreatedAt, error) {
			return CreatedAt{Location: "/links/abc"}, nil
		})},
	)
	tests := []struct {
		method, path, accept string
		status               int
		location, ct, body   string
	}{
		{"POST", "/ctx/messages", "", 201, "/ctx/messages/1", "application/json", `{"text":"hi"}`},
		{"POST", "/ctx/messages", "application/xml", 201, "/ctx/messages/1", "application/xml;charset=UTF-8", `<Message><text>hi</text></Message>`},
		{"POST", "/ctx/names", "", 201, "https://example.com/names/ada", "text/plain;charset=UTF-8", "Ada"},
		{"PUT", "/ctx/links", "", 201, "/ctx/links/abc", "", ""},
		{"PUT", "/ctx/links", "image/png", 201, "/ctx/links/abc", "", ""},
	}
	for _, tt := range tests {
		headers := []string{"Content-Type: application/json"}
		if tt.accept != "" {
			headers = append(headers, "Accept: "+tt.accept)
		}
		w := serve(d, tt.method, tt.path, strings.NewReader(`{"text":"hi"}`), headers...)
		in := tt.method + " " + tt.path + " Accept: " + tt.accept
		if w.Code != tt.status || w.Header().Get("Location") != tt.location || w.Header().Get("Content-Type") != tt.ct {
			t.Errorf("%s: got %d Location %q Content-Type %q, want %d %q %q", in, w.Code, w.Header().Get("Location"), w.Header().Get("Content-Type"), tt.status, tt.location, tt.ct)
		}
		if got := strings.TrimSpace(w.Body.String()); got != tt.body {
			t.Errorf("%s: body %q, want %q", in, got, tt.body)
		}
	}
	if w := serve(d, "POST", "/ctx/messages", strings.NewReader(`{"text":"hi"}`), "Content-Type: application/json"); w.Header().Get("ETag") != `"1"` {
		t.Errorf("the handler's ETag is missing beside the Location: %v", w.Header())
	}
	w := serve(d, "POST", "/ctx/messages", strings.NewReader(`{"text":"hi"}`), "Content-Type: application/json", "Accept: image/png")
	checkProblem(t, "Created[Message] to Accept: image/png", w, http.StatusNotAcceptable, "/ctx/messages",
		"Acceptable representations: [application/json, application/*+json, application/xml, text/xml, application/*+xml].")
	if _, ok := w.Header()["Location"]; ok {
		t.Errorf("a 406 carries a Location: %v", w.Header())
	}
}

// TestResponseHeadersWithoutBody: what a handler sets with
// ResponseHeader goes out on a success without a body too (they were
// dropped), and not on its failure.
func TestResponseHeadersWithoutBody(t *testing.T) {
	t.Parallel()
	set := func(r *Request) { r.ResponseHeader().Set("X-Made", "yes") }
	failing := false
	d := newDispatcher(t, Options{},
		Route{Method: "GET", Pattern: "/runs", Handler: Runs(func(r *Request) error { set(r); return nil })},
		Route{Method: "DELETE", Pattern: "/runs", Status: 204, Handler: Runs(func(r *Request) error { set(r); return nil })},
		Route{Method: "POST", Pattern: "/accepts", Status: 201, Handler: Accepts(func(r *Request, _ Message) error {
			set(r)
			if failing {
				return errors.New("store failed")
			}
			return nil
		})},
	)
	for _, tt := range []struct {
		method, path string
		status       int
	}{{"GET", "/runs", 200}, {"DELETE", "/runs", 204}, {"POST", "/accepts", 201}} {
		w := serve(d, tt.method, tt.path, strings.NewReader(`{"text":"a"}`), "Content-Type: application/json")
		if w.Code != tt.status || w.Header().Get("X-Made") != "yes" {
			t.Errorf("%s %s: %d, X-Made %q; want %d, yes", tt.method, tt.path, w.Code, w.Header().Get("X-Made"), tt.status)
		}
	}
	failing = true
	w := serve(d, "POST", "/accepts", strings.NewReader(`{"text":"a"}`), "Content-Type: application/json")
	checkProblem(t, "failing Accepts", w, 500, "/accepts", "An unexpected error occurred.")
	if w.Header().Get("X-Made") != "" {
		t.Errorf("the problem document carries the success's header: %v", w.Header())
	}
}

// TestLocationRoutesRefused: a redirect status only with a Redirect, a
// Redirect only with a redirect status, Created only with 201.
func TestLocationRoutesRefused(t *testing.T) {
	t.Parallel()
	created := Returns(func(*Request) (Created[Message], error) { return Created[Message]{}, nil })
	createdAt := Returns(func(*Request) (CreatedAt, error) { return CreatedAt{}, nil })
	tests := []struct {
		name  string
		route Route
		want  string
	}{
		{"302 with a body", Route{Method: "GET", Pattern: "/a", Status: 302, Handler: message("x")},
			"success status 302 is a redirect, but its handler returns dispatch.Message, not a dispatch.Redirect"},
		{"301 with no result", Route{Method: "POST", Pattern: "/a", Status: 301, Handler: Accepts(func(*Request, Message) error { return nil })},
			"success status 301 is a redirect, but its handler answers with no Location; return a dispatch.Redirect"},
		{"Redirect with 200", Route{Method: "GET", Pattern: "/a", Status: 200, Handler: redirectTo("/b")},
			"returns a dispatch.Redirect, so its status must be 301, 302, 303, 307 or 308 (0 means 302), not 200"},
		{"Redirect with 304", Route{Method: "GET", Pattern: "/a", Status: 304, Handler: redirectTo("/b")},
			"not 304"},
		{"Redirect with 300", Route{Method: "GET", Pattern: "/a", Status: 300, Handler: redirectTo("/b")},
			"not 300"},
		{"Redirect with Produces", Route{Method: "GET", Pattern: "/a", Produces: []string{"text/html"}, Handler: redirectTo("/b")},
			"produces [text/html], but its handler answers with no body"},
		{"Created with 200", Route{Method: "POST", Pattern: "/a", Status: 200, Handler: created},
			"returns a dispatch.Created[github.com/springport/greeter/framework/dispatch.Message], which answers 201 Created, but declares success status 200"},
		{"CreatedAt with 204", Route{Method: "POST", Pattern: "/a", Status: 204, Handler: createdAt},
			"returns a dispatch.CreatedAt, which answers 201 Created, but declares success status 204"},
		{"Created with 302", Route{Method: "POST", Pattern: "/a", Status: 302, Handler: created},
			"which answers 201 Created, but declares success status 302"},
		{"pointer to a Redirect", Route{Method: "GET", Pattern: "/a", Handler: Returns(func(*Request) (*Redirect, error) { return nil, nil })},
			"returns *dispatch.Redirect; return dispatch.Redirect"},
		{"pointer to a Created", Route{Method: "POST", Pattern: "/a", Handler: Returns(func(*Request) (*Created[Message], error) { return nil, nil })},
			"returns *dispatch.Created[github.com/springport/greeter/framework/dispatch.Message]; return dispatch.Created[github.com/springport/greeter/framework/dispatch.Message]"},
		{"pointer to a CreatedAt", Route{Method: "POST", Pattern: "/a", Handler: Exchanges(func(*Request, Message) (*CreatedAt, error) { return nil, nil })},
			"returns *dispatch.CreatedAt; return dispatch.CreatedAt"},
		{"Created of a StatusCoder", Route{Method: "POST", Pattern: "/a", Handler: Returns(func(*Request) (Created[coded], error) { return Created[coded]{}, nil })},
			"its body chooses its own status (StatusCoder)"},
	}
	for _, tt := range tests {
		_, err := New(Options{}, tt.route)
		if err == nil || !strings.Contains(err.Error(), "route "+tt.route.String()+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: New said %v; want it to name the route and say %q", tt.name, err, tt.want)
		}
		var te *TableError
		if _, err := Describe(tt.route); !errors.As(err, &te) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Describe said %v; want a TableError saying %q", tt.name, err, tt.want)
		}
	}
	for _, status := range []int{0, 201} {
		if _, err := New(Options{}, Route{Method: "POST", Pattern: "/a", Status: status, Handler: created}); err != nil {
			t.Errorf("Created with Status %d: %v", status, err)
		}
	}
}

type coded struct{}

func (coded) StatusCode() int { return 200 }

// TestDescribeLocation: the description has the status, the Location,
// and the body's type (not the result's wrapper) as the result.
func TestDescribeLocation(t *testing.T) {
	t.Parallel()
	infos, err := Describe(
		Route{Method: "GET", Pattern: "/r", Status: 308, Handler: redirectTo("/b")},
		Route{Method: "POST", Pattern: "/c", Handler: Returns(func(*Request) (Created[Message], error) { return Created[Message]{}, nil })},
		Route{Method: "POST", Pattern: "/d", Handler: Returns(func(*Request) (CreatedAt, error) { return CreatedAt{}, nil })},
		Route{Method: "GET", Pattern: "/m", Handler: message("x")},
	)
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Status   int
		Location bool
		Result   reflect.Type
		Produces int
		Errors   []int
	}
	got := make([]summary, len(infos))
	for i, in := range infos {
		got[i] = summary{in.Status, in.Location, in.Result, len(in.Produces), in.Errors}
	}
	want := []summary{
		{308, true, nil, 0, []int{500}},
		{201, true, reflect.TypeFor[Message](), 5, []int{400, 406, 500}},
		{201, true, nil, 0, []int{500}},
		{200, false, reflect.TypeFor[Message](), 5, []int{400, 406, 500}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestCreatedBodyIsTheDocument: the JSON body of a Created is T's
// document, not the wrapper's (no Location or Body member).
func TestCreatedBodyIsTheDocument(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{}, Route{Method: "POST", Pattern: "/l", Handler: Returns(func(*Request) (Created[[]Message], error) {
		return Created[[]Message]{Location: "/l/1", Body: []Message{{Text: "a"}}}, nil
	})})
	w := httptest.NewRecorder()
	d.ServeHTTP(w, httptest.NewRequestWithContext(context.Background(), "POST", "/l", nil))
	var got []Message
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || len(got) != 1 || got[0].Text != "a" {
		t.Errorf("body %s (%v)", w.Body, err)
	}
}
