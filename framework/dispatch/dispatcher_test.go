package dispatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/testing/logtest"
)

// Message is a test body and result; its XML root is its type name.
type Message struct {
	Text string `json:"text" xml:"text"`
}

// checked is a body that validates itself.
type checked struct {
	Text *string `json:"text" xml:"text"`
}

func (c checked) Validate() error {
	if c.Text == nil {
		return errors.New("field 'text' is required")
	}
	return nil
}

var (
	errNotFound = errors.New("no such thing")
	errSecret   = errors.New("secret database password hunter2")
)

func classify(err error) *Error {
	if errors.Is(err, errNotFound) {
		return &Error{Status: http.StatusNotFound, Detail: "No such thing.", Err: err}
	}
	return nil
}

func text(s string) Handler {
	return Returns(func(*Request) (string, error) { return s, nil })
}

func message(s string) Handler {
	return Returns(func(*Request) (Message, error) { return Message{Text: s}, nil })
}

func fails(err error) Handler {
	return Returns(func(*Request) (Message, error) { return Message{}, err })
}

var (
	pathID   = Path[int32]("id")
	pathI    = Path[string]("i")
	queryNum = Query[int32]("param1")
)

// testRoutes is the table most tests run against.
func testRoutes() []Route {
	return []Route{
		{Method: "GET", Pattern: "/hello", Handler: message("Hello")},
		{Method: "GET", Pattern: "/hello/{id}", Inputs: []Input{pathID}, Handler: Returns(func(r *Request) (Message, error) {
			return Message{Text: fmt.Sprint("Hello ", pathID.Get(r))}, nil
		})},
		{Method: "GET", Pattern: "/search", Inputs: []Input{queryNum}, Handler: Returns(func(r *Request) (int32, error) {
			return queryNum.Get(r), nil
		})},
		{Method: "GET", Pattern: "/nothing", Handler: Runs(func(*Request) error { return nil })},
		{Method: "GET", Pattern: "/text", Handler: text("Hi <b>&</b>")},
		{Method: "GET", Pattern: "/html", Handler: message("<b>&</b>")},
		{Method: "GET", Pattern: "/int", Handler: Returns(func(*Request) (int32, error) { return 5, nil })},
		{Method: "GET", Pattern: "/negative", Handler: Returns(func(*Request) (int32, error) { return -123, nil })},
		{Method: "GET", Pattern: "/list", Handler: Returns(func(*Request) ([]Message, error) {
			return []Message{{Text: "a"}, {Text: "b"}}, nil
		})},

		{Method: "POST", Pattern: "/messages", Status: http.StatusCreated, Handler: Accepts(func(*Request, Message) error { return nil })},
		{Method: "DELETE", Pattern: "/messages/{id}", Inputs: []Input{pathID}, Status: http.StatusNoContent, Handler: Runs(func(*Request) error { return nil })},
		{Method: "POST", Pattern: "/echo", Handler: Exchanges(func(_ *Request, m Message) (Message, error) { return m, nil })},
		{Method: "POST", Pattern: "/checked", Handler: Exchanges(func(_ *Request, c checked) (string, error) { return *c.Text, nil })},

		// Literal segments beat wildcards.
		{Method: "GET", Pattern: "/x/{i}", Inputs: []Input{pathI}, Handler: Returns(func(r *Request) (string, error) { return pathI.Get(r), nil })},
		{Method: "GET", Pattern: "/x/search", Handler: text("literal")},
		{Method: "PUT", Pattern: "/x/{i}", Inputs: []Input{pathI}, Status: http.StatusNoContent, Handler: Runs(func(*Request) error { return nil })},

		// Params conditions choose between routes sharing method and pattern.
		{Method: "GET", Pattern: "/cond", Params: []string{"flag"}, Handler: text("flag")},
		{Method: "GET", Pattern: "/cond", Params: []string{"!flag", "kind=a"}, Handler: text("kind=a")},
		{Method: "GET", Pattern: "/cond", Params: []string{"!flag", "kind!=a", "kind"}, Handler: text("kind!=a")},
		{Method: "GET", Pattern: "/neg", Params: []string{"v!=x"}, Handler: text("v!=x")},
		// More conditions win, whatever the declaration order.
		{Method: "GET", Pattern: "/more", Params: []string{"a"}, Handler: text("one")},
		{Method: "GET", Pattern: "/more", Params: []string{"a", "b"}, Handler: text("two")},
		{Method: "GET", Pattern: "/more", Handler: text("none")},

		// A declared consumes beats none.
		{Method: "POST", Pattern: "/consumes", Handler: Exchanges(func(*Request, Message) (string, error) { return "default", nil })},
		{Method: "POST", Pattern: "/consumes", Consumes: []string{"application/xml"}, Handler: Exchanges(func(*Request, Message) (string, error) { return "xml", nil })},
		{Method: "POST", Pattern: "/vnd", Consumes: []string{"application/vnd.foo+json"}, Handler: Exchanges(func(_ *Request, m Message) (Message, error) { return m, nil })},

		// Produces choose between otherwise equal routes.
		{Method: "GET", Pattern: "/produces", Produces: []string{"application/json"}, Handler: message("json route")},
		{Method: "GET", Pattern: "/produces", Produces: []string{"application/xml"}, Handler: message("xml route")},

		{Method: "GET", Pattern: "/err/typed", Handler: fails(&Error{Status: http.StatusConflict, Detail: "Taken."})},
		{Method: "GET", Pattern: "/err/wrapped", Handler: fails(fmt.Errorf("saving: %w", &Error{Status: http.StatusConflict, Detail: "Taken.", Err: errSecret}))},
		{Method: "GET", Pattern: "/err/classified", Handler: fails(fmt.Errorf("looking up: %w", errNotFound))},
		{Method: "GET", Pattern: "/err/unknown", Handler: fails(errSecret)},
		{Method: "GET", Pattern: "/err/503", Handler: fails(&Error{Status: http.StatusServiceUnavailable, Err: errSecret})},
		{Method: "GET", Pattern: "/panic", Handler: Returns(func(*Request) (Message, error) { panic("secret panic text") })},
	}
}

