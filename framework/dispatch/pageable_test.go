package dispatch

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestParseSort reads every form of a sort value that Spring Data's
// SortOrderParser reads, with its results.
func TestParseSort(t *testing.T) {
	asc := func(p string) Order { return Order{Property: p} }
	desc := func(p string) Order { return Order{Property: p, Descending: true} }
	tests := []struct {
		value string
		want  []Order
	}{
		{"name", []Order{asc("name")}},
		{"name,asc", []Order{asc("name")}},
		{"name,desc", []Order{desc("name")}},
		{"name,DESC", []Order{desc("name")}},
		{"name,Asc", []Order{asc("name")}},
		{"name,created,desc", []Order{desc("name"), desc("created")}},
		{"name,created", []Order{asc("name"), asc("created")}},
		{"name,ignorecase", []Order{{Property: "name", IgnoreCase: true}}},
		{"name,desc,ignorecase", []Order{{Property: "name", Descending: true, IgnoreCase: true}}},
		{"name,desc,IgnoreCase", []Order{{Property: "name", Descending: true, IgnoreCase: true}}},
		{"name,asc,ignorecase", []Order{{Property: "name", IgnoreCase: true}}},
		// ignorecase before the direction is no flag: a property, as in
		// Spring, which the route then refuses.
		{"name,ignorecase,desc", []Order{desc("name"), desc("ignorecase")}},
		{"author.name,desc", []Order{desc("author.name")}},
		{"name,,desc", []Order{desc("name")}},
		{",name", []Order{asc("name")}},
		{"name,", []Order{asc("name")}},
		{"name,...,desc", []Order{desc("name")}},
		{"name, ,desc", []Order{desc("name")}},
		{"", nil},
		{" ", nil},
		{",", nil},
		{"desc", nil},
		{"asc", nil},
		{"ignorecase", nil},
		{"desc,ignorecase", nil},
		{"...", nil},
		// A direction that is not the last element is a property.
		{"desc,name", []Order{asc("desc"), asc("name")}},
	}
	for _, tt := range tests {
		got := parseSort(tt.value)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tt.value, got, tt.want)
		}
	}
}

// pagedRoute is a route that answers with the page it read, for the
// tests that read one through a dispatcher.
func pagedRoute(pattern string, p *PageParams, paging *Paging) Route {
	return Route{Method: "GET", Pattern: pattern, Inputs: []Input{p}, Paging: paging,
		Handler: Returns(func(r *Request) (PageRequest, error) { return p.Get(r), nil })}
}

// readPage asks d for target and returns the page its route read.
func readPage(t *testing.T, d http.Handler, target string) (PageRequest, int, string) {
	t.Helper()
	w := serve(d, "GET", target, nil)
	if w.Code != http.StatusOK {
		var p struct{ Detail string }
		json.Unmarshal(w.Body.Bytes(), &p)
		return PageRequest{}, w.Code, p.Detail
	}
	var got PageRequest
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatalf("%s: %v: %s", target, err, w.Body)
	}
	return got, w.Code, ""
}

