package main

// The contract: every answer the end-to-end tests receive must be one that
// the service's own OpenAPI document (/v3/api-docs) allows, so the document
// and the service cannot drift apart.
//
//   - The document is fetched once per running service and validated as
//     OpenAPI 3.1; kin-openapi's legacy router finds the operation, since it
//     matches method and path together as the ServeMux does (PUT
//     /api/messages/search is PUT /api/messages/{index}).
//   - A request whose path no operation documents (an unknown path,
//     /actuator/*, /v3/*) is not checked. OPTIONS is not checked either: the
//     dispatcher answers it for every path, and springdoc leaves it out too.
//   - A documented path asked with a method it does not document must be
//     answered 405, and that answer must be the 405 problem the document
//     gives every operation (with its Allow header). HEAD is checked as the
//     GET it stands for, without a body.
//   - The answer is checked with openapi3filter.ValidateResponse, undocumented
//     statuses included: status, headers, Content-Type and body against its
//     schema, problem documents too. XML bodies are read by a decoder guided
//     by the schema's xml names (kin-openapi has none), and their root
//     element must be the one the document names. A +json or +xml type the
//     client asked for is checked against the document's application/*+json
//     or application/*+xml entry. A response the document gives no content
//     must have no body.
//   - A 2xx answer means the service accepted the request, so the request
//     must be one the document allows as well (openapi3filter.ValidateRequest).

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"go.yaml.in/yaml/v4"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/messagestore/inmem"
)

func init() {
	for _, ct := range []string{"application/xml", "text/xml", "application/*+xml"} {
		openapi3filter.RegisterBodyDecoder(ct, xmlBodyDecoder)
	}
}

// checkContract fails the test when the answer (status, header, body) to req,
// whose body was reqBody, is not one the service's OpenAPI document allows.
// The failure says it is the contract's, whichever test made the request.
func checkContract(t *testing.T, s *service, req *http.Request, reqBody []byte, status int, header http.Header, body []byte) {
	t.Helper()
	if err := contractViolation(s, req, reqBody, status, header, body); err != nil {
		t.Error(err)
	}
}

// contractError is an exchange that the service's OpenAPI document does
// not allow: the answer, or, for a 2xx answer, the request it accepted.
type contractError struct {
	method string // the request's
	route  string // the documented path the request matched
	target string // the request's path and query
	status int
	header http.Header
	// request says the violation is in the request the service accepted.
	request bool
	err     error // the violation
}

func (e *contractError) Error() string {
	answered := fmt.Sprintf("answered %d with no Content-Type", e.status)
	if ct := e.header.Get("Content-Type"); ct != "" {
		answered = fmt.Sprintf("answered %d %s", e.status, ct)
	}
	if e.request {
		return fmt.Sprintf("contract: %s %s (%s) %s to a request which the OpenAPI document does not allow: %v",
			e.method, e.route, e.target, answered, e.err)
	}
	return fmt.Sprintf("contract: %s %s (%s) %s, which the OpenAPI document does not allow: %v",
		e.method, e.route, e.target, answered, e.err)
}

func (e *contractError) Unwrap() error { return e.err }

// contract is one service's document, loaded on first use.
type contract struct {
	svc    *service
	once   sync.Once
	router routers.Router
	err    error
}

// contracts caches the documents by base URL. A later service on the same
// port is another service: its document is loaded again.
var contracts struct {
	sync.Mutex
	byBase map[string]*contract
}

func contractOf(s *service) *contract {
	contracts.Lock()
	if contracts.byBase == nil {
		contracts.byBase = map[string]*contract{}
	}
	c := contracts.byBase[s.base]
	if c == nil || c.svc != s {
		c = &contract{svc: s}
		contracts.byBase[s.base] = c
	}
	contracts.Unlock()
	c.once.Do(func() { c.router, c.err = loadContract(s.base) })
	return c
}

// contractClient fetches the documents; a service that hangs fails the
// check instead of the whole test binary.
var contractClient = &http.Client{Timeout: 10 * time.Second}