func newDispatcher(t testing.TB, opts Options, routes ...Route) *Dispatcher {
	t.Helper()
	d, err := New(opts, routes...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testDispatcher(t testing.TB) *Dispatcher {
	t.Helper()
	return newDispatcher(t, Options{Classify: classify}, testRoutes()...)
}

// serve sends one request straight to h. Headers are given as "Name: value"
// strings; a nil body is no body.
func serve(h http.Handler, method, target string, body io.Reader, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, body)
	for _, kv := range headers {
		name, value, _ := strings.Cut(kv, ":")
		r.Header.Add(name, strings.TrimSpace(value))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// checkProblem checks that w is a problem document for status, for the
// request path, with the given detail.
func checkProblem(t *testing.T, in string, w *httptest.ResponseRecorder, status int, path, detail string) {
	t.Helper()
	if w.Code != status {
		t.Errorf("%q: status\ngot  %v\nwant %v (body %s)", in, w.Code, status, w.Body)
		return
	}
	if got := w.Header().Get("Content-Type"); got != "application/problem+json" {
		t.Errorf("%q: Content-Type\ngot  %v\nwant %v", in, got, "application/problem+json")
	}
	var p map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Errorf("%q: body %q: %v", in, w.Body, err)
		return
	}
	// The request ID is in the header and the document, the same in both.
	if id := w.Header().Get(RequestIDHeader); id == "" || p["requestId"] != id {
		t.Errorf("%q: requestId %v, X-Request-Id %q; want both, equal", in, p["requestId"], id)
	}
	delete(p, "requestId")
	want := map[string]any{
		"type":     "about:blank",
		"title":    http.StatusText(status),
		"status":   float64(status),
		"detail":   detail,
		"instance": path,
	}
	if fmt.Sprint(p) != fmt.Sprint(want) {
		t.Errorf("%q: problem\ngot  %v\nwant %v", in, p, want)
	}
	if got, want := w.Header().Get("Content-Length"), fmt.Sprint(w.Body.Len()); got != want {
		t.Errorf("%q: Content-Length\ngot  %v\nwant %v", in, got, want)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	for _, path := range []string{"/nope", "/hello/", "/Hello", "/HELLO", "/x", "/x/a/b", "/hello/1/", "/messages/"} {
		w := serve(d, "GET", path, nil, "Accept: nonsense")
		checkProblem(t, path, w, http.StatusNotFound, path, "No endpoint GET "+path+".")
		if got := w.Header().Get("X-Content-Type-Options"); got != "" {
			t.Errorf("%q: X-Content-Type-Options %q left from the ServeMux", path, got)
		}
	}
	w := serve(d, "OPTIONS", "/nope", nil)
	checkProblem(t, "OPTIONS /nope", w, http.StatusNotFound, "/nope", "No endpoint OPTIONS /nope.")
}

func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	tests := []struct {
		method, path, allow string
	}{
		{"DELETE", "/hello", "GET, HEAD"},
		{"POST", "/hello", "GET, HEAD"},
		{"GET", "/messages", "POST"},
		{"DELETE", "/x/search", "GET, HEAD, PUT"},
		{"POST", "/x/1", "GET, HEAD, PUT"},
		{"PATCH", "/messages/1", "DELETE"},
	}
	for _, tt := range tests {
		in := tt.method + " " + tt.path
		// Method comes before consumes: a bad body type does not matter.
		w := serve(d, tt.method, tt.path, strings.NewReader("x"), "Content-Type: text/plain")
		checkProblem(t, in, w, http.StatusMethodNotAllowed, tt.path,
			"Method '"+tt.method+"' is not supported; this path allows "+tt.allow+".")
		if got := w.Header().Get("Allow"); got != tt.allow {
			t.Errorf("%q: Allow\ngot  %v\nwant %v", in, got, tt.allow)
		}
	}
}

func TestOptions(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	tests := []struct {
		path, allow string
	}{
		{"/hello", "GET, HEAD, OPTIONS"},
		{"/messages", "POST, OPTIONS"},
		{"/x/search", "GET, HEAD, PUT, OPTIONS"},
		{"/messages/3", "DELETE, OPTIONS"},
	}
	for _, tt := range tests {
		w := serve(d, "OPTIONS", tt.path, nil)
		if w.Code != http.StatusOK || w.Body.Len() != 0 {
			t.Errorf("%q:\ngot  %v %q\nwant 200 and no body", tt.path, w.Code, w.Body)
		}
		if got := w.Header().Get("Allow"); got != tt.allow {
			t.Errorf("%q: Allow\ngot  %v\nwant %v", tt.path, got, tt.allow)
		}
		if got := w.Header().Get("Content-Type"); got != "" {
			t.Errorf("%q: Content-Type %q on an empty answer", tt.path, got)
		}
	}
}

func TestHead(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(testDispatcher(t))
	defer srv.Close()
	get, err := http.Get(srv.URL + "/hello")
	if err != nil {
		t.Fatal(err)
	}
	getBody, _ := io.ReadAll(get.Body)
	get.Body.Close()

	for _, path := range []string{"/hello", "/text", "/nothing"} {
		resp, err := http.Head(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(body) != 0 {
			t.Errorf("%q:\ngot  %v %q\nwant 200 and no body", path, resp.StatusCode, body)
		}
		if path != "/hello" {
			continue
		}
		for _, h := range []string{"Content-Type", "Content-Length", "Vary"} {
			if got, want := resp.Header.Get(h), get.Header.Get(h); got != want {
				t.Errorf("%q: %s\ngot  %v\nwant %v (as GET)", path, h, got, want)
			}
		}
		if got, want := resp.Header.Get("Content-Length"), fmt.Sprint(len(getBody)); got != want {
			t.Errorf("%q: Content-Length\ngot  %v\nwant %v", path, got, want)
		}
	}
}

// TestSuccess checks status, headers and body of answers that succeed.
func TestSuccess(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	const (
		jsonType = "application/json"
		xmlType  = "application/xml;charset=UTF-8"
		textXML  = "text/xml;charset=UTF-8"
		plain    = "text/plain;charset=UTF-8"
	)
	tests := []struct {
		method, target string
		headers        []string
		body           string
		status         int
		contentType    string // "" for no body
		want           string
	}{
		{"GET", "/hello", nil, "", 200, jsonType, `{"text":"Hello"}`},
		{"GET", "/hello", []string{"Accept: */*"}, "", 200, jsonType, `{"text":"Hello"}`},
		{"GET", "/hello", []string{"Accept: *"}, "", 200, jsonType, `{"text":"Hello"}`},
		{"GET", "/hello", []string{"Accept: application/json"}, "", 200, jsonType, `{"text":"Hello"}`},
		{"GET", "/hello", []string{"Accept: application/xml"}, "", 200, xmlType, `<Message><text>Hello</text></Message>`},
		{"GET", "/hello", []string{"Accept: text/*"}, "", 200, textXML, `<Message><text>Hello</text></Message>`},
		{"GET", "/hello", []string{"Accept: text/xml;q=0, */*"}, "", 200, jsonType, `{"text":"Hello"}`},
		{"GET", "/hello", []string{"Accept: application/xml;q=0.9, application/json"}, "", 200, jsonType, `{"text":"Hello"}`},
		{"GET", "/hello", []string{"Accept: application/json;q=0.9, application/xml"}, "", 200, xmlType, `<Message><text>Hello</text></Message>`},
		// Several Accept field lines are one list.
		{"GET", "/hello", []string{"Accept: text/html", "Accept: application/xml"}, "", 200, xmlType, `<Message><text>Hello</text></Message>`},
		{"GET", "/hello", []string{"Accept: text/html", "Accept: application/xml;q=0.5, text/xml"}, "", 200, textXML, `<Message><text>Hello</text></Message>`},
		{"GET", "/hello/42", nil, "", 200, jsonType, `{"text":"Hello 42"}`},
		{"GET", "/hello/-2147483648", nil, "", 200, jsonType, `{"text":"Hello -2147483648"}`},
		{"GET", "/search?param1=7", nil, "", 200, jsonType, `7`},
		{"GET", "/int", nil, "", 200, jsonType, `5`},
		{"GET", "/int", []string{"Accept: application/xml"}, "", 200, xmlType, `<Integer>5</Integer>`},
		{"GET", "/negative", nil, "", 200, jsonType, `-123`},
		{"GET", "/list", nil, "", 200, jsonType, `[{"text":"a"},{"text":"b"}]`},
		{"GET", "/list", []string{"Accept: application/xml"}, "", 200, xmlType, `<List><item><text>a</text></item><item><text>b</text></item></List>`},
		{"GET", "/html", nil, "", 200, jsonType, `{"text":"<b>&</b>"}`},
		{"GET", "/html", []string{"Accept: application/xml"}, "", 200, xmlType, `<Message><text>&lt;b&gt;&amp;&lt;/b&gt;</text></Message>`},
		{"GET", "/text", nil, "", 200, plain, `Hi <b>&</b>`},
		{"GET", "/text", []string{"Accept: text/*"}, "", 200, plain, `Hi <b>&</b>`},
		{"GET", "/nothing", nil, "", 200, "", ""},
		// A route that writes no body does not read Accept.
		{"GET", "/nothing", []string{"Accept: text/html;q=2"}, "", 200, "", ""},
		// A route that reads no body ignores the request's Content-Type.
		{"GET", "/hello", []string{"Content-Type: text/plain"}, "", 200, jsonType, `{"text":"Hello"}`},

		{"POST", "/messages", []string{"Content-Type: application/json"}, `{"text":"a"}`, 201, "", ""},
		{"POST", "/messages", []string{"Content-Type: Application/JSON; Charset=UTF-8"}, `{"text":"a"}`, 201, "", ""},
		{"POST", "/messages", []string{"Content-Type: application/json;charset=us-ascii"}, `{"text":"a"}`, 201, "", ""},
		{"POST", "/messages", []string{"Content-Type: application/xml"}, `<Message><text>a</text></Message>`, 201, "", ""},
		{"DELETE", "/messages/1", nil, "", 204, "", ""},

		{"POST", "/echo", []string{"Content-Type: application/json"}, `{"text":"a"}`, 200, jsonType, `{"text":"a"}`},
		{"POST", "/echo", []string{"Content-Type: application/json"}, ` {"text":"a", "extra":[1,{"x":2}], "more":null} ` + "\n", 200, jsonType, `{"text":"a"}`},
		{"POST", "/echo", []string{"Content-Type: application/vnd.foo+json"}, `{"text":"vnd"}`, 200, jsonType, `{"text":"vnd"}`},
		{"POST", "/echo", []string{"Content-Type: application/xml"}, `<Message><text>x</text></Message>`, 200, jsonType, `{"text":"x"}`},
		{"POST", "/echo", []string{"Content-Type: text/xml; charset=utf-8"}, `<?xml version="1.0"?><Message><text>x</text><!-- c --></Message> <!-- after -->`, 200, jsonType, `{"text":"x"}`},
		{"POST", "/echo", []string{"Content-Type: application/atom+xml"}, `<Message><text>x</text></Message>`, 200, jsonType, `{"text":"x"}`},
		{"POST", "/echo", []string{"Content-Type: application/xml", "Accept: application/xml"}, `<Message><text>x</text></Message>`, 200, xmlType, `<Message><text>x</text></Message>`},
		{"POST", "/checked", []string{"Content-Type: application/json"}, `{"text":""}`, 200, plain, ``},

		// Literal segments beat wildcards; other methods still reach the wildcard.
		{"GET", "/x/search", nil, "", 200, plain, "literal"},
		{"GET", "/x/other", nil, "", 200, plain, "other"},
		{"GET", "/x/a%2Fb", nil, "", 200, plain, "a/b"},
		{"PUT", "/x/search", nil, "", 204, "", ""},

		{"GET", "/cond?flag", nil, "", 200, plain, "flag"},
		{"GET", "/cond?flag=&kind=a", nil, "", 200, plain, "flag"},
		{"GET", "/cond?kind=a", nil, "", 200, plain, "kind=a"},
		{"GET", "/cond?kind=b", nil, "", 200, plain, "kind!=a"},
		{"GET", "/cond?kind", nil, "", 200, plain, "kind!=a"},
		{"GET", "/cond?kind=%61", nil, "", 200, plain, "kind=a"},
		{"GET", "/neg", nil, "", 200, plain, "v!=x"},
		{"GET", "/neg?v=y", nil, "", 200, plain, "v!=x"},
		{"GET", "/more?a&b", nil, "", 200, plain, "two"},
		{"GET", "/more?b&a", nil, "", 200, plain, "two"},
		{"GET", "/more?a", nil, "", 200, plain, "one"},
		{"GET", "/more?b", nil, "", 200, plain, "none"},
		{"GET", "/more", nil, "", 200, plain, "none"},

		{"POST", "/consumes", []string{"Content-Type: application/xml"}, `<Message/>`, 200, plain, "xml"},
		{"POST", "/consumes", []string{"Content-Type: application/json"}, `{}`, 200, plain, "default"},
		{"POST", "/consumes", []string{"Content-Type: text/xml"}, `<Message/>`, 200, plain, "default"},
		{"POST", "/vnd", []string{"Content-Type: application/vnd.foo+json"}, `{"text":"v"}`, 200, jsonType, `{"text":"v"}`},

		{"GET", "/produces", nil, "", 200, jsonType, `{"text":"json route"}`},
		{"GET", "/produces", []string{"Accept: application/xml"}, "", 200, xmlType, `<Message><text>xml route</text></Message>`},
		{"GET", "/produces", []string{"Accept: application/*"}, "", 200, jsonType, `{"text":"json route"}`},
	}
	for _, tt := range tests {
		in := tt.method + " " + tt.target + " " + strings.Join(tt.headers, "; ")
		var body io.Reader
		if tt.body != "" {
			body = strings.NewReader(tt.body)
		}
		w := serve(d, tt.method, tt.target, body, tt.headers...)
		if w.Code != tt.status || w.Body.String() != tt.want {
			t.Errorf("%q:\ngot  %v %s\nwant %v %s", in, w.Code, w.Body, tt.status, tt.want)
		}
		if got := w.Header().Get("Content-Type"); got != tt.contentType {
			t.Errorf("%q: Content-Type\ngot  %v\nwant %v", in, got, tt.contentType)
		}
		// Content-Length of these small bodies is net/http's to add, which a
		// recorder does not do; TestLargeBodyLength covers the dispatcher's.
		// Vary: Accept on every answer whose representation was negotiated.
		wantVary := ""
		if tt.contentType != "" {
			wantVary = "Accept"
		}
		if got := w.Header().Get("Vary"); got != wantVary {
			t.Errorf("%q: Vary\ngot  %v\nwant %v", in, got, wantVary)
		}
	}
}

// TestClientErrors checks every 4xx a chosen or refused route answers with.
func TestClientErrors(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{MaxBodyBytes: 256}, testRoutes()...)
	const readable = "application/json, application/*+json, application/xml, text/xml, application/*+xml"
	jsonCT := []string{"Content-Type: application/json"}
	big := `{"text":"` + strings.Repeat("x", 250) + `"}`
	tests := []struct {
		method, target string
		headers        []string
		body           string
		status         int
		detail         string // a prefix of the problem's detail
	}{
		// Consumes.
		{"POST", "/messages", []string{"Content-Type: text/plain"}, "x", 415, "Content-Type 'text/plain' is not supported."},
		{"POST", "/messages", nil, `{"text":"a"}`, 415, "Content-Type 'application/octet-stream' is not supported."},
		{"POST", "/messages", []string{"Content-Type: application/json;charset=ISO-8859-1"}, `{"text":"a"}`, 415, "Content-Type 'application/json;charset=ISO-8859-1' is not supported."},
		{"POST", "/messages", []string{"Content-Type: application/json;charset=utf-16"}, `{"text":"a"}`, 415, "Content-Type 'application/json;charset=utf-16' is not supported."},
		{"POST", "/messages", []string{"Content-Type: json"}, `{"text":"a"}`, 415, "Content-Type 'json' is not supported."},
		{"POST", "/messages", []string{"Content-Type: */*"}, `{"text":"a"}`, 415, "Content-Type '*/*' is not supported."},
		{"POST", "/messages", []string{"Content-Type: application/json;q"}, `{"text":"a"}`, 415, "Content-Type 'application/json;q' is not supported."},
		{"POST", "/vnd", []string{"Content-Type: application/json"}, `{"text":"a"}`, 415, "Content-Type 'application/json' is not supported."},
		{"POST", "/vnd", nil, "", 415, "Content-Type 'application/octet-stream' is not supported."},
		// Consumes comes before produces and params.
		{"POST", "/echo", []string{"Content-Type: text/plain", "Accept: image/png"}, "x", 415, "Content-Type 'text/plain' is not supported."},

		// Produces.
		{"GET", "/hello", []string{"Accept: image/png"}, "", 406, "Acceptable representations: [application/json, application/*+json, application/xml, text/xml, application/*+xml]."},
		{"GET", "/hello", []string{"Accept: */*;q=0"}, "", 406, "Acceptable representations: [application/json, application/*+json, application/xml, text/xml, application/*+xml]."},
		{"GET", "/hello", []string{"Accept: text/xml;q=0, text/*"}, "", 406, "Acceptable representations: [application/json, application/*+json, application/xml, text/xml, application/*+xml]."},
		{"GET", "/text", []string{"Accept: application/json"}, "", 406, "Acceptable representations: [text/plain]."},
		{"GET", "/produces", []string{"Accept: text/xml"}, "", 406, "Acceptable representations: [application/json, application/xml]."},
		{"GET", "/hello/abc", []string{"Accept: image/png"}, "", 406, "Acceptable representations"},
		{"POST", "/echo", []string{"Content-Type: application/json", "Accept: text/plain"}, `{bad`, 406, "Acceptable representations"},
		// Produces comes before params.
		{"GET", "/cond", []string{"Accept: application/json"}, "", 406, "Acceptable representations: [text/plain]."},

		// A malformed Accept.
		{"GET", "/hello", []string{"Accept: text/html;q=2"}, "", 400, "Accept header is malformed: "},
		{"GET", "/hello", []string{"Accept: text"}, "", 400, "Accept header is malformed: "},
		{"GET", "/hello", []string{"Accept: text/html, foo"}, "", 400, "Accept header is malformed: "},

		// Params.
		{"GET", "/cond", nil, "", 400, `Parameter conditions "!flag, kind!=a, kind" OR "!flag, kind=a" OR "flag" not met for the request.`},
		{"GET", "/cond?other=1", nil, "", 400, "Parameter conditions "},
		{"GET", "/cond?kind=%zz", nil, "", 400, "Parameter conditions "},
		{"GET", "/neg?v=x", nil, "", 400, `Parameter conditions "v!=x" not met for the request.`},

		// Conversion of inputs.
		{"GET", "/hello/abc", nil, "", 400, "Failed to convert 'id' with value: 'abc' (expected a 32-bit integer)."},
		{"GET", "/hello/1.5", nil, "", 400, "Failed to convert 'id' with value: '1.5'"},
		{"GET", "/hello/2147483648", nil, "", 400, "Failed to convert 'id' with value: '2147483648'"},
		{"GET", "/hello/%2B", nil, "", 400, "Failed to convert 'id' with value: '+'"},
		{"DELETE", "/messages/abc", nil, "", 400, "Failed to convert 'id' with value: 'abc'"},
		{"GET", "/search", nil, "", 400, "Required parameter 'param1' is not present."},
		{"GET", "/search?param1=1&param1=2", nil, "", 400, "Parameter 'param1' is given 2 times; it takes one value."},
		{"GET", "/search?param1=x", nil, "", 400, "Failed to convert 'param1' with value: 'x'"},
		{"GET", "/search?param1=%", nil, "", 400, "Malformed query string."},

		// Bodies.
		{"POST", "/echo", jsonCT, `{bad`, 400, "Malformed JSON body at byte 2: invalid character 'b' looking for beginning of object key string."},
		{"POST", "/echo", jsonCT, `[1]`, 400, "JSON body has the wrong shape: the body must be an object, not an array."},
		{"POST", "/echo", jsonCT, `"x"`, 400, "JSON body has the wrong shape: the body must be an object, not a string."},
		{"POST", "/echo", jsonCT, `5`, 400, "JSON body has the wrong shape: the body must be an object, not a number."},
		{"POST", "/echo", jsonCT, `{"text":5}`, 400, `JSON body has the wrong shape: "text" must be a string, not a number.`},
		{"POST", "/echo", jsonCT, `{"text":"a"} x`, 400, "Malformed JSON body at byte "},
		{"POST", "/echo", jsonCT, `{"text":"a"}{"text":"b"}`, 400, "Malformed JSON body at byte "},
		{"POST", "/echo", jsonCT, `{"text":"a"`, 400, "Malformed JSON body"},
		{"POST", "/echo", jsonCT, "{\"text\":\"\xff\"}", 400, "Request body is not valid UTF-8."},
		{"POST", "/echo", jsonCT, "", 400, "Required request body is missing."},
		{"POST", "/echo", jsonCT, " \n\t", 400, "Required request body is missing."},
		{"POST", "/echo", nil, "", 400, "Required request body is missing."},
		{"POST", "/echo", []string{"Content-Type: application/xml"}, `<Message><text>a</text>`, 400, "Malformed XML body: "},
		{"POST", "/echo", []string{"Content-Type: application/xml"}, `<Message/><Message/>`, 400, "Malformed XML body: content after the root element."},
		{"POST", "/echo", []string{"Content-Type: application/xml"}, `<Message/>trailing`, 400, "Malformed XML body: text after the root element."},
		{"POST", "/echo", []string{"Content-Type: application/xml"}, `<!DOCTYPE Message [<!ENTITY e "expanded">]><Message><text>&e;</text></Message>`, 400, "Malformed XML body: XML syntax error on line 1: invalid character entity &e;."},
		{"POST", "/echo", []string{"Content-Type: application/xml"}, `<!DOCTYPE Message [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><Message><text>&b;</text></Message>`, 400, "Malformed XML body: XML syntax error on line 1: invalid character entity &b;."},
		{"POST", "/checked", jsonCT, `{}`, 400, "Invalid request body: field 'text' is required."},
		{"POST", "/checked", []string{"Content-Type: application/xml"}, `<checked/>`, 400, "Invalid request body: field 'text' is required."},

		// Bodies over the limit, declared or not.
		{"POST", "/echo", jsonCT, big, 413, "Request body is larger than the limit of 256 bytes."},
		{"POST", "/echo", append([]string{"Transfer-Encoding: chunked"}, jsonCT...), big, 413, "Request body is larger than the limit of 256 bytes."},
	}
	for _, tt := range tests {
		in := tt.method + " " + tt.target + " " + strings.Join(tt.headers, "; ") + " " + tt.body
		var body io.Reader
		if tt.body != "" {
			body = strings.NewReader(tt.body)
		}
		r := httptest.NewRequest(tt.method, tt.target, body)
		for _, kv := range tt.headers {
			name, value, _ := strings.Cut(kv, ":")
			if name == "Transfer-Encoding" {
				// A body of unknown length, as a chunked request has.
				r.ContentLength = -1
				r.Body = io.NopCloser(io.MultiReader(strings.NewReader(tt.body)))
				continue
			}
			r.Header.Add(name, strings.TrimSpace(value))
		}
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		var p problem
		json.Unmarshal(w.Body.Bytes(), &p)
		if !strings.HasPrefix(p.Detail, tt.detail) || tt.detail == "" {
			t.Errorf("%q: detail\ngot  %v\nwant %v…", in, p.Detail, tt.detail)
		}
		checkProblem(t, in, w, tt.status, r.URL.EscapedPath(), p.Detail)
		if tt.status == http.StatusUnsupportedMediaType {
			if got := w.Header().Get("Accept"); got != readable && !(tt.target == "/vnd" && got == "application/vnd.foo+json") {
				t.Errorf("%q: Accept\ngot  %v\nwant %v", in, got, readable)
			}
		} else if got := w.Header().Get("Accept"); got != "" {
			t.Errorf("%q: Accept header %q on a %d", in, got, tt.status)
		}
	}
}

// TestBodyLimitOverTheWire sends bodies past the limit through a real server,
// with and without a declared length.
func TestBodyLimitOverTheWire(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(newDispatcher(t, Options{MaxBodyBytes: 16}, testRoutes()...))
	defer srv.Close()
	tests := []struct {
		name    string
		body    func() io.Reader
		chunked bool
		status  int
	}{
		{"fits", func() io.Reader { return strings.NewReader(`{"text":"0123"}`) }, false, 200},
		{"exactly the limit", func() io.Reader { return strings.NewReader(`{"text":"01234"}`) }, false, 200},
		{"fits, chunked", func() io.Reader { return io.MultiReader(strings.NewReader(`{"text":"01234"}`)) }, true, 200},
		{"too large", func() io.Reader { return strings.NewReader(`{"text":"012345"}`) }, false, 413},
		{"too large, chunked", func() io.Reader { return io.MultiReader(strings.NewReader(`{"text":"012345"}`)) }, true, 413},
		{"much too large, chunked", func() io.Reader { return io.MultiReader(strings.NewReader(strings.Repeat(" ", 1<<20))) }, true, 413},
	}
	for _, tt := range tests {
		req, err := http.NewRequest("POST", srv.URL+"/echo", tt.body())
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%q: %v", tt.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if chunked := slices.Contains(req.TransferEncoding, "chunked") || req.ContentLength <= 0; chunked != tt.chunked {
			t.Errorf("%q: request chunked %v, want %v", tt.name, chunked, tt.chunked)
		}
		if resp.StatusCode != tt.status {
			t.Errorf("%q:\ngot  %v %s\nwant %v", tt.name, resp.StatusCode, body, tt.status)
		}
		if tt.status == 413 && resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%q: Content-Type %q", tt.name, resp.Header.Get("Content-Type"))
		}
	}
}