// TestPageableReads reads page, size and sort under Spring's defaults,
// and refuses, naming the parameter, what this project does not serve
// quietly.
func TestPageableReads(t *testing.T) {
	byName := Pageable("name", "created")
	defaulted := Pageable("name", "created").DefaultSort(Order{Property: "created", Descending: true}).DefaultSize(5)
	d := newDispatcher(t, Options{},
		pagedRoute("/items", byName, nil),
		pagedRoute("/recent", defaulted, nil),
		pagedRoute("/unsorted", Pageable(), nil))
	desc := func(p string) Order { return Order{Property: p, Descending: true} }
	tests := []struct {
		target string
		want   PageRequest
		status int
		detail string
	}{
		{target: "/items", want: PageRequest{Number: 0, Size: 20}},
		{target: "/items?page=2&size=10", want: PageRequest{Number: 2, Size: 10}},
		{target: "/items?page=&size=", want: PageRequest{Number: 0, Size: 20}},
		{target: "/items?page=%2B3", want: PageRequest{Number: 3, Size: 20}},
		{target: "/items?size=2000", want: PageRequest{Size: 2000}},
		// Above the largest: served at the largest, as in Spring.
		{target: "/items?size=2001", want: PageRequest{Size: 2000}},
		{target: "/items?size=2147483647", want: PageRequest{Size: 2000}},
		{target: "/items?page=2147483647", want: PageRequest{Number: 2147483647, Size: 20}},
		{target: "/items?sort=name", want: PageRequest{Size: 20, Sort: []Order{{Property: "name"}}}},
		{target: "/items?sort=name,created,desc", want: PageRequest{Size: 20, Sort: []Order{desc("name"), desc("created")}}},
		{target: "/items?sort=created,desc&sort=name", want: PageRequest{Size: 20, Sort: []Order{desc("created"), {Property: "name"}}}},
		{target: "/items?sort=name,desc,ignorecase", want: PageRequest{Size: 20, Sort: []Order{{Property: "name", Descending: true, IgnoreCase: true}}}},
		{target: "/items?sort=name%2Cdesc", want: PageRequest{Size: 20, Sort: []Order{desc("name")}}},
		{target: "/items?sort=", want: PageRequest{Size: 20}},
		{target: "/items?sort=desc", want: PageRequest{Size: 20}},
		{target: "/recent", want: PageRequest{Size: 5, Sort: []Order{desc("created")}}},
		{target: "/recent?sort=", want: PageRequest{Size: 5, Sort: []Order{desc("created")}}},
		{target: "/recent?sort=name&size=7", want: PageRequest{Size: 7, Sort: []Order{{Property: "name"}}}},
		{target: "/unsorted?page=1", want: PageRequest{Number: 1, Size: 20}},

		{target: "/items?page=x", status: 400, detail: "Failed to convert 'page' with value: 'x' (expected a 32-bit integer)."},
		{target: "/items?page=1.5", status: 400, detail: "Failed to convert 'page' with value: '1.5' (expected a 32-bit integer)."},
		{target: "/items?page=2147483648", status: 400, detail: "Failed to convert 'page' with value: '2147483648' (expected a 32-bit integer)."},
		{target: "/items?page=-1", status: 400, detail: "Parameter 'page' must be 0 or more, not -1."},
		{target: "/items?size=0", status: 400, detail: "Parameter 'size' must be 1 or more, not 0."},
		{target: "/items?size=-5", status: 400, detail: "Parameter 'size' must be 1 or more, not -5."},
		{target: "/items?size=ten", status: 400, detail: "Failed to convert 'size' with value: 'ten' (expected a 32-bit integer)."},
		{target: "/items?page=1&page=2", status: 400, detail: "Parameter 'page' is given 2 times; it takes one value."},
		{target: "/items?sort=price", status: 400, detail: "Parameter 'sort' sorts by 'price', which this route cannot sort by; it sorts by: name, created."},
		{target: "/items?sort=name&sort=price,desc", status: 400, detail: "Parameter 'sort' sorts by 'price', which this route cannot sort by; it sorts by: name, created."},
		{target: "/items?sort=Name", status: 400, detail: "Parameter 'sort' sorts by 'Name', which this route cannot sort by; it sorts by: name, created."},
		{target: "/items?sort=name,ignorecase,desc", status: 400, detail: "Parameter 'sort' sorts by 'ignorecase', which this route cannot sort by; it sorts by: name, created."},
		{target: "/items?sort=%zz", status: 400, detail: "Malformed query string."},
		{target: "/unsorted?sort=name", status: 400, detail: "Parameter 'sort' sorts by 'name', which this route cannot sort by; it sorts by: none."},
	}
	for _, tt := range tests {
		got, status, detail := readPage(t, d, tt.target)
		if tt.status == 0 {
			tt.status = http.StatusOK
		}
		if status != tt.status || detail != tt.detail {
			t.Errorf("%s:\ngot  %d %q\nwant %d %q", tt.target, status, detail, tt.status, tt.detail)
			continue
		}
		if status == http.StatusOK && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", tt.target, got, tt.want)
		}
	}
}

