package dispatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// validated is a body with every constraint.
type validated struct {
	Name   string            `json:"name" validate:"required,size=1..8"`
	Note   *string           `json:"note" validate:"required"`
	Count  int               `json:"count" validate:"min=1,max=100"`
	Ratio  *float64          `json:"ratio,omitempty" validate:"min=0,max=1"`
	Small  uint8             `json:"small" validate:"max=10"`
	Slug   string            `json:"slug" pattern:"^[a-z0-9-]+$"`
	Code   string            `json:"code" pattern:"[A-Z]{2}"`
	Email  string            `json:"email" validate:"email"`
	Home   *string           `json:"home" validate:"url"`
	Color  string            `json:"color" validate:"enum=red|green|blue"`
	Tags   []string          `json:"tags" validate:"required,size=..2"`
	Labels map[string]string `json:"labels" validate:"size=1.."`
}

// validBody passes every constraint of validated.
const validBody = `{"name":"ada","note":"n","count":5,"ratio":0.5,"small":3,"slug":"a-1","code":"AB",` +
	`"email":"ada@example.com","home":"https://example.com/x","color":"red","tags":["a"]}`

type problemDoc struct {
	Status int         `json:"status"`
	Detail string      `json:"detail"`
	Errors []Violation `json:"errors"`
}

func readProblem(t *testing.T, in string, body []byte) problemDoc {
	t.Helper()
	var p problemDoc
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("%s: %v in %s", in, err, body)
	}
	return p
}

// validating serves body to a route that validates it and answers 204.
func validating[B any](t *testing.T, body string, inputs ...Input) (int, problemDoc) {
	t.Helper()
	d := newDispatcher(t, Options{}, Route{Method: "POST", Pattern: "/things", Inputs: inputs, Status: 204,
		Handler: Accepts(func(*Request, B) error { return nil })})
	w := serve(d, "POST", "/things", strings.NewReader(body), "Content-Type: application/json")
	if w.Code == 204 {
		return 204, problemDoc{}
	}
	return w.Code, readProblem(t, body, w.Body.Bytes())
}

func TestBodyConstraints(t *testing.T) {
	t.Parallel()
	if status, p := validating[validated](t, validBody); status != 204 {
		t.Fatalf("the valid body: %d %+v", status, p)
	}
	tests := []struct {
		name   string
		change string // members that replace validBody's
		want   []Violation
	}{
		{"blank", `"name":"  "`, []Violation{{"must not be blank", "#/name", ""}}},
		{"absent text", `-"name":"ada",`, []Violation{{"must not be blank", "#/name", ""}, {"size must be between 1 and 8", "#/name", ""}}},
		{"too long", `"name":"ninechars"`, []Violation{{"size must be between 1 and 8", "#/name", ""}}},
		{"characters, not bytes", `"name":"éééééééé"`, nil},
		{"null pointer", `"note":null`, []Violation{{"must not be null", "#/note", ""}}},
		{"blank pointer", `"note":""`, []Violation{{"must not be blank", "#/note", ""}}},
		{"below min", `"count":0`, []Violation{{"must be greater than or equal to 1", "#/count", ""}}},
		{"above max", `"count":101`, []Violation{{"must be less than or equal to 100", "#/count", ""}}},
		{"the bounds", `"count":100`, nil},
		{"float above max", `"ratio":1.5`, []Violation{{"must be less than or equal to 1", "#/ratio", ""}}},
		{"float absent", `"ratio":null`, nil},
		{"unsigned above max", `"small":11`, []Violation{{"must be less than or equal to 10", "#/small", ""}}},
		{"pattern", `"slug":"A b"`, []Violation{{`must match "^[a-z0-9-]+$"`, "#/slug", ""}}},
		{"pattern matches the whole text", `"code":"xABx"`, []Violation{{`must match "[A-Z]{2}"`, "#/code", ""}}},
		{"email", `"email":"ada@@example.com"`, []Violation{{"must be a well-formed email address", "#/email", ""}}},
		{"empty email", `"email":""`, nil},
		{"url", `"home":"example.com"`, []Violation{{"must be a valid URL", "#/home", ""}}},
		{"enum", `"color":"pink"`, []Violation{{"must be one of: red, green, blue", "#/color", ""}}},
		{"empty list", `"tags":[]`, []Violation{{"must not be empty", "#/tags", ""}}},
		{"absent list", `"tags":null`, []Violation{{"must not be empty", "#/tags", ""}}},
		{"long list", `"tags":["a","b","c"]`, []Violation{{"size must be between 0 and 2", "#/tags", ""}}},
		{"empty map", `"labels":{}`, []Violation{{"size must be between 1 and 2147483647", "#/labels", ""}}},
		{"every field at once", `"name":"","note":null,"count":-1,"color":"","tags":[]`, []Violation{
			{"must not be blank", "#/name", ""}, {"size must be between 1 and 8", "#/name", ""},
			{"must not be null", "#/note", ""},
			{"must be greater than or equal to 1", "#/count", ""},
			{"must be one of: red, green, blue", "#/color", ""},
			{"must not be empty", "#/tags", ""}}},
	}
	for _, tt := range tests {
		body := strings.TrimSuffix(validBody, "}") + "," + tt.change + "}"
		if member, ok := strings.CutPrefix(tt.change, "-"); ok {
			body = strings.Replace(validBody, member, "", 1)
		}
		status, p := validating[validated](t, body)
		if tt.want == nil {
			if status != 204 {
				t.Errorf("%s: %d %+v, want 204", tt.name, status, p)
			}
			continue
		}
		if status != 400 || p.Detail != "Invalid request content." || !slices.Equal(p.Errors, tt.want) {
			t.Errorf("%s: %d %q\ngot  %+v\nwant %+v", tt.name, status, p.Detail, p.Errors, tt.want)
		}
	}
}