func TestHandlerErrors(t *testing.T) {
	t.Parallel()
	var log logtest.Buffer
	d := newDispatcher(t, Options{Classify: classify, Logger: slog.New(slog.NewTextHandler(&log, nil))}, testRoutes()...)
	tests := []struct {
		path   string
		status int
		detail string
		logged bool // the error is logged, with its text
	}{
		{"/err/typed", 409, "Taken.", false},
		{"/err/wrapped", 409, "Taken.", false},
		{"/err/classified", 404, "No such thing.", false},
		{"/err/unknown", 500, "An unexpected error occurred.", true},
		{"/err/503", 503, "An unexpected error occurred.", true},
	}
	for _, tt := range tests {
		before := len(log.String())
		w := serve(d, "GET", tt.path, nil)
		checkProblem(t, tt.path, w, tt.status, tt.path, tt.detail)
		if strings.Contains(w.Body.String(), "hunter2") {
			t.Errorf("%q: body %s shows the error's text", tt.path, w.Body)
		}
		logged := log.String()[before:]
		if got := strings.Contains(logged, "hunter2"); got != tt.logged {
			t.Errorf("%q: error logged\ngot  %v\nwant %v (log %q)", tt.path, got, tt.logged, logged)
		}
	}

	// Without Classify, a domain error is a 500.
	d = newDispatcher(t, Options{}, testRoutes()...)
	w := serve(d, "GET", "/err/classified", nil)
	checkProblem(t, "/err/classified without Classify", w, 500, "/err/classified", "An unexpected error occurred.")
}

