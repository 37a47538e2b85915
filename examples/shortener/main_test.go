package main

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/internal/loc"
)

// TestSize: the example is a service in at most 150 lines of its own Go.
func TestSize(t *testing.T) {
	n, err := loc.Count(".")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("examples/shortener: %d lines of Go (not blank, not comments, tests excluded)", n)
	if n > 150 {
		t.Errorf("examples/shortener has %d lines of Go, more than 150", n)
	}
}

// shortener is a client of one running shortener that does not follow
// redirects, so that a test sees them.
type shortener struct {
	t    *testing.T
	base string
	http *http.Client
}

func launch(t *testing.T, dbURL string) *shortener {
	s := boottest.Start(t, service, []string{"--app.datasource.url=" + dbURL}, nil)
	return &shortener{t: t, base: s.URL, http: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (s *shortener) send(method, path, body string) boottest.Response {
	s.t.Helper()
	var headers []string
	if body != "" {
		headers = append(headers, "Content-Type: application/json")
	}
	return boottest.Send(s.t, s.http, method, s.base+path, body, headers...)
}

// expect sends a request and checks its status, and that its body holds
// each of want.
func (s *shortener) expect(method, path, body string, status int, want ...string) boottest.Response {
	s.t.Helper()
	r := s.send(method, path, body)
	if r.Status != status {
		s.t.Errorf("%s %s %s: %d %s; want %d", method, path, body, r.Status, r.Body, status)
	}
	for _, w := range want {
		if !strings.Contains(r.Body, w) {
			s.t.Errorf("%s %s %s: %d %s; want it to hold %s", method, path, body, r.Status, r.Body, w)
		}
	}
	return r
}

// TestLinks: links are created (201 with their Location), read, followed
// (a 302 to their URL, counted), listed a page at a time in the order
// asked for, and removed; what a client gets wrong is a 4xx naming it.
func TestLinks(t *testing.T) {
	t.Parallel()
	db := enginetest.Postgres(t)
	s := launch(t, db)

	made := s.expect("POST", "/links", `{"url":"https://go.dev/doc/","code":"go-docs"}`, 201, `"code":"go-docs"`, `"url":"https://go.dev/doc/"`, `"hits":0`)
	if loc := made.Header.Get("Location"); loc != "/links/go-docs" {
		t.Errorf("Location %q, want /links/go-docs", loc)
	}
	random := s.expect("POST", "/links", `{"url":"https://example.com/a?b=c"}`, 201)
	var l Link
	if err := json.Unmarshal([]byte(random.Body), &l); err != nil || len(l.Code) != 7 || random.Header.Get("Location") != "/links/"+l.Code {
		t.Errorf("a link without a code: %v %+v, Location %q", err, l, random.Header.Get("Location"))
	}
	s.expect("POST", "/links", `{"url":"https://example.org/","code":"go-docs"}`, 409, `"detail":"The code 'go-docs' is taken."`)
	s.expect("GET", "/links/go-docs", "", 200, `"url":"https://go.dev/doc/"`)

	for range 2 {
		r := s.expect("GET", "/go/go-docs", "", 302)
		if r.Header.Get("Location") != "https://go.dev/doc/" || r.Body != "" {
			t.Errorf("following a link: Location %q, body %q", r.Header.Get("Location"), r.Body)
		}
	}
	s.expect("GET", "/links/go-docs", "", 200, `"hits":2`)
	s.expect("GET", "/go/nowhere", "", 404, `"detail":"No link has the code 'nowhere'."`)

	s.expect("POST", "/links", `{"url":"https://example.net/","code":"third"}`, 201)
	codes := []string{"go-docs", "third", l.Code}
	slices.Sort(codes)
	s.expect("GET", "/links?size=2&sort=code", "", 200,
		`"content":[{"code":"`+codes[0]+`"`, `"page":{"size":2,"number":0,"totalElements":3,"totalPages":2}`)
	s.expect("GET", "/links?size=2&page=1&sort=code,desc", "", 200, `"content":[{"code":"`+codes[0]+`"`, `"number":1`)
	s.expect("GET", "/links?sort=hits,desc", "", 200, `"content":[{"code":"go-docs"`)
	// A property sorted by again is sorted by once, the first time.
	s.expect("GET", "/links?sort=hits,desc&sort="+strings.Repeat("hits,", 13_107), "", 200, `"content":[{"code":"go-docs"`)
	s.expect("GET", "/links", "", 200, `"content":[{"code":"third"`) // newest first
	s.expect("GET", "/links?page=5", "", 200, `"content":[]`, `"totalElements":3`)
	s.expect("GET", "/links?sort=url", "", 400, `url`, `code, created, hits`)
	s.expect("GET", "/links?size=x", "", 400, `size`)

	s.expect("DELETE", "/links/go-docs", "", 204)
	s.expect("GET", "/links/go-docs", "", 404)
	s.expect("DELETE", "/links/go-docs", "", 404)

	// The starter ran Flyway's migration, and left Flyway's history.
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var version, script string
	var ok bool
	if err := conn.QueryRow(context.Background(), `SELECT version, script, success FROM flyway_schema_history WHERE version IS NOT NULL`).Scan(&version, &script, &ok); err != nil ||
		version != "1" || script != "V1__links.sql" || !ok {
		t.Errorf("Flyway's history: %v %s %s %v", err, version, script, ok)
	}
}

// TestValidation: every fault of a request is reported in one 400, each
// with where it is and what is wrong, before anything is stored.
func TestValidation(t *testing.T) {
	t.Parallel()
	s := launch(t, enginetest.Postgres(t))
	r := s.expect("POST", "/links", `{"url":"javascript:alert(1)","code":"No Spaces!"}`, 400)
	var p struct {
		boottest.Problem
		Errors []struct{ Detail, Pointer, Parameter string }
	}
	if _, err := boottest.CheckProblem(400, r.Header, r.Body); err != nil || json.Unmarshal([]byte(r.Body), &p) != nil {
		t.Fatalf("%v: %s", err, r.Body)
	}
	pointers := map[string]bool{}
	for _, e := range p.Errors {
		pointers[e.Pointer] = true
	}
	if len(p.Errors) != 2 || !pointers["#/url"] || !pointers["#/code"] {
		t.Errorf("want a fault at #/url and one at #/code: %s", r.Body)
	}
	s.expect("POST", "/links", `{"code":"ab"}`, 400, `"pointer":"#/url"`, `"detail":"must not be blank"`, `"detail":"size must be between 3 and 32"`)
	s.expect("GET", "/links/Upper", "", 400, `"parameter":"code"`)
	s.expect("GET", "/links", "", 200, `"content":[]`, `"totalElements":0`)
}

// TestDocument: the OpenAPI document says what the service answers: a
// 201 and a 302 with their Location, the constraints, and the paging.
func TestDocument(t *testing.T) {
	t.Parallel()
	s := launch(t, enginetest.Postgres(t))
	r := s.expect("GET", "/v3/api-docs", "", 200)
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name string }
			Responses  map[string]struct {
				Headers map[string]any
			}
		}
		Components struct{ Schemas map[string]map[string]any }
	}
	if err := json.Unmarshal([]byte(r.Body), &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Paths["/links"]["post"].Responses["201"].Headers["Location"]; !ok {
		t.Errorf("POST /links: no 201 with a Location: %+v", doc.Paths["/links"]["post"].Responses)
	}
	if _, ok := doc.Paths["/go/{code}"]["get"].Responses["302"].Headers["Location"]; !ok {
		t.Errorf("GET /go/{code}: no 302 with a Location: %+v", doc.Paths["/go/{code}"]["get"].Responses)
	}
	var params []string
	for _, p := range doc.Paths["/links"]["get"].Parameters {
		params = append(params, p.Name)
	}
	if strings.Join(params, ",") != "page,size,sort" {
		t.Errorf("GET /links parameters %v, want page, size and sort", params)
	}
	newLink, _ := json.Marshal(doc.Components.Schemas["NewLink"])
	for _, want := range []string{`"required":["url"]`, `"maxLength":2048`, `"minLength":3`, `"pattern":`} {
		if !strings.Contains(string(newLink), want) {
			t.Errorf("NewLink's schema lacks %s: %s", want, newLink)
		}
	}
}