// TestPageableSettings reads pages under a Paging that renames the
// parameters, bounds the sizes and counts pages from one.
func TestPageableSettings(t *testing.T) {
	p := Pageable("name")
	q := Pageable("name").Qualifier("left")
	oneIndexed := &Paging{OneIndexedParameters: true, DefaultPageSize: 10, MaxPageSize: 50}
	renamed := &Paging{PageParameter: "p", SizeParameter: "n", SortParameter: "order", Prefix: "x-"}
	qualified := &Paging{QualifierDelimiter: "-", Prefix: "my"}
	d := newDispatcher(t, Options{},
		pagedRoute("/one", p, oneIndexed),
		pagedRoute("/renamed", p, renamed),
		pagedRoute("/qualified", q, qualified))
	tests := []struct {
		target string
		want   PageRequest
		detail string
	}{
		{target: "/one", want: PageRequest{Number: 0, Size: 10}},
		{target: "/one?page=1", want: PageRequest{Number: 0, Size: 10}},
		{target: "/one?page=3&size=60", want: PageRequest{Number: 2, Size: 50}},
		{target: "/one?page=0", detail: "Parameter 'page' must be 1 or more, not 0."},
		{target: "/renamed?x-p=2&x-n=3&order=name,desc", want: PageRequest{Number: 2, Size: 3, Sort: []Order{{Property: "name", Descending: true}}}},
		// The old names are no longer read, and the sort parameter takes
		// no prefix, as in Spring.
		{target: "/renamed?page=2&size=3&sort=nope&x-order=nope", want: PageRequest{Size: 20}},
		{target: "/renamed?x-p=-1", detail: "Parameter 'x-p' must be 0 or more, not -1."},
		{target: "/renamed?order=nope", detail: "Parameter 'order' sorts by 'nope', which this route cannot sort by; it sorts by: name."},
		// A qualifier: the prefix, the qualifier and the delimiter for
		// page and size; the qualifier and _ for sort, as in Spring.
		{target: "/qualified?myleft-page=4&myleft-size=8&left_sort=name", want: PageRequest{Number: 4, Size: 8, Sort: []Order{{Property: "name"}}}},
		{target: "/qualified?page=4&size=8&sort=nope", want: PageRequest{Size: 20}},
	}
	for _, tt := range tests {
		got, _, detail := readPage(t, d, tt.target)
		if detail != tt.detail || (tt.detail == "" && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("%s:\ngot  %+v %q\nwant %+v %q", tt.target, got, detail, tt.want, tt.detail)
		}
	}
}

// TestPageableSortIsTheRequests: a handler that changes its page's sort
// does not change the default the next request gets.
func TestPageableSortIsTheRequests(t *testing.T) {
	p := Pageable("name").DefaultSort(Order{Property: "name"})
	d := newDispatcher(t, Options{}, Route{Method: "GET", Pattern: "/", Inputs: []Input{p},
		Handler: Returns(func(r *Request) (string, error) {
			page := p.Get(r)
			s := fmt.Sprint(page.Sort)
			page.Sort[0].Descending = true
			return s, nil
		})})
	for range 2 {
		if w := serve(d, "GET", "/", nil); w.Body.String() != "[name,asc]" {
			t.Fatalf("got %s", w.Body)
		}
	}
}

// TestPageableRefused: New refuses, naming the route, a Pageable it
// could not read as declared.
func TestPageableRefused(t *testing.T) {
	tests := []struct {
		name  string
		route Route
		want  string
	}{
		{"default sort not allowed", pagedRoute("/a", Pageable("name").DefaultSort(Order{Property: "price"}), nil),
			`sorts by "price" by default, which is not one of its sort properties (name)`},
		{"default size above max", pagedRoute("/a", Pageable().DefaultSize(100), &Paging{MaxPageSize: 50}),
			"declares a default page size of 100, which is not from 1 to the largest page size, 50"},
		{"negative default size", pagedRoute("/a", Pageable().DefaultSize(-1), nil),
			"declares a default page size of -1"},
		{"property with a comma", pagedRoute("/a", Pageable("a,b"), nil), `declares sort property "a,b"`},
		{"empty property", pagedRoute("/a", Pageable(""), nil), `declares sort property ""`},
		{"property twice", pagedRoute("/a", Pageable("a", "a"), nil), `declares sort property "a" twice`},
		{"default above max", pagedRoute("/a", Pageable(), &Paging{DefaultPageSize: 30, MaxPageSize: 20}),
			"default page size 30 is above the largest, 20"},
		{"negative max", pagedRoute("/a", Pageable(), &Paging{MaxPageSize: -1}), "largest page size -1 is not 1 or more"},
		{"names clash", pagedRoute("/a", Pageable(), &Paging{SizeParameter: "page"}), "must have three names"},
		{"clash with a parameter", Route{Method: "GET", Pattern: "/a", Inputs: []Input{OptionalQuery[int32]("size"), Pageable()}, Handler: text("x")},
			`declares query parameter "size" twice (a Pageable's)`},
		{"two unqualified", Route{Method: "GET", Pattern: "/a", Inputs: []Input{Pageable(), Pageable()}, Handler: text("x")},
			`declares query parameter "page" twice (a Pageable's)`},
	}
	for _, tt := range tests {
		_, err := New(Options{}, tt.route)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "route GET /a") {
			t.Errorf("%s:\ngot  %v\nwant an error naming route GET /a with %q", tt.name, err, tt.want)
		}
	}
	// Two pages, told apart by a qualifier, are fine.
	if _, err := New(Options{}, Route{Method: "GET", Pattern: "/a", Inputs: []Input{Pageable(), Pageable().Qualifier("q")}, Handler: text("x")}); err != nil {
		t.Error(err)
	}
}