// TestRefusalsAtDebug: a 4xx is logged only when the logger takes DEBUG,
// with what the client was told and never the error's own text.
func TestRefusalsAtDebug(t *testing.T) {
	t.Parallel()
	var log logtest.Buffer
	d := newDispatcher(t, Options{Classify: classify, Logger: slog.New(slog.NewTextHandler(&log, nil))}, testRoutes()...)
	serve(d, "GET", "/err/typed", nil)
	if log.String() != "" {
		t.Errorf("a 4xx logged at INFO:\n%s", log.String())
	}
	d = newDispatcher(t, Options{Classify: classify, Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}, testRoutes()...)
	w := serve(d, "GET", "/err/typed", nil)
	id := w.Header().Get(RequestIDHeader)
	want := `level=DEBUG msg="request refused" method=GET path=/err/typed route="GET /err/typed" status=409 detail=Taken. request_id=` + id + "\n"
	if id == "" || !strings.HasSuffix(log.String(), want) || strings.Contains(log.String(), "hunter2") {
		t.Errorf("log:\n%s\nwant a line ending %q", log.String(), want)
	}
}

func TestPanic(t *testing.T) {
	t.Parallel()
	var log logtest.Buffer
	d := newDispatcher(t, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))}, testRoutes()...)
	srv := httptest.NewServer(d)
	defer srv.Close()

	for range 3 {
		resp, err := http.Get(srv.URL + "/panic")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 500 || resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%q:\ngot  %v %s %s\nwant a 500 problem", "/panic", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		var p problem
		if err := json.Unmarshal(body, &p); err != nil || p.Status != 500 || p.Detail != "An unexpected error occurred." || p.Instance != "/panic" {
			t.Errorf("%q: problem %+v (%v)", "/panic", p, err)
		}
		if bytes.Contains(body, []byte("secret")) || bytes.Contains(body, []byte("goroutine")) {
			t.Errorf("%q: body %s shows the panic", "/panic", body)
		}
		// The log line is found by the ID the client got.
		if p.RequestID == "" || resp.Header.Get(RequestIDHeader) != p.RequestID ||
			!strings.Contains(log.String(), "request_id="+p.RequestID+"\n") {
			t.Errorf("%q: request ID %q (header %q) not on the log's panic line:\n%s",
				"/panic", p.RequestID, resp.Header.Get(RequestIDHeader), log.String())
		}

		// The dispatcher keeps serving.
		resp, err = http.Get(srv.URL + "/hello")
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != `{"text":"Hello"}` {
			t.Errorf("%q after a panic:\ngot  %v %s\nwant 200", "/hello", resp.StatusCode, body)
		}
	}
	logged := log.String()
	for _, want := range []string{"handler panicked", "secret panic text", "route=\"GET /panic\"", "goroutine", "dispatcher_test.go"} {
		if !strings.Contains(logged, want) {
			t.Errorf("log lacks %q:\n%s", want, logged)
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	ok := message("ok")
	id := Path[int32]("id")
	tests := []struct {
		name   string
		routes []Route
		want   []string // in the error, besides "invalid route table"
	}{
		{"lower-case method", []Route{{Method: "get", Pattern: "/a", Handler: ok}}, []string{"route get /a: ", `method "get" is not one of`}},
		{"unknown method", []Route{{Method: "FETCH", Pattern: "/a", Handler: ok}}, []string{"route FETCH /a: ", `method "FETCH"`}},
		{"no method", []Route{{Pattern: "/a", Handler: ok}}, []string{"route  /a: ", `method ""`}},
		{"relative pattern", []Route{{Method: "GET", Pattern: "a", Handler: ok}}, []string{"route GET a: ", `pattern "a" must be a path starting with /`}},
		{"pattern with method", []Route{{Method: "GET", Pattern: "GET /a", Handler: ok}}, []string{"route GET GET /a: ", `pattern "GET /a" must be a path`}},
		{"pattern with host", []Route{{Method: "GET", Pattern: "example.com/a", Handler: ok}}, []string{"route GET example.com/a: ", "must be a path starting with /"}},
		{"empty pattern", []Route{{Method: "GET", Handler: ok}}, []string{"route GET : ", `pattern ""`}},
		{"no handler", []Route{{Method: "GET", Pattern: "/a"}}, []string{"route GET /a: ", "has no handler"}},
		{"204 with a result", []Route{{Method: "GET", Pattern: "/a", Status: 204, Handler: ok}}, []string{"route GET /a: ", "success status 204 cannot carry the dispatch.Message its handler returns"}},
		{"205 with a result", []Route{{Method: "GET", Pattern: "/a", Status: 205, Handler: text("x")}}, []string{"route GET /a: ", "success status 205 cannot carry the string"}},
		{"302", []Route{{Method: "GET", Pattern: "/a", Status: 302, Handler: Runs(nil)}}, []string{"route GET /a: ", "success status 302 is a redirect, but its handler answers with no Location; return a dispatch.Redirect"}},
		{"status on Plain", []Route{{Method: "GET", Pattern: "/a", Status: 201, Handler: Plain(http.NotFoundHandler())}}, []string{"route GET /a: ", "declares success status 201, but a Plain handler writes its own status"}},
		{"404", []Route{{Method: "GET", Pattern: "/a", Status: 404, Handler: ok}}, []string{"route GET /a: ", "success status 404 is not a 2xx status"}},
		{"199", []Route{{Method: "GET", Pattern: "/a", Status: 199, Handler: ok}}, []string{"route GET /a: ", "success status 199 is not a 2xx status"}},
		{"empty params condition", []Route{{Method: "GET", Pattern: "/a", Params: []string{""}, Handler: ok}}, []string{"route GET /a params=[]: ", `params condition ""`}},
		{"bare !", []Route{{Method: "GET", Pattern: "/a", Params: []string{"!"}, Handler: ok}}, []string{"route GET /a params=[!]: ", `params condition "!"`}},
		{"=v", []Route{{Method: "GET", Pattern: "/a", Params: []string{"=v"}, Handler: ok}}, []string{"route GET /a params=[=v]: ", `params condition "=v"`}},
		{"!!p", []Route{{Method: "GET", Pattern: "/a", Params: []string{"!!p"}, Handler: ok}}, []string{"route GET /a params=[!!p]: ", `params condition "!!p"`}},
		{"p&q", []Route{{Method: "GET", Pattern: "/a", Params: []string{"p&q"}, Handler: ok}}, []string{`params condition "p&q"`}},
		{"spaced", []Route{{Method: "GET", Pattern: "/a", Params: []string{" p"}, Handler: ok}}, []string{`params condition " p"`}},
		{"consumes no reader reads", []Route{{Method: "POST", Pattern: "/a", Consumes: []string{"text/plain"}, Handler: Accepts(func(*Request, Message) error { return nil })}},
			[]string{"route POST /a consumes=[text/plain]: ", `consumes "text/plain", but bodies can only be read as application/json, application/*+json, application/xml, text/xml, application/*+xml`}},
		{"malformed consumes", []Route{{Method: "POST", Pattern: "/a", Consumes: []string{"json"}, Handler: Accepts(func(*Request, Message) error { return nil })}},
			[]string{"route POST /a consumes=[json]: ", `consumes "json": `}},
		{"object as text", []Route{{Method: "GET", Pattern: "/a", Produces: []string{"text/plain"}, Handler: ok}},
			[]string{"route GET /a produces=[text/plain]: ", `produces "text/plain", but its dispatch.Message result can only be written as application/json, application/*+json, application/xml, text/xml, application/*+xml`}},
		{"string as JSON", []Route{{Method: "GET", Pattern: "/a", Produces: []string{"application/json"}, Handler: text("x")}},
			[]string{"route GET /a produces=[application/json]: ", `produces "application/json", but its string result can only be written as text/plain`}},
		{"malformed produces", []Route{{Method: "GET", Pattern: "/a", Produces: []string{"json"}, Handler: ok}},
			[]string{"route GET /a produces=[json]: ", `produces "json": `}},
		{"produces without a result", []Route{{Method: "GET", Pattern: "/a", Produces: []string{"application/json"}, Handler: Runs(nil)}},
			[]string{"route GET /a produces=[application/json]: ", "produces [application/json], but its handler answers with no body"}},
		{"produces on Accepts", []Route{{Method: "POST", Pattern: "/a", Produces: []string{"application/json"}, Handler: Accepts(func(*Request, Message) error { return nil })}},
			[]string{"route POST /a produces=[application/json]: ", "its handler answers with no body"}},
		{"undeclared path variable", []Route{{Method: "GET", Pattern: "/a/{id}", Handler: ok}},
			[]string{"route GET /a/{id}: ", `path variable {id} has no declared type; list dispatch.Path[T]("id") in Inputs`}},
		{"undeclared rest variable", []Route{{Method: "GET", Pattern: "/a/{rest...}", Handler: ok}},
			[]string{"route GET /a/{rest...}: ", "path variable {rest} has no declared type"}},
		{"declared path variable not in pattern", []Route{{Method: "GET", Pattern: "/a", Inputs: []Input{id}, Handler: ok}},
			[]string{"route GET /a: ", `declares path variable "id", which its pattern does not have`}},
		{"duplicate input", []Route{{Method: "GET", Pattern: "/a", Inputs: []Input{Query[int32]("q"), Query[string]("q")}, Handler: ok}},
			[]string{"route GET /a: ", `declares query parameter "q" twice`}},
		{"duplicate path input", []Route{{Method: "GET", Pattern: "/a/{id}", Inputs: []Input{id, id}, Handler: ok}},
			[]string{"route GET /a/{id}: ", `declares path parameter "id" twice`}},
		{"nameless input", []Route{{Method: "GET", Pattern: "/a", Inputs: []Input{Query[int32]("")}, Handler: ok}},
			[]string{"route GET /a: ", "declares a query parameter without a name"}},
		{"nil input", []Route{{Method: "GET", Pattern: "/a", Inputs: []Input{nil}, Handler: ok}},
			[]string{"route GET /a: ", "has a nil input"}},
		{"minimum of a string", []Route{{Method: "GET", Pattern: "/a", Inputs: []Input{OptionalQuery[string]("q").Min(1)}, Handler: ok}},
			[]string{"route GET /a: ", `declares a minimum for query parameter "q", which is not an integer`}},
		{"identical conditions", []Route{
			{Method: "GET", Pattern: "/t", Params: []string{"a", "b"}, Handler: ok},
			{Method: "GET", Pattern: "/t", Params: []string{"b", "a"}, Handler: ok},
		}, []string{"route GET /t params=[b, a]: has the same method, pattern and conditions as route GET /t params=[a, b]"}},
		{"identical without conditions", []Route{
			{Method: "GET", Pattern: "/t", Handler: ok},
			{Method: "GET", Pattern: "/t", Handler: text("x")},
		}, []string{"route GET /t: has the same method, pattern and conditions as route GET /t"}},
		{"conflicting patterns", []Route{
			{Method: "GET", Pattern: "/a/{x}", Inputs: []Input{Path[int32]("x")}, Handler: ok},
			{Method: "GET", Pattern: "/a/{y}", Inputs: []Input{Path[int32]("y")}, Handler: ok},
		}, []string{"route GET /a/{y}: ", "conflicts with", "GET /a/{x}"}},
		{"malformed pattern", []Route{{Method: "GET", Pattern: "/a/{x", Handler: ok}}, []string{"route GET /a/{x: "}},
		{"several", []Route{
			{Method: "GET", Pattern: "/fine", Handler: ok},
			{Method: "get", Pattern: "/one", Handler: ok},
			{Method: "GET", Pattern: "/two", Status: 204, Handler: ok},
			{Method: "GET", Pattern: "/three/{id}", Handler: ok},
			{Method: "GET", Pattern: "/fine", Params: []string{"p"}, Handler: ok},
			{Method: "GET", Pattern: "/fine", Params: []string{"p"}, Handler: ok},
		}, []string{"route get /one: ", "route GET /two: ", "route GET /three/{id}: ", "route GET /fine params=[p]: has the same"}},
		{"several faults of one route", []Route{{Method: "get", Pattern: "a", Status: 500}},
			[]string{"route get a: method", "\npattern \"a\" must be", "\nhas no handler", "\nsuccess status 500"}},
	}
	for _, tt := range tests {
		d, err := New(Options{}, tt.routes...)
		if err == nil || d != nil {
			t.Errorf("%q: New accepted the table", tt.name)
			continue
		}
		if _, ok := errors.AsType[*TableError](err); !ok {
			t.Errorf("%q: New's error is a %T, not a *TableError", tt.name, err)
		}
		msg := err.Error()
		for _, want := range append([]string{"invalid route table:\n"}, tt.want...) {
			if !strings.Contains(msg, want) {
				t.Errorf("%q:\ngot  %v\nwant it to contain %v", tt.name, msg, want)
			}
		}
	}
}

func TestNewAcceptsValidTables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		routes []Route
	}{
		{"none", nil},
		{"test routes", testRoutes()},
		{"every method", []Route{
			{Method: "GET", Pattern: "/m", Handler: text("x")},
			{Method: "HEAD", Pattern: "/m", Handler: Runs(nil)},
			{Method: "POST", Pattern: "/m", Handler: Runs(nil)},
			{Method: "PUT", Pattern: "/m", Handler: Runs(nil)},
			{Method: "PATCH", Pattern: "/m", Handler: Runs(nil)},
			{Method: "DELETE", Pattern: "/m", Handler: Runs(nil)},
			{Method: "OPTIONS", Pattern: "/m", Handler: Runs(nil)},
			{Method: "TRACE", Pattern: "/m", Handler: Runs(nil)},
		}},
		{"{$} is no variable", []Route{{Method: "GET", Pattern: "/m/{$}", Handler: text("x")}}},
		{"rest variable", []Route{{Method: "GET", Pattern: "/files/{path...}", Inputs: []Input{Path[string]("path")}, Handler: text("x")}}},
		{"status 202 and 206", []Route{
			{Method: "GET", Pattern: "/a", Status: 202, Handler: text("x")},
			{Method: "GET", Pattern: "/b", Status: 206, Handler: text("x")},
			{Method: "GET", Pattern: "/c", Status: 204, Handler: Runs(nil)},
		}},
		{"produces narrowed by a range", []Route{{Method: "GET", Pattern: "/a", Produces: []string{"application/*"}, Handler: message("x")}}},
		{"consumes on a bodiless handler", []Route{{Method: "POST", Pattern: "/a", Consumes: []string{"text/plain"}, Handler: Runs(nil)}}},
		{"same params, other consumes", []Route{
			{Method: "POST", Pattern: "/a", Consumes: []string{"application/json"}, Handler: Accepts(func(*Request, Message) error { return nil })},
			{Method: "POST", Pattern: "/a", Consumes: []string{"application/xml"}, Handler: Accepts(func(*Request, Message) error { return nil })},
		}},
	}
	for _, tt := range tests {
		if _, err := New(Options{}, tt.routes...); err != nil {
			t.Errorf("%q: %v", tt.name, err)
		}
	}
}