type (
	order struct {
		Customer *customer       `json:"customer"`
		Lines    []line          `json:"lines" validate:"required"`
		ByRef    []*line         `json:"byRef"`
		Extras   map[string]line `json:"extras"`
		Grid     [2]line         `json:"grid"`
		Tree     *node           `json:"tree"`
		audited
	}
	customer struct {
		Name string `json:"name" validate:"required"`
	}
	line struct {
		Count int `json:"count" validate:"max=100"`
	}
	node struct {
		Label    string `json:"label" validate:"required"`
		Children []node `json:"children"`
	}
	audited struct {
		By string `json:"by" validate:"required"`
	}
)

// TestCascade: constraints are checked inside nested structs, pointers to
// them, lists and maps of them, arrays, recursive types and embedded
// structs, and each violation's pointer says where.
func TestCascade(t *testing.T) {
	t.Parallel()
	body := `{"by":"x","customer":{"name":""},"lines":[{"count":1},{"count":101}],"byRef":[null,{"count":200}],` +
		`"extras":{"b/c":{"count":300},"a~":{"count":400},"ok":{"count":1}},"grid":[{"count":1},{"count":500}],` +
		`"tree":{"label":"r","children":[{"label":"a","children":[{"label":""}]}]}}`
	status, p := validating[order](t, body)
	want := []Violation{
		{"must not be blank", "#/customer/name", ""},
		{"must be less than or equal to 100", "#/lines/1/count", ""},
		{"must be less than or equal to 100", "#/byRef/1/count", ""},
		{"must be less than or equal to 100", "#/extras/a~0/count", ""},
		{"must be less than or equal to 100", "#/extras/b~1c/count", ""},
		{"must be less than or equal to 100", "#/grid/1/count", ""},
		{"must not be blank", "#/tree/children/0/children/0/label", ""},
	}
	if status != 400 || !slices.Equal(p.Errors, want) {
		t.Errorf("%d\ngot  %+v\nwant %+v", status, p.Errors, want)
	}
	// The embedded struct's field is promoted: its pointer has no member
	// of the embedded struct's own.
	status, p = validating[order](t, `{"lines":[{"count":1}]}`)
	if want := []Violation{{"must not be blank", "#/by", ""}}; status != 400 || !slices.Equal(p.Errors, want) {
		t.Errorf("embedded: %d\ngot  %+v\nwant %+v", status, p.Errors, want)
	}
	// A list body, and a pointer body.
	status, p = validating[[]line](t, `[{"count":1},{"count":101}]`)
	if want := []Violation{{"must be less than or equal to 100", "#/1/count", ""}}; status != 400 || !slices.Equal(p.Errors, want) {
		t.Errorf("list body: %d\ngot  %+v\nwant %+v", status, p.Errors, want)
	}
	if status, p = validating[*customer](t, `{"name":" "}`); status != 400 || len(p.Errors) != 1 || p.Errors[0].Pointer != "#/name" {
		t.Errorf("pointer body: %d %+v", status, p.Errors)
	}
}