// TestWithPaging gives a Paging to the routes that have none.
func TestWithPaging(t *testing.T) {
	mine, theirs := &Paging{}, &Paging{}
	routes := WithPaging(mine, Route{Pattern: "/a"}, Route{Pattern: "/b", Paging: theirs})
	if routes[0].Paging != mine || routes[1].Paging != theirs {
		t.Errorf("got %p, %p; want %p, %p", routes[0].Paging, routes[1].Paging, mine, theirs)
	}
}

// TestNewPage counts the pages as Spring's PageImpl does.
func TestNewPage(t *testing.T) {
	tests := []struct {
		items   []int
		request PageRequest
		total   int64
		want    PageMetadata
	}{
		{[]int{1, 2, 3}, PageRequest{Number: 0, Size: 3}, 7, PageMetadata{Size: 3, Number: 0, TotalElements: 7, TotalPages: 3}},
		{[]int{7}, PageRequest{Number: 2, Size: 3}, 7, PageMetadata{Size: 3, Number: 2, TotalElements: 7, TotalPages: 3}},
		{[]int{1, 2, 3}, PageRequest{Number: 1, Size: 3}, 6, PageMetadata{Size: 3, Number: 1, TotalElements: 6, TotalPages: 2}},
		{nil, PageRequest{Number: 0, Size: 20}, 0, PageMetadata{Size: 20, TotalPages: 0}},
		{nil, PageRequest{Number: 5, Size: 20}, 57, PageMetadata{Size: 20, Number: 5, TotalElements: 57, TotalPages: 3}},
		// A page that is the last, by its items, says the total, whatever
		// a count taken before items were added says.
		{[]int{7}, PageRequest{Number: 2, Size: 3}, 5, PageMetadata{Size: 3, Number: 2, TotalElements: 7, TotalPages: 3}},
		{[]int{1}, PageRequest{}, 1, PageMetadata{TotalElements: 1, TotalPages: 1}},
	}
	for _, tt := range tests {
		got := NewPage(tt.items, tt.request, tt.total)
		if got.Page != tt.want || got.Content == nil {
			t.Errorf("%v %+v %d:\ngot  %+v (content %v)\nwant %+v", tt.items, tt.request, tt.total, got.Page, got.Content, tt.want)
		}
	}
}

// TestPageWritten writes a Page as JSON, in Spring Data's VIA_DTO shape,
// and as XML.
func TestPageWritten(t *testing.T) {
	p := Pageable("text")
	d := newDispatcher(t, Options{}, Route{Method: "GET", Pattern: "/messages", Inputs: []Input{p},
		Handler: Returns(func(r *Request) (Page[Message], error) {
			all := []Message{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}
			req := p.Get(r)
			lo, hi := min(req.Offset(), len(all)), min(req.Offset()+req.Size, len(all))
			return NewPage(all[lo:hi], req, int64(len(all))), nil
		})})
	tests := []struct{ target, accept, want string }{
		{"/messages?size=2&page=1", "application/json", `{"content":[{"text":"c"},{"text":"d"}],"page":{"size":2,"number":1,"totalElements":5,"totalPages":3}}`},
		{"/messages?size=2&page=9", "application/json", `{"content":[],"page":{"size":2,"number":9,"totalElements":5,"totalPages":3}}`},
		{"/messages?size=2&page=2", "application/xml", `<Page><content><text>e</text></content><page><size>2</size><number>2</number><totalElements>5</totalElements><totalPages>3</totalPages></page></Page>`},
	}
	for _, tt := range tests {
		w := serve(d, "GET", tt.target, nil, "Accept: "+tt.accept)
		if w.Code != http.StatusOK || w.Body.String() != tt.want {
			t.Errorf("%s %s:\ngot  %d %s\nwant %s", tt.target, tt.accept, w.Code, w.Body, tt.want)
		}
	}
}