func TestRouteString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   Route
		want string
	}{
		{Route{Method: "GET", Pattern: "/a"}, "GET /a"},
		{Route{Method: "POST", Pattern: "/a", Params: []string{"p", "!q"}, Consumes: []string{"application/json"}, Produces: []string{"application/xml", "text/xml"}},
			"POST /a params=[p, !q] consumes=[application/json] produces=[application/xml, text/xml]"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%q:\ngot  %v\nwant %v", tt.want, got, tt.want)
		}
	}
}

// TestAcceptPerRequest checks that the pooled exchange forgets the parsed
// Accept header between requests.
func TestAcceptPerRequest(t *testing.T) {
	t.Parallel()
	d := testDispatcher(t)
	for range 3 {
		for _, tt := range []struct{ accept, want string }{
			{"application/xml", `<Message><text>xml route</text></Message>`},
			{"application/json", `{"text":"json route"}`},
			{"", `{"text":"json route"}`},
		} {
			var headers []string
			if tt.accept != "" {
				headers = []string{"Accept: " + tt.accept}
			}
			w := serve(d, "GET", "/produces", nil, headers...)
			if w.Body.String() != tt.want {
				t.Errorf("%q:\ngot  %v\nwant %v", tt.accept, w.Body, tt.want)
			}
		}
	}
}