// TestPointer: RFC 6901's escapes, then the URI fragment's percent-encoding.
func TestPointer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tokens []any
		want   string
	}{
		{nil, "#"},
		{[]any{"name"}, "#/name"},
		{[]any{"items", 0, "count"}, "#/items/0/count"},
		{[]any{"a/b", "m~n", "~1"}, "#/a~1b/m~0n/~01"},
		{[]any{"a b", "é", "50%", "q?x", "a#b", `"`}, "#/a%20b/%C3%A9/50%25/q?x/a%23b/%22"},
		{[]any{""}, "#/"},
		{[]any{int64(7), uint(8)}, "#/7/8"},
	}
	for _, tt := range tests {
		if got := Pointer(tt.tokens...); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.tokens, got, tt.want)
		}
	}
	type odd struct {
		Weird int `json:"a/b~c d" validate:"min=1"`
	}
	if _, p := validating[odd](t, `{"a/b~c d":0}`); len(p.Errors) != 1 || p.Errors[0].Pointer != "#/a~1b~0c%20d" {
		t.Errorf("a member's pointer: %+v", p.Errors)
	}
}

// TestParamConstraints checks each parameter constraint, through a route.
func TestParamConstraints(t *testing.T) {
	t.Parallel()
	limit := OptionalQuery[int32]("limit").Min(1).Max(50)
	id := Path[int64]("id").Max(999)
	slug := Query[string]("slug").Size(2, 5).Pattern("[a-z]+")
	sort := OptionalQuery[string]("sort").OneOf("asc", "desc")
	mail := OptionalQuery[string]("mail").Email()
	site := OptionalQuery[string]("site").URL()
	d := newDispatcher(t, Options{}, Route{Method: "GET", Pattern: "/p/{id}", Inputs: []Input{id, limit, slug, sort, mail, site},
		Handler: Runs(func(*Request) error { return nil })})
	tests := []struct {
		target string
		want   []Violation
	}{
		{"/p/1?slug=ab&limit=50&sort=asc&mail=a@b.c&site=http://x", nil},
		{"/p/1?slug=ab&limit=&sort=", nil}, // empty optional parameters are left out
		{"/p/1000?slug=ab", []Violation{{"must be less than or equal to 999", "", "id"}}},
		{"/p/1?slug=ab&limit=51", []Violation{{"must be less than or equal to 50", "", "limit"}}},
		{"/p/1?slug=abcdef", []Violation{{"size must be between 2 and 5", "", "slug"}}},
		{"/p/1?slug=AB1", []Violation{{`must match "[a-z]+"`, "", "slug"}}},
		{"/p/1?slug=A", []Violation{{"size must be between 2 and 5", "", "slug"}, {`must match "[a-z]+"`, "", "slug"}}},
		{"/p/1?slug=ab&sort=up", []Violation{{"must be one of: asc, desc", "", "sort"}}},
		{"/p/1?slug=ab&mail=nobody", []Violation{{"must be a well-formed email address", "", "mail"}}},
		{"/p/1?slug=ab&site=x%20y", []Violation{{"must be a valid URL", "", "site"}}},
		// Every parameter at once, the legacy faults (a conversion, Min,
		// a missing parameter) listed beside the others.
		{"/p/x?limit=0&sort=up", []Violation{
			{"must be a 64-bit integer, not 'x'", "", "id"},
			{"must be greater than or equal to 1", "", "limit"},
			{"must not be null", "", "slug"},
			{"must be one of: asc, desc", "", "sort"}}},
	}
	for _, tt := range tests {
		w := serve(d, "GET", tt.target, nil)
		if tt.want == nil {
			if w.Code != 200 {
				t.Errorf("%s: %d %s", tt.target, w.Code, w.Body)
			}
			continue
		}
		p := readProblem(t, tt.target, w.Body.Bytes())
		if w.Code != 400 || p.Detail != InvalidContent || !slices.Equal(p.Errors, tt.want) {
			t.Errorf("%s: %d %q\ngot  %+v\nwant %+v", tt.target, w.Code, p.Detail, p.Errors, tt.want)
		}
	}
}