// TestQueryDefault: an optional query parameter left out, or sent empty,
// reads as its default, which Lookup still reports absent.
func TestQueryDefault(t *testing.T) {
	limit := OptionalQuery[int32]("limit").Min(1).Default(10)
	name := OptionalQuery[string]("name").Default("world")
	d := newDispatcher(t, Options{}, Route{Method: "GET", Pattern: "/", Inputs: []Input{limit, name},
		Handler: Returns(func(r *Request) (string, error) {
			n, present := limit.Lookup(r)
			return fmt.Sprint(limit.Get(r), " ", n, " ", present, " ", name.Get(r)), nil
		})})
	for target, want := range map[string]string{
		"/":                    "10 10 false world",
		"/?limit=&name=":       "10 10 false world",
		"/?limit=3&name=x%20y": "3 3 true x y",
	} {
		if w := serve(d, "GET", target, nil); w.Body.String() != want {
			t.Errorf("%s:\ngot  %d %s\nwant %s", target, w.Code, w.Body, want)
		}
	}
	checkProblem(t, "limit=0", serve(d, "GET", "/?limit=0", nil), 400, "/", "Parameter 'limit' must be 1 or more, not 0.")
}

// TestQueryDefaultRefused: New refuses a default the parameter would
// refuse from a client, and one for a parameter that must be given.
func TestQueryDefaultRefused(t *testing.T) {
	tests := []struct {
		input Input
		want  string
	}{
		{OptionalQuery[int32]("limit").Min(1).Default(0), `declares the default 0 for query parameter "limit", below its minimum 1`},
		{OptionalQuery[int64]("from").Default(-5).Min(0), `declares the default -5 for query parameter "from", below its minimum 0`},
		{Query[string]("q").Default("x"), `declares a default for query parameter "q", which is required`},
	}
	for _, tt := range tests {
		_, err := New(Options{}, Route{Method: "GET", Pattern: "/a", Inputs: []Input{tt.input}, Handler: text("x")})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "route GET /a") {
			t.Errorf("got  %v\nwant an error naming route GET /a with %q", err, tt.want)
		}
	}
}

// TestPageableDescribed: a Pageable is described as its three query
// parameters, under the route's Paging; a Default as the parameter's.
func TestPageableDescribed(t *testing.T) {
	p := Pageable("name", "created").DefaultSort(Order{Property: "created", Descending: true})
	infos, err := Describe(
		pagedRoute("/a", p, &Paging{OneIndexedParameters: true, DefaultPageSize: 5, MaxPageSize: 50, Prefix: "p_"}),
		Route{Method: "GET", Pattern: "/b", Inputs: []Input{Pageable(), OptionalQuery[int32]("limit").Default(10)}, Handler: text("x")})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal([][]InputInfo{infos[0].Inputs, infos[1].Inputs})
	for _, want := range []string{
		`{"Name":"p_page","In":"query","Required":false,"Type":{},"Description":"The page to return, the first being 1.","Minimum":1,"Maximum":null,"Default":1,"Enum":null}`,
		`{"Name":"p_size","In":"query","Required":false,"Type":{},"Description":"How many items a page has; a larger size than 50 is served as 50.","Minimum":1,"Maximum":50,"Default":5,"Enum":null}`,
		`"Name":"sort","In":"query","Required":false,"Type":{},"Description":"The order of the items: property,(asc|desc)`,
		`"Default":["created,desc"],"Enum":["name","name,asc","name,desc","created","created,asc","created,desc"]}`,
		`{"Name":"size","In":"query","Required":false,"Type":{},"Description":"How many items a page has; a larger size than 2000 is served as 2000.","Minimum":1,"Maximum":2000,"Default":20,"Enum":null},{"Name":"limit","In":"query","Required":false,"Type":{},"Description":"","Minimum":null,"Maximum":null,"Default":10,"Enum":null}]`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("got  %s\nwant it to contain %s", got, want)
		}
	}
	if strings.Count(string(got), `"Name":"sort"`) != 1 {
		t.Errorf("a Pageable without sort properties describes a sort parameter: %s", got)
	}
}

// TestPagingCheck refuses unusable settings, which boot reports naming
// the setting before New would.
func TestPagingCheck(t *testing.T) {
	if err := (Paging{}).Check(); err != nil {
		t.Errorf("the zero Paging: %v", err)
	}
	if err := (Paging{Prefix: "p", SortParameter: "psize"}).Check(); err == nil {
		t.Error("a sort parameter named as the prefixed size parameter: accepted")
	}
}

