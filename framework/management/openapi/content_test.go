package openapi

import (
	"maps"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// TestXMLAliasKeyedAsWritten checks how a result offered as both
// application/xml and text/xml is described: text/xml is keyed by the
// Content-Type the dispatcher answers it with, so that a generator that
// names one response field per bare XML type (oapi-codegen's XML200) sees
// one, while both answers still match a key of the document; a request
// body in text/xml keeps the bare key.
func TestXMLAliasKeyedAsWritten(t *testing.T) {
	routes := []dispatch.Route{
		{Method: "GET", Pattern: "/w", Handler: returns(widget{})},
		{Method: "PUT", Pattern: "/w", Handler: accepts[widget]()},
	}
	doc := document(t, routes...)
	responses, _ := jsonAt(doc, "paths", "/w", "get", "responses", "200", "content").(map[string]any)
	bodies, _ := jsonAt(doc, "paths", "/w", "put", "requestBody", "content").(map[string]any)
	if responses == nil || bodies == nil {
		t.Fatalf("no response or request body content in %v", doc)
	}

	d, err := dispatch.New(dispatch.Options{}, routes...)
	if err != nil {
		t.Fatal(err)
	}
	for _, accept := range []string{"application/xml", "text/xml"} {
		r := httptest.NewRequest("GET", "/w", nil)
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		ct := w.Header().Get("Content-Type")
		key := ""
		for k := range responses {
			// A key with parameters describes that Content-Type exactly;
			// a bare key describes the type with any parameters.
			if strings.EqualFold(k, ct) || (!strings.Contains(k, ";") && strings.EqualFold(k, strings.TrimSpace(strings.Split(ct, ";")[0]))) {
				key = k
			}
		}
		if key == "" {
			t.Errorf("Accept: %s is answered as %q, which no response key %v describes", accept, ct, sortedKeys(responses))
		} else if responses[key].(map[string]any)["schema"] == nil {
			t.Errorf("response key %q has no schema", key)
		}
	}
	if _, ok := responses["text/xml"]; ok {
		t.Errorf("response keys %v: text/xml is keyed bare beside application/xml; oapi-codegen names both XML200", sortedKeys(responses))
	}
	if _, ok := responses["text/xml;charset=UTF-8"]; !ok {
		t.Errorf("response keys %v: want text/xml;charset=UTF-8", sortedKeys(responses))
	}
	if _, ok := responses["application/xml"]; !ok {
		t.Errorf("response keys %v: want application/xml", sortedKeys(responses))
	}
	if _, ok := bodies["text/xml"]; !ok {
		t.Errorf("request body keys %v: want text/xml, read in any charset", sortedKeys(bodies))
	}
}

// jsonAt walks a decoded document by object keys; nil where one is missing.
func jsonAt(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
