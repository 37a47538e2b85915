package boot_test

import "testing"

// TestOpenAPINamesTheXMLRootAsTheAnswersDo: the OpenAPI document that boot
// serves names a request body's XML root as the type says
// (openapi.XMLRooted): tester's noteBody is documented with the root note,
// the one the answers (a note) use, not with its Go name.
func TestOpenAPINamesTheXMLRootAsTheAnswersDo(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	type document struct {
		Components struct {
			Schemas map[string]struct {
				XML struct{ Name string }
			}
		}
	}
	doc := decode[document](t, send(t, nil, "GET", s.URL+"/v3/api-docs", ""))
	if len(doc.Components.Schemas) == 0 {
		t.Fatal("the document has no schemas")
	}
	notes := 0
	for name, schema := range doc.Components.Schemas {
		if name == "note" || name == "noteBody" {
			notes++
			if schema.XML.Name != "note" {
				t.Errorf("schema %s names its XML root %q, want note", name, schema.XML.Name)
			}
		}
	}
	if notes != 2 {
		t.Errorf("the document has %d schemas of notes, want note and noteBody: %v", notes, doc.Components.Schemas)
	}
}