// TestLoneLegacyFault: a parameter that is missing, repeated, does not
// convert or is below its Min, and is the request's only fault, is
// answered as it was before constraints, with no errors member: greeter's
// answers, compared with Spring's, are those.
func TestLoneLegacyFault(t *testing.T) {
	t.Parallel()
	page := OptionalQuery[int32]("page").Min(0)
	id := Path[int32]("id")
	need := Query[string]("q")
	d := newDispatcher(t, Options{}, Route{Method: "GET", Pattern: "/l/{id}", Inputs: []Input{id, page, need},
		Handler: Runs(func(*Request) error { return nil })})
	for target, detail := range map[string]string{
		"/l/1?q=a&page=-1":        "Parameter 'page' must be 0 or more, not -1.",
		"/l/x?q=a":                "Failed to convert 'id' with value: 'x' (expected a 32-bit integer).",
		"/l/1":                    "Required parameter 'q' is not present.",
		"/l/1?q=a&q=b":            "Parameter 'q' is given 2 times; it takes one value.",
		"/l/1?q=a&page=%zz":       "Malformed query string.",
		"/l/x?q=a&page=-1&x%zz=1": "Malformed query string.",
	} {
		checkProblem(t, target, serve(d, "GET", target, nil), 400, strings.Split(target, "?")[0], detail)
	}
}

// TestParamsAndBodyAtOnce: the parameters' faults and the body's
// violations are one list; a body that does not decode leaves the
// parameters' faults to answer, and on a route without them is the 400
// it always was.
func TestParamsAndBodyAtOnce(t *testing.T) {
	t.Parallel()
	size := Query[int32]("size").Max(10)
	id := Path[int32]("id")
	d := newDispatcher(t, Options{}, Route{Method: "PUT", Pattern: "/c/{id}", Inputs: []Input{id, size}, Status: 204,
		Handler: Accepts(func(*Request, customer) error { return nil })})
	ct := "Content-Type: application/json"
	w := serve(d, "PUT", "/c/x?size=11", strings.NewReader(`{"name":""}`), ct)
	want := []Violation{{"must be a 32-bit integer, not 'x'", "", "id"}, {"must be less than or equal to 10", "", "size"}, {"must not be blank", "#/name", ""}}
	if p := readProblem(t, "all", w.Body.Bytes()); w.Code != 400 || !slices.Equal(p.Errors, want) {
		t.Errorf("got %d %+v\nwant %+v", w.Code, p.Errors, want)
	}
	// One legacy fault, and a body violation: both listed.
	w = serve(d, "PUT", "/c/x?size=1", strings.NewReader(`{"name":""}`), ct)
	want = []Violation{{"must be a 32-bit integer, not 'x'", "", "id"}, {"must not be blank", "#/name", ""}}
	if p := readProblem(t, "legacy and body", w.Body.Bytes()); w.Code != 400 || !slices.Equal(p.Errors, want) {
		t.Errorf("got %d %+v\nwant %+v", w.Code, p.Errors, want)
	}
	// A lone legacy fault and a malformed body: the fault's own answer.
	w = serve(d, "PUT", "/c/x?size=1", strings.NewReader(`{"name":`), ct)
	checkProblem(t, "legacy, malformed body", w, 400, "/c/x", "Failed to convert 'id' with value: 'x' (expected a 32-bit integer).")
	// A malformed body alone stays what it was.
	w = serve(d, "PUT", "/c/1?size=1", strings.NewReader(`{"name":`), ct)
	checkProblem(t, "malformed body", w, 400, "/c/1", "Malformed JSON body at byte 8: unexpected end of JSON input.")
}

// selfChecked refuses a taken name in its Validate method.
type selfChecked struct {
	Name string `json:"name" validate:"required"`
}

func (c selfChecked) Validate() error {
	if c.Name == "taken" {
		return errors.New("name is taken")
	}
	return nil
}