// FuzzParseSort: whatever a sort value holds, every order it gives sorts
// by a property that is not blank and has no comma, and each property is
// one of the value's elements.
func FuzzParseSort(f *testing.F) {
	for _, seed := range []string{"name", "name,desc", "a,b,DESC,ignorecase", ",,", "...", "x,ignorecase,asc", "é,desc"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, value string) {
		elements := strings.Split(value, ",")
		for _, o := range parseSort(value) {
			if strings.TrimSpace(o.Property) == "" || strings.Contains(o.Property, ",") || !slices.Contains(elements, o.Property) {
				t.Errorf("%q: order %+v", value, o)
			}
		}
	})
}

// TestPageableFaultsListed: a Pageable's faults are listed beside the
// other parameters' and the body's, every fault at once; alone, one keeps
// the sentence it always had.
func TestPageableFaultsListed(t *testing.T) {
	t.Parallel()
	q := OptionalQuery[int32]("q").Min(1)
	p := Pageable("name")
	d := newDispatcher(t, Options{},
		Route{Method: "GET", Pattern: "/l", Inputs: []Input{q, p}, Handler: Runs(func(*Request) error { return nil })},
		Route{Method: "POST", Pattern: "/b", Inputs: []Input{p}, Status: 204, Handler: Accepts(func(*Request, customer) error { return nil })})
	tests := []struct {
		target, body string
		want         []Violation
	}{
		{"/l?q=0&page=abc", "", []Violation{
			{"must be greater than or equal to 1", "", "q"},
			{"must be a 32-bit integer, not 'abc'", "", "page"}}},
		{"/l?page=-1&size=0&sort=price", "", []Violation{
			{"must be greater than or equal to 0", "", "page"},
			{"must be greater than or equal to 1", "", "size"},
			{"must sort by name, not 'price'", "", "sort"}}},
		{"/l?page=1&page=2&size=x", "", []Violation{
			{"must be given once, not 2 times", "", "page"},
			{"must be a 32-bit integer, not 'x'", "", "size"}}},
		{"/b?page=-1", `{"name":""}`, []Violation{
			{"must be greater than or equal to 0", "", "page"},
			{"must not be blank", "#/name", ""}}},
	}
	for _, tt := range tests {
		method, body := "GET", io.Reader(nil)
		if tt.body != "" {
			method, body = "POST", strings.NewReader(tt.body)
		}
		w := serve(d, method, tt.target, body, "Content-Type: application/json")
		p := readProblem(t, tt.target, w.Body.Bytes())
		if w.Code != 400 || p.Detail != InvalidContent || !slices.Equal(p.Errors, tt.want) {
			t.Errorf("%s: %d %q\ngot  %+v\nwant %+v", tt.target, w.Code, p.Detail, p.Errors, tt.want)
		}
	}
	// Alone, a fault is answered as it was; a malformed query is every
	// parameter's, and answered as such.
	for target, detail := range map[string]string{
		"/l?page=abc":            "Failed to convert 'page' with value: 'abc' (expected a 32-bit integer).",
		"/l?size=0":              "Parameter 'size' must be 1 or more, not 0.",
		"/l?sort=price":          "Parameter 'sort' sorts by 'price', which this route cannot sort by; it sorts by: name.",
		"/l?q=0&page=1&sort=%zz": "Malformed query string.",
	} {
		checkProblem(t, target, serve(d, "GET", target, nil), 400, "/l", detail)
	}
	w := serve(d, "POST", "/b?page=-1", strings.NewReader(`{"name":"ada"}`), "Content-Type: application/json")
	checkProblem(t, "page alone, valid body", w, 400, "/b", "Parameter 'page' must be 0 or more, not -1.")
}

// TestPageableSortRepeats: a property sorted by again is left out, the
// first order kept, so that a sort has at most one order for each
// property allowed, however long the query.
func TestPageableSortRepeats(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{}, pagedRoute("/items", Pageable("name", "hits"), nil))
	desc := func(p string) Order { return Order{Property: p, Descending: true} }
	for target, want := range map[string][]Order{
		"/items?sort=name,desc&sort=name,asc&sort=hits":  {desc("name"), {Property: "hits"}},
		"/items?sort=hits,name,hits,desc":                {desc("hits"), desc("name")},
		"/items?sort=" + strings.Repeat("hits,", 13_107): {{Property: "hits"}},
		"/items?" + strings.Repeat("sort=name&", 5_000):  {{Property: "name"}},
	} {
		got, status, detail := readPage(t, d, target)
		if status != 200 || !reflect.DeepEqual(got.Sort, want) {
			t.Errorf("%.60s: %d %q %+v; want %+v", target, status, detail, got.Sort, want)
		}
	}
}
