package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestEndpoints walks the spec's endpoint table, in order, through one
// running program, so later rows see what earlier ones did.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	tests := []struct {
		method, path, body string
		headers            []string
		status             int
		contentType        string
		want               string
	}{
		{"GET", "/api/hello", "", nil, 200, "application/json", `{"text":"Hello World!"}`},
		{"GET", "/api/hello", "", []string{"Accept: application/xml"}, 200, "application/xml;charset=UTF-8", `<Message><text>Hello World!</text></Message>`},
		{"GET", "/api/hello", "", []string{"Accept: text/xml"}, 200, "text/xml;charset=UTF-8", `<Message><text>Hello World!</text></Message>`},
		{"GET", "/api/hello", "", []string{"Accept: application/xml;q=0.5, application/json"}, 200, "application/json", `{"text":"Hello World!"}`},
		{"GET", "/api/hello", "", []string{"Accept: application/*+json"}, 200, "application/json", `{"text":"Hello World!"}`},
		{"GET", "/api/hello", "", []string{"Accept: application/vnd.example+json"}, 200, "application/vnd.example+json", `{"text":"Hello World!"}`},
		{"GET", "/api/hello", "", []string{"Accept: application/atom+xml"}, 200, "application/atom+xml;charset=UTF-8", `<Message><text>Hello World!</text></Message>`},
		{"GET", "/api/hi", "", nil, 200, "text/plain;charset=UTF-8", `Hi`},
		{"GET", "/api/nothing", "", nil, 200, "", ``},
		{"GET", "/api/hello/42", "", nil, 200, "application/json", `{"text":"Hello World! 42"}`},
		{"GET", "/api/hello/-7", "", nil, 200, "application/json", `{"text":"Hello World! -7"}`},
		{"GET", "/api/hello/42", "", []string{"Accept: application/xml"}, 200, "application/xml;charset=UTF-8", `<Message><text>Hello World! 42</text></Message>`},
		{"GET", "/api/messages", "", nil, 200, "application/json", `[]`},
		{"POST", "/api/messages", `{"text":"first"}`, []string{"Content-Type: application/json"}, 201, "", ``},
		{"POST", "/api/messages", `<Message><text>second</text></Message>`, []string{"Content-Type: application/xml"}, 201, "", ``},
		{"POST", "/api/messages", `{"text":"third","extra":1}`, []string{"Content-Type: Application/JSON; Charset=utf-8"}, 201, "", ``},
		{"GET", "/api/messages", "", nil, 200, "application/json", `[{"text":"first"},{"text":"second"},{"text":"third"}]`},
		{"PUT", "/api/messages/1", `{"text":"2nd"}`, []string{"Content-Type: application/json"}, 204, "", ``},
		{"PUT", "/api/messages/0", `<Message><text>1st</text></Message>`, []string{"Content-Type: text/xml"}, 204, "", ``},
		{"GET", "/api/messages/1", "", nil, 200, "application/json", `{"text":"2nd"}`},
		{"DELETE", "/api/messages/0", "", nil, 204, "", ``},
		{"GET", "/api/messages", "", []string{"Accept: application/xml"}, 200, "application/xml;charset=UTF-8", `<List><item><text>2nd</text></item><item><text>third</text></item></List>`},
		{"GET", "/api/messages/search?param1=5", "", nil, 200, "", ``},
		{"GET", "/api/messages/search?param1=5&param2=123e4567-e89b-12d3-a456-426614174000", "", nil, 200, "", ``},
	}
	for _, tt := range tests {
		got := s.do(t, tt.method, tt.path, tt.body, tt.headers...)
		name := fmt.Sprintf("%s %s %v", tt.method, tt.path, tt.headers)
		if got.status != tt.status || got.body != tt.want {
			t.Errorf("%s:\ngot  %d %q\nwant %d %q", name, got.status, got.body, tt.status, tt.want)
		}
		if ct := got.header.Get("Content-Type"); ct != tt.contentType {
			t.Errorf("%s: Content-Type %q, want %q", name, ct, tt.contentType)
		}
	}
}