// loadContract fetches and validates a service's document and builds its
// router.
func loadContract(base string) (routers.Router, error) {
	resp, err := contractClient.Get(base + "/v3/api-docs")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /v3/api-docs: %d %s", resp.StatusCode, data)
	}
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("loading /v3/api-docs: %w", err)
	}
	// A relative server URL is relative to the document's own, as tools
	// read it; the router matches requests against absolute ones.
	docURL, err := url.Parse(base + "/v3/api-docs")
	if err != nil {
		return nil, err
	}
	for _, srv := range spec.Servers {
		rel, err := url.Parse(srv.URL)
		if err != nil {
			return nil, fmt.Errorf("server URL %q: %w", srv.URL, err)
		}
		srv.URL = strings.TrimSuffix(docURL.ResolveReference(rel).String(), "/")
	}
	// legacy.NewRouter validates the document first.
	return legacy.NewRouter(spec)
}

// contractMethods are tried to tell a documented path from an unknown one.
var contractMethods = []string{"GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "TRACE"}

// contractViolation returns why the answer breaks the document, as a
// *contractError, or nil.
func contractViolation(s *service, req *http.Request, reqBody []byte, status int, header http.Header, body []byte) error {
	if req.Method == http.MethodOptions {
		return nil
	}
	c := contractOf(s)
	if c.err != nil {
		return fmt.Errorf("contract: the service's OpenAPI document cannot be used to check %s %s: %w", req.Method, req.URL.RequestURI(), c.err)
	}
	ctx := context.Background()
	head := req.Method == http.MethodHead
	asked := req.Clone(ctx)
	if head {
		asked.Method = http.MethodGet // HEAD is GET without the body
	}
	route, params, err := c.router.FindRoute(asked)
	undocumentedMethod := err != nil
	if undocumentedMethod {
		for _, m := range contractMethods {
			other := req.Clone(ctx)
			other.Method = m
			if route, params, err = c.router.FindRoute(other); err == nil {
				asked = other
				break
			}
		}
		if route == nil {
			return nil // not a documented path
		}
	}
	violation := &contractError{method: req.Method, route: route.Path, target: req.URL.RequestURI(), status: status, header: header}
	switch {
	case undocumentedMethod && status != http.StatusMethodNotAllowed:
		violation.err = errors.New("the document has no such operation, so the answer must be 405")
	default:
		violation.err = checkAnswer(route, asked, params, head, status, header, body)
	}
	if violation.err == nil && status/100 == 2 && !head {
		// The service took the request: it must be one the document allows.
		violation.err, violation.request = checkAcceptedRequest(route, asked, params, reqBody), true
	}
	if violation.err != nil {
		return violation
	}
	return nil
}

// checkAnswer checks an answer against the operation the document gives
// route: asked is the request as the router matched it (a HEAD as its GET),
// with params from its path.
func checkAnswer(route *routers.Route, asked *http.Request, params map[string]string, head bool, status int, header http.Header, body []byte) error {
	ctx := context.Background()
	// The answer.
	h := header.Clone()
	if h == nil {
		h = http.Header{}
	}
	responseRef := route.Operation.Responses.Status(status)
	if responseRef == nil {
		responseRef = route.Operation.Responses.Default()
	}
	if responseRef != nil && responseRef.Value != nil {
		content := responseRef.Value.Content
		if len(content) == 0 && len(body) > 0 {
			return fmt.Errorf("the document gives %d no content, but the body is %q", status, contractClip(body))
		}
		if len(content) > 0 {
			key, mt := documentedType(content, h.Get("Content-Type"))
			if mt == nil {
				return fmt.Errorf("Content-Type %q is not one of the documented %v", h.Get("Content-Type"), contentTypes(content))
			}
			h.Set("Content-Type", key)
			if err := checkXMLRoot(key, mt, body, head); err != nil {
				return err
			}
		}
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: asked, PathParams: params, Route: route},
		Status:                 status,
		Header:                 h,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, ExcludeResponseBody: head},
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(ctx, in)
}