// TestValidateAfterConstraints: a body's Validate method runs once its
// constraints hold, and not before; a handler's own violations are
// answered as the constraints' are.
func TestValidateAfterConstraints(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{},
		Route{Method: "POST", Pattern: "/v", Status: 204, Handler: Accepts(func(*Request, selfChecked) error { return nil })},
		Route{Method: "POST", Pattern: "/h", Status: 204, Handler: Accepts(func(_ *Request, c selfChecked) error {
			if c.Name == "dup" {
				return Invalid(Violation{Pointer: Pointer("name"), Detail: "is already taken"})
			}
			return &Error{Status: http.StatusConflict, Detail: "Conflict.", Violations: []Violation{{Pointer: Pointer("name"), Detail: "conflicts"}}}
		})},
	)
	ct := "Content-Type: application/json"
	w := serve(d, "POST", "/v", strings.NewReader(`{"name":""}`), ct)
	if p := readProblem(t, "blank", w.Body.Bytes()); w.Code != 400 || len(p.Errors) != 1 {
		t.Errorf("blank: %d %+v", w.Code, p)
	}
	w = serve(d, "POST", "/v", strings.NewReader(`{"name":"taken"}`), ct)
	checkProblem(t, "taken", w, 400, "/v", "Invalid request body: name is taken.")

	w = serve(d, "POST", "/h", strings.NewReader(`{"name":"dup"}`), ct)
	if p := readProblem(t, "dup", w.Body.Bytes()); w.Code != 400 || p.Detail != InvalidContent ||
		!slices.Equal(p.Errors, []Violation{{"is already taken", "#/name", ""}}) {
		t.Errorf("a handler's violation: %d %+v", w.Code, p)
	}
	w = serve(d, "POST", "/h", strings.NewReader(`{"name":"x"}`), ct)
	if p := readProblem(t, "409", w.Body.Bytes()); w.Code != 409 || len(p.Errors) != 1 {
		t.Errorf("a 409 with violations: %d %+v", w.Code, p)
	}
	// The members' order is RFC 9457's example's.
	if body := w.Body.String(); !strings.Contains(body, `"instance":"/h","errors":[{"detail":"conflicts","pointer":"#/name"}],"requestId"`) {
		t.Errorf("document %s", body)
	}
}

// TestXMLBodyPointers: an XML body's violations point at the JSON
// members, the one schema the document describes.
func TestXMLBodyPointers(t *testing.T) {
	t.Parallel()
	type item struct {
		Label string `json:"label" xml:"Label" validate:"required"`
	}
	d := newDispatcher(t, Options{}, Route{Method: "POST", Pattern: "/x", Status: 204, Handler: Accepts(func(*Request, item) error { return nil })})
	w := serve(d, "POST", "/x", strings.NewReader(`<item><Label></Label></item>`), "Content-Type: application/xml")
	if p := readProblem(t, "xml", w.Body.Bytes()); w.Code != 400 || !slices.Equal(p.Errors, []Violation{{"must not be blank", "#/label", ""}}) {
		t.Errorf("%d %+v", w.Code, p)
	}
}