// TestErrors checks every error status through the running program: each is
// a problem document with the status, its reason phrase and a detail.
func TestErrors(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	s.do(t, "POST", "/api/messages", `{"text":"only"}`, "Content-Type: application/json")
	tests := []struct {
		method, path, body string
		headers            []string
		status             int
		detail             string // a part of the detail
		header             string // "Name: value" the response must carry
	}{
		{"GET", "/api/nope", "", nil, 404, "No endpoint GET /api/nope.", ""},
		{"GET", "/api/hello/", "", nil, 404, "No endpoint", ""},
		{"GET", "/API/hello", "", nil, 404, "No endpoint", ""},
		{"POST", "/api/hello", "", nil, 405, "Method 'POST' is not supported", "Allow: GET, HEAD"},
		{"PATCH", "/api/messages/0", "", nil, 405, "Method 'PATCH' is not supported", "Allow: DELETE, GET, HEAD, PUT"},
		{"POST", "/api/messages", "text", []string{"Content-Type: text/plain"}, 415, "Content-Type 'text/plain' is not supported.", "Accept: application/json, application/*+json, application/xml, text/xml, application/*+xml"},
		{"POST", "/api/messages", `{"text":"x"}`, nil, 415, "Content-Type 'application/octet-stream' is not supported.", ""},
		{"POST", "/api/messages", `{"text":"x"}`, []string{"Content-Type: application/json;charset=ISO-8859-1"}, 415, "is not supported", ""},
		{"GET", "/api/hello", "", []string{"Accept: text/plain"}, 406, "Acceptable representations: [application/json, application/*+json, application/xml, text/xml, application/*+xml].", "Vary: Accept"},
		{"GET", "/api/hi", "", []string{"Accept: application/json"}, 406, "Acceptable representations: [text/plain].", ""},
		{"GET", "/api/hello", "", []string{"Accept: application/json;q=0, */*;q=0"}, 406, "Acceptable representations", ""},
		{"GET", "/api/hello", "", []string{"Accept: application//json"}, 400, "Accept header is malformed", ""},
		{"GET", "/api/hello/abc", "", nil, 400, "Failed to convert 'id' with value: 'abc'", ""},
		{"GET", "/api/hello/1.5", "", nil, 400, "Failed to convert 'id' with value: '1.5'", ""},
		{"GET", "/api/hello/2147483648", "", nil, 400, "Failed to convert 'id' with value: '2147483648'", ""},
		{"GET", "/api/messages/search", "", nil, 400, "Required parameter 'param1' is not present.", ""},
		{"GET", "/api/messages/search?param1=x", "", nil, 400, "Failed to convert 'param1' with value: 'x'", ""},
		{"GET", "/api/messages/search?param1=1&param2=not-a-uuid", "", nil, 400, "Failed to convert 'param2' with value: 'not-a-uuid'", ""},
		{"GET", "/api/messages/search?param1=1&param1=2", "", nil, 400, "Parameter 'param1' is given 2 times", ""},
		{"GET", "/api/messages/search?param1=%zz", "", nil, 400, "Malformed query string", ""},
		{"PUT", "/api/messages/search", `{"text":"x"}`, []string{"Content-Type: application/json"}, 400, "Failed to convert 'index' with value: 'search'", ""},
		{"POST", "/api/messages", ``, []string{"Content-Type: application/json"}, 400, "Required request body is missing.", ""},
		{"POST", "/api/messages", `{"text":`, []string{"Content-Type: application/json"}, 400, "Malformed JSON body", ""},
		{"POST", "/api/messages", `[1]`, []string{"Content-Type: application/json"}, 400, "wrong shape", ""},
		{"POST", "/api/messages", `"x"`, []string{"Content-Type: application/json"}, 400, "wrong shape", ""},
		{"POST", "/api/messages", `{}`, []string{"Content-Type: application/json"}, 400, "field 'text' is required", ""},
		{"POST", "/api/messages", `{"TEXT":"x"}`, []string{"Content-Type: application/json"}, 400, "field 'text' is required", ""},
		{"POST", "/api/messages", `{"text":5}`, []string{"Content-Type: application/json"}, 400, `"text" must be a string`, ""},
		{"POST", "/api/messages", `{"text":"a"} {"text":"b"}`, []string{"Content-Type: application/json"}, 400, "Malformed JSON body", ""},
		{"POST", "/api/messages", "{\"text\":\"\xff\"}", []string{"Content-Type: application/json"}, 400, "not valid UTF-8", ""},
		{"POST", "/api/messages", `<!DOCTYPE m [<!ENTITY x "boom">]><Message><text>&x;</text></Message>`, []string{"Content-Type: application/xml"}, 400, "Malformed XML body", ""},
		{"POST", "/api/messages", `<Message><text>a</text>`, []string{"Content-Type: application/xml"}, 400, "Malformed XML body", ""},
		{"POST", "/api/messages", `{"text":"` + strings.Repeat("a", 1<<20) + `"}`, []string{"Content-Type: application/json"}, 413, "larger than the limit of 1048576 bytes", ""},
		{"PUT", "/api/messages/1", `{"text":"x"}`, []string{"Content-Type: application/json"}, 500, "No message at index 1; the collection holds 1.", ""},
		{"PUT", "/api/messages/-1", `{"text":"x"}`, []string{"Content-Type: application/json"}, 500, "No message at index -1", ""},
		{"DELETE", "/api/messages/7", "", nil, 500, "No message at index 7", ""},
		{"GET", "/api/messages/7", "", nil, 500, "No message at index 7", ""},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s %s %v", tt.method, tt.path, tt.headers)
		got := s.do(t, tt.method, tt.path, tt.body, tt.headers...)
		if got.status != tt.status {
			t.Errorf("%s: status %d, want %d; body %s", name, got.status, tt.status, got.body)
			continue
		}
		p, err := boottest.CheckProblem(got.status, got.header, got.body)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, got.body)
			continue
		}
		if path, _, _ := strings.Cut(tt.path, "?"); p.Instance != path {
			t.Errorf("%s: problem %+v, want instance %q", name, p, path)
		}
		if !strings.Contains(p.Detail, tt.detail) {
			t.Errorf("%s: detail %q does not contain %q", name, p.Detail, tt.detail)
		}
		if tt.header != "" {
			k, v, _ := strings.Cut(tt.header, ": ")
			if got := got.header.Get(k); got != v {
				t.Errorf("%s: header %s = %q, want %q", name, k, got, v)
			}
		}
	}
	// The failed requests changed nothing.
	if got := s.do(t, "GET", "/api/messages", ""); got.body != `[{"text":"only"}]` {
		t.Errorf("after the failed requests the messages are %s, want only the first", got.body)
	}
}