// checkAcceptedRequest checks a request the service took against the
// operation the document gives route.
func checkAcceptedRequest(route *routers.Route, asked *http.Request, params map[string]string, reqBody []byte) error {
	ctx := context.Background()
	accepted := asked.Clone(ctx)
	accepted.Body = io.NopCloser(bytes.NewReader(reqBody))
	accepted.ContentLength = int64(len(reqBody))
	if rb := route.Operation.RequestBody; rb != nil && rb.Value != nil {
		if key, mt := documentedType(rb.Value.Content, accepted.Header.Get("Content-Type")); mt != nil {
			accepted.Header.Set("Content-Type", key)
		}
	}
	return openapi3filter.ValidateRequest(ctx, &openapi3filter.RequestValidationInput{
		Request: accepted, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true},
	})
}

// documentedType returns the content entry for a Content-Type, and its key.
// Beyond kin-openapi's own matching, an application/*+json (or +xml) entry
// covers every type with that suffix, as the dispatcher's writers do.
func documentedType(content openapi3.Content, contentType string) (string, *openapi3.MediaType) {
	if mt := content.Get(contentType); mt != nil {
		return contentType, mt
	}
	base, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return "", nil
	}
	typ, sub, _ := strings.Cut(base, "/")
	for _, key := range contentTypes(content) {
		ktyp, ksub, _ := strings.Cut(strings.ToLower(key), "/")
		if suffix, ok := strings.CutPrefix(ksub, "*+"); ok && ktyp == typ && strings.HasSuffix(sub, "+"+suffix) {
			return key, content[key]
		}
	}
	return "", nil
}

func contentTypes(content openapi3.Content) []string {
	keys := make([]string, 0, len(content))
	for k := range content {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkXMLRoot checks that an XML body's root element is the one the
// document names.
func checkXMLRoot(contentType string, mt *openapi3.MediaType, body []byte, head bool) error {
	base, _, _ := strings.Cut(strings.ToLower(contentType), ";")
	if head || !(strings.HasSuffix(base, "/xml") || strings.HasSuffix(base, "+xml")) || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	want := ""
	if x := mt.Schema.Value.XML; x != nil {
		want = x.Name
	}
	root, err := firstXMLElement(newXMLDecoder(bytes.NewReader(body)))
	if err != nil {
		return fmt.Errorf("the XML body is malformed: %w", err)
	}
	if want != "" && root.Name.Local != want {
		return fmt.Errorf("the XML root element is <%s>, the document names <%s>", root.Name.Local, want)
	}
	return nil
}

func firstXMLElement(dec *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := dec.Token()
		if err != nil {
			return xml.StartElement{}, err
		}
		if start, ok := tok.(xml.StartElement); ok {
			return start, nil
		}
	}
}

// xmlBodyDecoder reads an XML body into the JSON-shaped value its schema
// describes, so that kin-openapi can validate it: an object's members are
// its child elements and attributes under their xml names; an unwrapped
// array property is the run of elements of its name; a wrapped array is the
// children of its element; a scalar is its element's text, a number or a
// boolean where the schema says so. The root element's name is not checked
// here, since the service reads a body whatever its root is called;
// checkXMLRoot checks it for answers.
func xmlBodyDecoder(body io.Reader, _ http.Header, schema *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	if schema == nil || schema.Value == nil {
		return nil, errors.New("no schema to read the XML body with")
	}
	dec := newXMLDecoder(body)
	root, err := firstXMLElement(dec)
	if err != nil {
		return nil, err
	}
	return decodeXMLElement(dec, root, schema.Value)
}

func decodeXMLElement(dec *xml.Decoder, start xml.StartElement, sc *openapi3.Schema) (any, error) {
	sc = nonNullSchema(sc)
	switch {
	case sc.Type.Includes("object"):
		obj := map[string]any{}
		for _, a := range start.Attr {
			name, prop := xmlProperty(sc, a.Name.Local, true)
			if prop == nil {
				return nil, fmt.Errorf("<%s> has attribute %q, which the schema does not describe", start.Name.Local, a.Name.Local)
			}
			obj[name] = xmlScalar(a.Value, prop)
		}
		for {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			switch t := tok.(type) {
			case xml.StartElement:
				name, prop := xmlProperty(sc, t.Name.Local, false)
				if prop == nil {
					return nil, fmt.Errorf("<%s> has element <%s>, which the schema does not describe", start.Name.Local, t.Name.Local)
				}
				if prop.Type.Includes("array") && (prop.XML == nil || !prop.XML.Wrapped) && prop.Items != nil {
					item, err := decodeXMLElement(dec, t, prop.Items.Value)
					if err != nil {
						return nil, err
					}
					list, _ := obj[name].([]any)
					obj[name] = append(list, item)
					continue
				}
				v, err := decodeXMLElement(dec, t, prop)
				if err != nil {
					return nil, err
				}
				obj[name] = v
			case xml.CharData:
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, fmt.Errorf("<%s> has text, but the schema describes an object", start.Name.Local)
				}
			case xml.EndElement:
				return obj, nil
			}
		}
	case sc.Type.Includes("array"):
		list := []any{}
		var itemName string
		var items *openapi3.Schema
		if sc.Items != nil {
			items = sc.Items.Value
			if items != nil && items.XML != nil {
				itemName = items.XML.Name
			}
		}
		for {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			switch t := tok.(type) {
			case xml.StartElement:
				if itemName != "" && t.Name.Local != itemName {
					return nil, fmt.Errorf("<%s> has element <%s>, the schema names its items <%s>", start.Name.Local, t.Name.Local, itemName)
				}
				if items == nil {
					return nil, fmt.Errorf("<%s> has items, but the schema describes none", start.Name.Local)
				}
				item, err := decodeXMLElement(dec, t, items)
				if err != nil {
					return nil, err
				}
				list = append(list, item)
			case xml.CharData:
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, fmt.Errorf("<%s> has text, but the schema describes an array", start.Name.Local)
				}
			case xml.EndElement:
				return list, nil
			}
		}
	}
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return nil, fmt.Errorf("<%s> has element <%s>, but the schema describes a scalar", start.Name.Local, t.Name.Local)
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			return xmlScalar(text.String(), sc), nil
		}
	}
}