// discard is a ResponseWriter that keeps nothing but its header map, which
// it reuses, so that allocation counts are the dispatcher's own.
type discard struct {
	h      http.Header
	status int
	n      int
}

func (w *discard) Header() http.Header         { return w.h }
func (w *discard) WriteHeader(code int)        { w.status = code }
func (w *discard) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

func (w *discard) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}

func allocRequest(t testing.TB) (*Dispatcher, *http.Request, *discard) {
	t.Helper()
	id := Path[int32]("id")
	d := newDispatcher(t, Options{}, Route{
		Method: "GET", Pattern: "/hello/{id}", Inputs: []Input{id},
		Handler: Returns(func(r *Request) (Message, error) {
			if id.Get(r) != 42 {
				return Message{}, errors.New("the path variable was not converted")
			}
			return Message{Text: "Hello"}, nil
		}),
	})
	r := httptest.NewRequest("GET", "/hello/42", nil)
	r.Header.Set("Accept", "application/json, application/xml;q=0.9")
	return d, r, &discard{h: http.Header{}}
}

func TestAllocs(t *testing.T) {
	// Not parallel: it counts the allocations of the whole process.
	if testing.Short() {
		t.Skip("allocation counts are not short")
	}
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	d, r, w := allocRequest(t)
	allocs := testing.AllocsPerRun(100, func() {
		w.reset()
		d.ServeHTTP(w, r)
	})
	if w.status != 200 || w.n != len(`{"text":"Hello"}`) {
		t.Fatalf("status %d, %d bytes", w.status, w.n)
	}
	t.Logf("GET /hello/{id} with a small struct result: %v allocations", allocs)
	const budget = 2
	if allocs > budget {
		t.Errorf("%v allocations per request, more than the budget of %d", allocs, budget)
	}
}

func BenchmarkServe(b *testing.B) {
	d, r, w := allocRequest(b)
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		d.ServeHTTP(w, r)
	}
	if w.status != 200 {
		b.Fatalf("status %d", w.status)
	}
}

// TestLargeBodyLength checks that a body too large for net/http to size by
// itself gets its Content-Length from the dispatcher, and that a small one
// gets net/http's, HEAD included.
func TestLargeBodyLength(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 5000)
	d, err := New(Options{},
		Route{Method: "GET", Pattern: "/big", Handler: Returns(func(*Request) (string, error) { return big, nil })},
		Route{Method: "GET", Pattern: "/small", Handler: Returns(func(*Request) (string, error) { return "small", nil })},
	)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(d)
	defer srv.Close()
	for _, tt := range []struct {
		method, path string
		want         int64
	}{{"GET", "/big", 5000}, {"HEAD", "/big", 5000}, {"GET", "/small", 5}, {"HEAD", "/small", 5}} {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.ContentLength != tt.want {
			t.Errorf("%s %s: Content-Length %d, want %d", tt.method, tt.path, resp.ContentLength, tt.want)
		}
	}
}
