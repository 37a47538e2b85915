package boot_test

// Paging: a service's Pageable routes read page, size and sort as
// app.data.web.* names and bounds them, answer a Page in Spring Data's
// VIA_DTO shape, and the OpenAPI document says so; a bad setting stops
// start-up, naming it.

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
)

// book is an item of the shelf service's pages.
type book struct {
	Title string `json:"title"`
	Year  int    `json:"year"`
}

var shelfPages = dispatch.Pageable("title", "year").DefaultSort(dispatch.Order{Property: "year"})

// shelf is a service of one route: a page of its books, sorted as asked.
func shelf() boot.Service[struct{}] {
	books := []book{{"Dune", 1965}, {"Emma", 1815}, {"Ulysses", 1922}, {"Beloved", 1987}, {"Kindred", 1979}}
	return boot.Service[struct{}]{
		Name: "shelf",
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(dispatch.Route{Method: "GET", Pattern: "/books", Inputs: []dispatch.Input{shelfPages},
				Handler: dispatch.Returns(func(r *dispatch.Request) (dispatch.Page[book], error) {
					req := shelfPages.Get(r)
					sorted := slices.Clone(books)
					slices.SortStableFunc(sorted, func(a, b book) int {
						for _, o := range req.Sort {
							c := cmp.Compare(a.Year, b.Year)
							if o.Property == "title" {
								c = strings.Compare(a.Title, b.Title)
							}
							if o.Descending {
								c = -c
							}
							if c != 0 {
								return c
							}
						}
						return 0
					})
					lo, hi := min(req.Offset(), len(sorted)), min(req.Offset()+req.Size, len(sorted))
					return dispatch.NewPage(sorted[lo:hi], req, int64(len(sorted))), nil
				})})
			return nil
		},
	}
}

// TestPaging asks a running service for pages, sorted, over HTTP, under
// settings that rename and bound the parameters.
func TestPaging(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, shelf(), []string{
		"--app.data.web.pageable.default-page-size=2", "--app.data.web.pageable.max-page-size=3",
		"--app.data.web.pageable.one-indexed-parameters=true", "--app.data.web.pageable.size-parameter=per-page",
	}, nil)
	tests := []struct{ path, want string }{
		{"/books", `{"content":[{"title":"Emma","year":1815},{"title":"Ulysses","year":1922}],"page":{"size":2,"number":0,"totalElements":5,"totalPages":3}}`},
		{"/books?page=3", `{"content":[{"title":"Beloved","year":1987}],"page":{"size":2,"number":2,"totalElements":5,"totalPages":3}}`},
		{"/books?sort=title,desc&per-page=9", `{"content":[{"title":"Ulysses","year":1922},{"title":"Kindred","year":1979},{"title":"Emma","year":1815}],"page":{"size":3,"number":0,"totalElements":5,"totalPages":2}}`},
		{"/books?sort=year,desc&page=2&per-page=3&size=1", `{"content":[{"title":"Ulysses","year":1922},{"title":"Emma","year":1815}],"page":{"size":3,"number":1,"totalElements":5,"totalPages":2}}`},
		{"/books?page=9", `{"content":[],"page":{"size":2,"number":8,"totalElements":5,"totalPages":3}}`},
	}
	for _, tt := range tests {
		r := send(t, nil, "GET", s.URL+tt.path, "")
		if r.status != 200 || r.body != tt.want {
			t.Errorf("%s:\ngot  %d %s\nwant %s", tt.path, r.status, r.body, tt.want)
		}
	}
	for path, detail := range map[string]string{
		"/books?sort=price":   "Parameter 'sort' sorts by 'price', which this route cannot sort by; it sorts by: title, year.",
		"/books?page=0":       "Parameter 'page' must be 1 or more, not 0.",
		"/books?per-page=abc": "Failed to convert 'per-page' with value: 'abc' (expected a 32-bit integer).",
	} {
		r := send(t, nil, "GET", s.URL+path, "")
		if p, err := boottest.CheckProblem(r.status, r.header, r.body); err != nil || r.status != 400 || p.Detail != detail {
			t.Errorf("%s: got %d %v %s\nwant a 400 problem document with %q", path, r.status, err, r.body, detail)
		}
	}
	// The document describes the parameters under the same settings.
	doc := send(t, nil, "GET", s.URL+"/v3/api-docs", "").body
	for _, want := range []string{
		`{"allowEmptyValue":true,"description":"The page to return, the first being 1.","in":"query","name":"page","schema":{"default":1,"format":"int32","minimum":1,"type":"integer"}}`,
		`"name":"per-page","schema":{"default":2,"format":"int32","maximum":3,"minimum":1,"type":"integer"}}`,
		`"explode":true,"in":"query","name":"sort","schema":{"default":["year,asc"],"items":{"enum":["title","title,asc","title,desc","year","year,asc","year,desc"],"type":"string"},"type":"array"}}`,
		`"schema":{"$ref":"#/components/schemas/PageBook"}`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("/v3/api-docs lacks %s:\n%.3000s", want, doc)
		}
	}
}

// TestBadPagingSettings: each bad value stops start-up, naming the
// setting and its value.
func TestBadPagingSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--app.data.web.pageable.max-page-size=0"}, "app.data.web.pageable.max-page-size"},
		{[]string{"--app.data.web.pageable.default-page-size=-3"}, "app.data.web.pageable.default-page-size"},
		{[]string{"--app.data.web.pageable.default-page-size=many"}, "want an integer from 1 to 2147483647"},
		{[]string{"--app.data.web.pageable.max-page-size=10"}, "app.data.web.pageable.max-page-size"},
		{[]string{"--app.data.web.pageable.default-page-size=50", "--app.data.web.pageable.max-page-size=40"}, "above max-page-size, 40"},
		{[]string{"--app.data.web.pageable.page-parameter="}, "app.data.web.pageable.page-parameter"},
		{[]string{"--app.data.web.pageable.size-parameter=page"}, "the page parameter has that name too"},
		{[]string{"--app.data.web.sort.sort-parameter=a b"}, "app.data.web.sort.sort-parameter"},
		{[]string{"--app.data.web.pageable.prefix=x", "--app.data.web.sort.sort-parameter=xpage"}, "app.data.web.sort.sort-parameter"},
		{[]string{"--app.data.web.pageable.serialization-mode=direct"}, "app.data.web.pageable.serialization-mode"},
	} {
		stderr, err := boottest.FailToStart(t, shelf(), append([]string{"--server.port=0"}, tt.args...), nil)
		_, value, _ := strings.Cut(tt.args[len(tt.args)-1], "=")
		if err == nil || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, value) {
			t.Errorf("%v: Run returned %v; stderr:\n%s\nwant %q and the value", tt.args, err, stderr, tt.want)
		}
	}
	// Spring's names of the same settings are read too.
	s := boottest.Start(t, shelf(), []string{"--spring.data.web.pageable.default-page-size=1", "--app.data.web.pageable.serialization-mode=VIA_DTO"}, nil)
	if r := send(t, nil, "GET", s.URL+"/books", ""); !strings.Contains(r.body, `"page":{"size":1,`) {
		t.Errorf("spring.data.web.pageable.default-page-size=1: %d %s", r.status, r.body)
	}
}