// TestConstraintDeclarationsRefused: New refuses a tag it cannot
// understand, naming the route, the body type and the field.
func TestConstraintDeclarationsRefused(t *testing.T) {
	t.Parallel()
	type (
		unknown struct {
			A string `validate:"requird"`
		}
		badRE struct {
			A string `pattern:"[a-"`
		}
		emailInt struct {
			A int `validate:"email"`
		}
		minMax struct {
			A int `validate:"min=5,max=1"`
		}
		requiredInt struct {
			A int `validate:"required"`
		}
		badSize struct {
			A string `validate:"size=5..1"`
		}
		sizeInt struct {
			A int `validate:"size=1..2"`
		}
		minText struct {
			A string `validate:"min=1"`
		}
		hidden struct {
			A string `json:"-" validate:"required"`
		}
		noValue struct {
			A string `validate:"enum"`
		}
		inPattern struct {
			A string `validate:"pattern=x"`
		}
		twice struct {
			A string `validate:"email,email"`
		}
		emailURL struct {
			A string `validate:"email,url"`
		}
		nested struct {
			Inner []emailInt
		}
	)
	tests := []struct {
		h    Handler
		want string
	}{
		{Accepts(func(*Request, unknown) error { return nil }), `body dispatch.unknown, field A: unknown constraint "requird"`},
		{Accepts(func(*Request, badRE) error { return nil }), `body dispatch.badRE, field A: pattern "[a-": error parsing regexp`},
		{Accepts(func(*Request, emailInt) error { return nil }), "body dispatch.emailInt, field A: email applies to texts, not int"},
		{Accepts(func(*Request, minMax) error { return nil }), "field A: min 5 is greater than max 1"},
		{Accepts(func(*Request, requiredInt) error { return nil }), "field A: required cannot be enforced on int: an absent member decodes to its zero value; declare the field *int"},
		{Accepts(func(*Request, badSize) error { return nil }), "field A: size=5..1: want min..max"},
		{Accepts(func(*Request, sizeInt) error { return nil }), "field A: size applies to texts, lists and maps, not int"},
		{Accepts(func(*Request, minText) error { return nil }), "field A: min and max applies to numbers"},
		{Accepts(func(*Request, hidden) error { return nil }), "field A: has constraints, but the body never sets it"},
		{Accepts(func(*Request, noValue) error { return nil }), "field A: enum needs a value"},
		{Accepts(func(*Request, inPattern) error { return nil }), "field A: pattern goes in a tag of its own"},
		{Accepts(func(*Request, twice) error { return nil }), "field A: declares email twice"},
		{Accepts(func(*Request, emailURL) error { return nil }), "field A: email and url cannot both hold"},
		{Exchanges(func(*Request, nested) (string, error) { return "", nil }), "body dispatch.emailInt, field A: email applies to texts"},
	}
	for _, tt := range tests {
		_, err := New(Options{}, Route{Method: "POST", Pattern: "/bad", Handler: tt.h})
		if err == nil || !strings.Contains(err.Error(), "route POST /bad: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v\nwant an error with %q", err, tt.want)
		}
	}
}

// TestParamDeclarationsRefused: a parameter constraint its type cannot
// have is refused by New, naming the route and the parameter.
func TestParamDeclarationsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   Input
		want string
	}{
		{Query[string]("q").Max(3), `query parameter "q": Max applies to integer parameters`},
		{Query[int32]("q").Min(5).Max(3), `query parameter "q": its minimum 5 is greater than its maximum 3`},
		{Query[int64]("q").Pattern("x"), `query parameter "q": Size, Pattern, OneOf, Email and URL apply to string parameters`},
		{Query[string]("q").Pattern("(x"), `query parameter "q": pattern "(x": error parsing regexp`},
		{Query[string]("q").Size(3, 1), `query parameter "q": size 3..1: want 0 <= min <= max`},
		{Query[string]("q").OneOf(), `query parameter "q": OneOf lists no value`},
		{Query[string]("q").Email().URL(), `query parameter "q": Email and URL cannot both hold`},
		{OptionalQuery[string]("q").OneOf("a", "b").Default("c"), `query parameter "q": its default must be one of: a, b`},
	}
	for _, tt := range tests {
		_, err := New(Options{}, Route{Method: "GET", Pattern: "/bad", Inputs: []Input{tt.in}, Handler: Runs(func(*Request) error { return nil })})
		if err == nil || !strings.Contains(err.Error(), "route GET /bad: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v\nwant an error with %q", err, tt.want)
		}
	}
}