func TestOptionsAndHead(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	got := s.do(t, "OPTIONS", "/api/hello", "")
	if got.status != 200 || got.header.Get("Allow") != "GET, HEAD, OPTIONS" || got.body != "" {
		t.Errorf("OPTIONS /api/hello: %d Allow=%q body %q; want 200, Allow GET, HEAD, OPTIONS, no body", got.status, got.header.Get("Allow"), got.body)
	}
	got = s.do(t, "OPTIONS", "/api/nope", "")
	if got.status != 404 {
		t.Errorf("OPTIONS /api/nope: %d, want 404", got.status)
	}
	// An unclean path is redirected (307, keeping the method) to its clean
	// form, without the ServeMux's HTML page.
	req, _ := http.NewRequest("GET", s.base+"/api//hello", nil)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 307 || resp.Header.Get("Location") != "/api/hello" || len(body) != 0 {
		t.Errorf("GET /api//hello: %d Location=%q body %q; want 307 to /api/hello, no body", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	got = s.do(t, "HEAD", "/api/hello", "")
	if got.status != 200 || got.body != "" || got.header.Get("Content-Length") != "23" || got.header.Get("Content-Type") != "application/json" {
		t.Errorf("HEAD /api/hello: %d %v %q; want 200, the GET's headers, no body", got.status, got.header, got.body)
	}
}

// TestNumbersArePrototypes checks the prototype lifecycle of the number
// component: each endpoint has its own instance, fixed for its whole life.
func TestNumbersArePrototypes(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	a := s.do(t, "GET", "/api/number/val-a", "")
	b := s.do(t, "GET", "/api/number/val-b", "")
	for _, r := range []response{a, b} {
		if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s answered %d %q %q; want 200 and a 32-bit JSON number", r.request, r.status, r.header.Get("Content-Type"), r.body)
		}
		decodeJSON[int32](t, r)
	}
	if a.body == b.body {
		t.Errorf("val-a and val-b both answered %s; prototype scope gives each its own instance", a.body)
	}
	for range 5 {
		if again := s.do(t, "GET", "/api/number/val-a", ""); again.body != a.body {
			t.Fatalf("val-a answered %s, then %s; an instance's number is fixed", a.body, again.body)
		}
	}
	if x := s.do(t, "GET", "/api/number/val-b", "", "Accept: application/xml"); x.body != "<Integer>"+b.body+"</Integer>" {
		t.Errorf("val-b as XML: %q, want <Integer>%s</Integer>", x.body, b.body)
	}
}

// TestConcurrentMessages has many clients append at once: nothing is lost or
// duplicated, and each client's messages keep their order.
func TestConcurrentMessages(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	const clients, each = 16, 50
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				body := fmt.Sprintf(`{"text":"c%d-%d"}`, c, i)
				resp, err := http.Post(s.base+"/api/messages", "application/json", strings.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 201 {
					t.Errorf("POST %s: %d", body, resp.StatusCode)
				}
			}
		}()
	}
	wg.Wait()
	checkEachClientsMessages(t, s, clients, each)
}

// checkEachClientsMessages checks that the service stores each of the
// clients' messages, "c<client>-<number>" with numbers from 0 to each-1,
// exactly once, and each client's in the order it sent them.
func checkEachClientsMessages(t *testing.T, s *service, clients, each int) {
	t.Helper()
	all := decodeJSON[[]struct{ Text string }](t, s.do(t, "GET", "/api/messages", ""))
	if len(all) != clients*each {
		t.Errorf("%d messages stored, want %d", len(all), clients*each)
	}
	next := make([]int, clients) // each client's next message, in its order
	for pos, m := range all {
		var c, i int
		if _, err := fmt.Sscanf(m.Text, "c%d-%d", &c, &i); err != nil || c < 0 || c >= clients {
			t.Fatalf("position %d holds %q, which no client sent", pos, m.Text)
		}
		if i != next[c] {
			t.Fatalf("position %d holds client %d's message %d where its message %d was due: lost, duplicated or reordered", pos, c, i, next[c])
		}
		next[c]++
	}
	for c, n := range next {
		if n != each {
			t.Errorf("client %d: %d messages stored, want %d", c, n, each)
		}
	}
}