// nonNullSchema returns the alternative of a nullable schema that is not null.
func nonNullSchema(sc *openapi3.Schema) *openapi3.Schema {
	for _, alts := range []openapi3.SchemaRefs{sc.AnyOf, sc.OneOf} {
		for _, alt := range alts {
			if alt.Value != nil && !alt.Value.Type.Is("null") {
				return alt.Value
			}
		}
	}
	return sc
}

// xmlProperty finds the property written as the element (or attribute)
// local, and returns its JSON name.
func xmlProperty(sc *openapi3.Schema, local string, attr bool) (string, *openapi3.Schema) {
	names := make([]string, 0, len(sc.Properties))
	for name := range sc.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		prop := sc.Properties[name].Value
		if prop == nil {
			continue
		}
		prop = nonNullSchema(prop)
		element := name
		if prop.XML != nil && prop.XML.Name != "" {
			element = prop.XML.Name
		}
		if prop.Type.Includes("array") && (prop.XML == nil || !prop.XML.Wrapped) && prop.Items != nil && prop.Items.Value != nil {
			if x := prop.Items.Value.XML; x != nil && x.Name != "" {
				element = x.Name // an unwrapped array: its items are the elements
			}
		}
		isAttr := prop.XML != nil && prop.XML.Attribute
		if element == local && isAttr == attr {
			return name, prop
		}
	}
	return "", nil
}