func TestEmail(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"a@b": true, "ada@example.com": true, "first.last+tag@sub.example.co": true, "x@[192.168.0.1]": true,
		"x@[IPv6:::1]": true, "jürgen@bücher.de": true, "!#$%&'*+/=?^_`{|}~-@x": true,
		"": false, "plain": false, "@x.com": false, "a@": false, "a@@b": false, "a..b@x": false, ".a@x": false,
		"a.@x": false, "a b@x": false, "a@-x.com": false, "a@x-.com": false, "a@x..com": false, "a@x_y.com": false,
		strings.Repeat("a", 65) + "@x": false, "a@[300.1.1.1]": false, `"quoted"@x`: false,
	} {
		if got := isEmail(s); got != want {
			t.Errorf("isEmail(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestURL(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"http://example.com": true, "https://example.com:8443/a?b#c": true, "http://user:pw@host/x": true,
		"http://[::1]:80/": true, "ftp://10.0.0.1/f": true, "file:///etc/hosts": true, "mailto:a@b": true,
		"urn:isbn:123": true, "HTTP://X": true,
		"example.com": false, "http:/x": false, "http://": false, "http:x": false, "http://a b": false,
		"http://x:80a/": false, "1http://x": false, "://x": false, "http://[zz]/": false, "http://-x/": false,
		"mailto:": false,
	} {
		if got := isURL(s); got != want {
			t.Errorf("isURL(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestFieldConstraints: what the OpenAPI document is told of a field.
func TestFieldConstraints(t *testing.T) {
	t.Parallel()
	f, _ := reflect.TypeFor[validated]().FieldByName("Name")
	c, err := FieldConstraints(f)
	if err != nil || !c.Required || *c.MinLength != 1 || *c.MaxLength != 8 {
		t.Errorf("Name: %+v %v", c, err)
	}
	f, _ = reflect.TypeFor[validated]().FieldByName("Code")
	if c, _ := FieldConstraints(f); c.Pattern != "^(?:[A-Z]{2})$" {
		t.Errorf("Code's pattern: %q", c.Pattern)
	}
	f, _ = reflect.TypeFor[validated]().FieldByName("Slug")
	if c, _ := FieldConstraints(f); c.Pattern != "^[a-z0-9-]+$" {
		t.Errorf("Slug's pattern: %q", c.Pattern)
	}
	f, _ = reflect.TypeFor[validated]().FieldByName("Color")
	if c, _ := FieldConstraints(f); fmt.Sprint(c.Enum) != "[red green blue]" {
		t.Errorf("Color's enum: %q", c.Enum)
	}
}

// TestValidBodyAllocs: checking a valid body allocates nothing
// beyond decoding it: the route with constraints allocates as much as the
// same body's route without.
func TestValidBodyAllocs(t *testing.T) {
	// Not parallel: it counts the allocations of the whole process.
	if testing.Short() {
		t.Skip("allocation counts are not short")
	}
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	type plainLine struct {
		Count int `json:"count"`
	}
	type plainBody struct {
		Name  string      `json:"name"`
		Note  *string     `json:"note"`
		Count int         `json:"count"`
		Slug  string      `json:"slug"`
		Email string      `json:"email"`
		Color string      `json:"color"`
		Lines []plainLine `json:"lines"`
	}
	type checkedBody struct {
		Name  string  `json:"name" validate:"required,size=1..8"`
		Note  *string `json:"note" validate:"required"`
		Count int     `json:"count" validate:"min=1,max=100"`
		Slug  string  `json:"slug" pattern:"^[a-z0-9-]+$"`
		Email string  `json:"email" validate:"email"`
		Color string  `json:"color" validate:"enum=red|green|blue"`
		Lines []line  `json:"lines" validate:"required"`
	}
	body := `{"name":"ada","note":"n","count":5,"slug":"a-1","email":"a@b.c","color":"red","lines":[{"count":1},{"count":2}]}`
	d := newDispatcher(t, Options{},
		Route{Method: "POST", Pattern: "/plain", Status: 204, Handler: Accepts(func(*Request, plainBody) error { return nil })},
		Route{Method: "POST", Pattern: "/checked", Status: 204, Handler: Accepts(func(*Request, checkedBody) error { return nil })},
	)
	count := func(path string) float64 {
		r := newBodyRequest(path, body)
		w := &discard{h: http.Header{}}
		allocs := testing.AllocsPerRun(200, func() {
			w.reset()
			r.Body.(*rewindable).Seek(0, 0)
			d.ServeHTTP(w, r)
		})
		if w.status != 204 {
			t.Fatalf("%s: status %d", path, w.status)
		}
		return allocs
	}
	plain, checked := count("/plain"), count("/checked")
	t.Logf("a valid body: %v allocations without constraints, %v with", plain, checked)
	if checked > plain {
		t.Errorf("checking a valid body costs %v allocations", checked-plain)
	}
}

// rewindable is a request body that can be read again, for counting the
// allocations of many requests with one.
type rewindable struct{ *strings.Reader }

func (rewindable) Close() error { return nil }

func newBodyRequest(path, body string) *http.Request {
	r, _ := http.NewRequest("POST", path, nil)
	r.Body = &rewindable{strings.NewReader(body)}
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Type", "application/json")
	r.Pattern = ""
	return r
}