// xmlScalar reads text as the schema's type; text that does not parse is
// left a string, for the schema to refuse.
func xmlScalar(text string, sc *openapi3.Schema) any {
	switch {
	case sc.Type.Includes("integer"), sc.Type.Includes("number"):
		var n json.Number
		if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &n); err == nil {
			return n
		}
	case sc.Type.Includes("boolean"):
		switch strings.TrimSpace(text) {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return text
}

func contractClip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// TestOpenAPIDocument fetches the running service's document as JSON and as
// YAML: both must be the same valid OpenAPI 3.1 document, listing exactly the
// service's /api routes, each with its success status.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	fetch := func(path, wantType string) []byte {
		t.Helper()
		resp, err := http.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != wantType {
			t.Fatalf("GET %s: %d %q, want 200 %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), wantType)
		}
		return b
	}
	asJSON := fetch("/v3/api-docs", "application/json")
	asYAML := fetch("/v3/api-docs.yaml", "application/vnd.oai.openapi")
	if bytes.HasPrefix(bytes.TrimSpace(asYAML), []byte("{")) {
		t.Errorf("/v3/api-docs.yaml is JSON, want block-style YAML:\n%s", contractClip(asYAML))
	}
	var fromJSON, fromYAML any
	if err := json.Unmarshal(asJSON, &fromJSON); err != nil {
		t.Fatalf("/v3/api-docs is not JSON: %v", err)
	}
	if err := yaml.Unmarshal(asYAML, &fromYAML); err != nil {
		t.Fatalf("/v3/api-docs.yaml is not YAML: %v", err)
	}
	// Encoded again as JSON, whose maps have sorted keys, the two decoded
	// documents compare byte for byte, whatever Go types each decoder chose.
	a, errA := json.Marshal(fromJSON)
	b, errB := json.Marshal(fromYAML)
	if err := errors.Join(errA, errB); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("/v3/api-docs and /v3/api-docs.yaml differ")
	}

	routes, err := dispatch.Describe(api.Routes("", &inmem.Messages{}, api.Paging{}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"/v3/api-docs": asJSON, "/v3/api-docs.yaml": asYAML} {
		loader := openapi3.NewLoader()
		spec, err := loader.LoadFromData(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := spec.Validate(loader.Context); err != nil {
			t.Errorf("%s is not a valid OpenAPI document: %v", name, err)
		}
		if !spec.IsOpenAPI31OrLater() || spec.OpenAPI != "3.1.0" {
			t.Errorf("%s: openapi %q, want 3.1.0", name, spec.OpenAPI)
		}
		operations := 0
		for path, item := range spec.Paths.Map() {
			if !strings.HasPrefix(path, "/api/") {
				t.Errorf("%s documents %s, which is not the service's own API", name, path)
			}
			operations += len(item.Operations())
		}
		if operations != len(routes) {
			t.Errorf("%s has %d operations, the service %d /api routes", name, operations, len(routes))
		}
		for _, r := range routes {
			item := spec.Paths.Value(r.Pattern)
			if item == nil || item.GetOperation(r.Method) == nil {
				t.Errorf("%s does not document %s %s", name, r.Method, r.Pattern)
				continue
			}
			if item.GetOperation(r.Method).Responses.Status(r.Status) == nil {
				t.Errorf("%s: %s %s does not document its success status %d", name, r.Method, r.Pattern, r.Status)
			}
		}
	}
}

// TestContract sends every kind of request the service answers and checks
// each answer against the document.
func TestContract(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	jsonType, xmlType := "Content-Type: application/json", "Content-Type: application/xml"
	tests := []struct {
		method, path, body string
		headers            []string
		status             int
	}{
		{"GET", "/api/hello", "", nil, 200},
		{"GET", "/api/hello", "", []string{"Accept: application/xml"}, 200},
		{"GET", "/api/hello", "", []string{"Accept: text/xml"}, 200},
		{"GET", "/api/hello", "", []string{"Accept: application/vnd.example+json"}, 200},
		{"GET", "/api/hello", "", []string{"Accept: application/atom+xml"}, 200},
		{"HEAD", "/api/hello", "", nil, 200},
		{"OPTIONS", "/api/hello", "", nil, 200},
		{"GET", "/api/hi", "", nil, 200},
		{"GET", "/api/nothing", "", nil, 200},
		{"GET", "/api/hello/42", "", nil, 200},
		{"GET", "/api/hello/42", "", []string{"Accept: application/xml"}, 200},
		{"POST", "/api/messages", `{"text":"first"}`, []string{jsonType}, 201},
		{"POST", "/api/messages", `<Message><text>second</text></Message>`, []string{xmlType}, 201},
		{"POST", "/api/messages", `{"text":"third"}`, []string{"Content-Type: application/vnd.example+json"}, 201},
		{"PUT", "/api/messages/0", `<Message><text>1st</text></Message>`, []string{"Content-Type: text/xml"}, 204},
		{"GET", "/api/messages", "", nil, 200},
		{"GET", "/api/messages", "", []string{"Accept: application/xml"}, 200},
		{"GET", "/api/messages/1", "", []string{"Accept: text/xml"}, 200},
		{"DELETE", "/api/messages/2", "", nil, 204},
		{"GET", "/api/messages/search?param1=5", "", nil, 200},
		{"GET", "/api/messages/search?param1=5&param2=123e4567-e89b-12d3-a456-426614174000", "", nil, 200},
		{"GET", "/api/number/val-a", "", nil, 200},
		{"GET", "/api/number/val-b", "", []string{"Accept: application/xml"}, 200},
		// Problems.
		{"GET", "/api/nope", "", nil, 404},
		{"GET", "/api/hello/", "", nil, 404},
		{"POST", "/api/hello", "", nil, 405},
		{"HEAD", "/api/messages/search/x", "", nil, 404},
		{"PATCH", "/api/messages/0", "", nil, 405},
		{"POST", "/api/messages", "text", []string{"Content-Type: text/plain"}, 415},
		{"GET", "/api/hello", "", []string{"Accept: text/plain"}, 406},
		{"GET", "/api/hello", "", []string{"Accept: application//json"}, 400},
		{"GET", "/api/hello/abc", "", nil, 400},
		{"GET", "/api/messages/search", "", nil, 400},
		{"PUT", "/api/messages/search", `{"text":"x"}`, []string{jsonType}, 400},
		{"POST", "/api/messages", `{}`, []string{jsonType}, 400},
		{"POST", "/api/messages", `{"text":"` + strings.Repeat("a", 1<<20) + `"}`, []string{jsonType}, 413},
		{"GET", "/api/messages/7", "", nil, 500},
		{"DELETE", "/api/messages/7", "", []string{"Accept: application/xml"}, 500},
		// Not documented: not checked.
		{"GET", "/actuator/health", "", nil, 200},
		{"GET", "/v3/api-docs", "", nil, 200},
	}
	for _, tt := range tests {
		if got := s.do(t, tt.method, tt.path, tt.body, tt.headers...); got.status != tt.status {
			t.Errorf("%s %s %v: status %d, want %d", tt.method, tt.path, tt.headers, got.status, tt.status)
		}
	}
}

// TestContractViolations makes up answers the document does not allow: the
// contract check must refuse every one, and accept the honest ones.
func TestContractViolations(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	problem := func(status int, path string) string {
		return fmt.Sprintf(`{"type":"about:blank","title":%q,"status":%d,"detail":"d","instance":%q}`, http.StatusText(status), status, path)
	}
	const problemType = "application/problem+json"
	tests := []struct {
		name         string
		method, path string
		reqBody      string
		reqType      string
		status       int
		header       http.Header
		body         string
		ok           bool
	}{
		{"a message", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/json"), `{"text":"Hi"}`, true},
		{"a message without text", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/json"), `{"txt":"Hi"}`, false},
		{"a number for a message", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/json"), `5`, false},
		{"an undocumented type", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "text/plain"), `Hi`, false},
		{"no Content-Type", "GET", "/api/hello", "", "", 200, hdr(), `{"text":"Hi"}`, false},
		{"an undocumented status", "GET", "/api/hello", "", "", 418, hdr("Content-Type", problemType), problem(418, "/api/hello"), false},
		{"a +json type", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/vnd.x+json"), `{"text":"Hi"}`, true},
		{"a +json type, wrong body", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/vnd.x+json"), `{}`, false},
		{"XML", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/xml;charset=UTF-8"), `<Message><text>Hi</text></Message>`, true},
		{"XML with another root", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "application/xml;charset=UTF-8"), `<Msg><text>Hi</text></Msg>`, false},
		{"XML with an unknown element", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "text/xml"), `<Message><txt>Hi</txt></Message>`, false},
		{"XML without text", "GET", "/api/hello", "", "", 200, hdr("Content-Type", "text/xml"), `<Message></Message>`, false},
		{"an XML list", "GET", "/api/messages", "", "", 200, hdr("Content-Type", "application/xml"), `<List><item><text>a</text></item><item><text>b</text></item></List>`, true},
		{"an XML list of other items", "GET", "/api/messages", "", "", 200, hdr("Content-Type", "application/xml"), `<List><entry><text>a</text></entry></List>`, false},
		{"a JSON list", "GET", "/api/messages", "", "", 200, hdr("Content-Type", "application/json"), `[{"text":"a"}]`, true},
		{"a JSON object for a list", "GET", "/api/messages", "", "", 200, hdr("Content-Type", "application/json"), `{"text":"a"}`, false},
		{"an XML integer", "GET", "/api/number/val-a", "", "", 200, hdr("Content-Type", "text/xml;charset=UTF-8"), `<Integer>-5</Integer>`, true},
		{"an XML Long", "GET", "/api/number/val-a", "", "", 200, hdr("Content-Type", "text/xml;charset=UTF-8"), `<Long>5</Long>`, false},
		{"an integer past int32", "GET", "/api/number/val-a", "", "", 200, hdr("Content-Type", "application/json"), `2147483648`, false},
		{"text", "GET", "/api/hi", "", "", 200, hdr("Content-Type", "text/plain;charset=UTF-8"), `Hi`, true},
		{"a body where there is none", "POST", "/api/messages", `{"text":"x"}`, "application/json", 201, hdr("Content-Type", "application/json"), `{"text":"x"}`, false},
		{"a problem", "GET", "/api/hello/abc", "", "", 400, hdr("Content-Type", problemType), problem(400, "/api/hello/abc"), true},
		{"a problem without a title", "GET", "/api/hello/abc", "", "", 400, hdr("Content-Type", problemType), `{"type":"about:blank","status":400,"instance":"/api/hello/abc"}`, false},
		{"a problem of another status", "GET", "/api/hello/abc", "", "", 400, hdr("Content-Type", problemType), problem(404, "/api/hello/abc"), false},
		{"a problem as JSON", "GET", "/api/hello/abc", "", "", 400, hdr("Content-Type", "application/json"), problem(400, "/api/hello/abc"), false},
		{"405 with Allow", "PATCH", "/api/messages/0", "", "", 405, hdr("Content-Type", problemType, "Allow", "GET, HEAD"), problem(405, "/api/messages/0"), true},
		{"405 without Allow", "PATCH", "/api/messages/0", "", "", 405, hdr("Content-Type", problemType), problem(405, "/api/messages/0"), false},
		{"an undocumented method that succeeds", "PATCH", "/api/messages/0", "", "", 200, hdr(), ``, false},
		{"415 without Accept", "POST", "/api/messages", "x", "text/plain", 415, hdr("Content-Type", problemType), problem(415, "/api/messages"), false},
		{"an accepted body without text", "POST", "/api/messages", `{"text":5}`, "application/json", 201, hdr(), ``, false},
		{"an accepted XML body", "POST", "/api/messages", `<Message><text>x</text></Message>`, "application/xml", 201, hdr(), ``, true},
		{"an accepted search without param1", "GET", "/api/messages/search", "", "", 200, hdr(), ``, false},
		{"an accepted search with a bad param1", "GET", "/api/messages/search?param1=x", "", "", 200, hdr(), ``, false},
		{"HEAD with the GET's headers", "HEAD", "/api/hello", "", "", 200, hdr("Content-Type", "application/json"), ``, true},
		{"HEAD with an undocumented type", "HEAD", "/api/hello", "", "", 200, hdr("Content-Type", "text/html"), ``, false},
		{"an unknown path", "GET", "/api/nope", "", "", 200, hdr(), `anything`, true},
		{"the management endpoints", "GET", "/actuator/health", "", "", 200, hdr(), `anything`, true},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(tt.method, s.base+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tt.reqType != "" {
			req.Header.Set("Content-Type", tt.reqType)
		}
		err = contractViolation(s, req, []byte(tt.reqBody), tt.status, tt.header, []byte(tt.body))
		switch {
		case tt.ok && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case !tt.ok && err == nil:
			t.Errorf("%s: accepted, want refused", tt.name)
		}
	}
}

// newXMLDecoder reads what the service reads: UTF-8, and US-ASCII as the
// subset of it that it is.
func newXMLDecoder(r io.Reader) *xml.Decoder {
	dec := xml.NewDecoder(r)
	dec.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		if strings.EqualFold(charset, "us-ascii") || strings.EqualFold(charset, "ascii") {
			return input, nil
		}
		return nil, fmt.Errorf("charset %q is not UTF-8", charset)
	}
	return dec
}
