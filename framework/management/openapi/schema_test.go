package openapi

import (
	"encoding/json"
	"encoding/xml"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
)

// requiredText mirrors the service's message body: a pointer, so that a
// missing text is told apart from an empty one, that is still required.
type requiredText struct {
	Text *string `json:"text" xml:"text" openapi:"required"`
}

type fields struct {
	Plain    string `json:"plain"`
	Omitted  string `json:"omitted,omitempty"`
	Zero     int32  `json:"zero,omitzero"`
	Pointer  *int32 `json:"pointer"`
	PtrOmit  *int32 `json:"ptrOmit,omitempty"`
	Optional int64  `json:"optional" openapi:"optional"`
	Quoted   int64  `json:"quoted,string"`
	Untagged bool   // named after the field in JSON and XML
	Skipped  string `json:"-"`
	//lint:ignore U1000 an unexported field is never written
	unexposed string
	Bytes     []byte            `json:"bytes"`
	Tags      []string          `json:"tags" xml:"tag"`
	Counts    map[string]int64  `json:"counts"`
	Any       any               `json:"any"`
	When      time.Time         `json:"when"`
	ID        uuid.UUID         `json:"id" xml:"id,attr"`
	Pair      [2]float32        `json:"pair"`
	Nested    map[string][]bool `json:"nested"`
	embedded
	*Promoted
}

type embedded struct {
	Inner string `json:"inner"`
	Plain string `json:"plain"` // hidden by the outer Plain
}

type Promoted struct {
	Deep uint8 `json:"deep"`
}

type rooted struct {
	XMLName xml.Name `json:"-" xml:"urn:x Root"`
	Value   int32    `json:"value" xml:"value"`
}

type tree struct {
	Children []tree `json:"children"`
}

type custom struct{}

func (custom) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

type text struct{}

func (text) MarshalText() ([]byte, error) { return []byte(`t`), nil }

func TestSchemaOfScalars(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[int32](), `{"format":"int32","type":"integer"}`},
		{reflect.TypeFor[int64](), `{"format":"int64","type":"integer"}`},
		{reflect.TypeFor[int](), `{"format":"int64","type":"integer"}`},
		{reflect.TypeFor[int8](), `{"format":"int32","maximum":127,"minimum":-128,"type":"integer"}`},
		{reflect.TypeFor[int16](), `{"format":"int32","maximum":32767,"minimum":-32768,"type":"integer"}`},
		{reflect.TypeFor[uint8](), `{"format":"int32","maximum":255,"minimum":0,"type":"integer"}`},
		{reflect.TypeFor[uint16](), `{"format":"int32","maximum":65535,"minimum":0,"type":"integer"}`},
		{reflect.TypeFor[uint32](), `{"format":"int64","maximum":4294967295,"minimum":0,"type":"integer"}`},
		{reflect.TypeFor[uint64](), `{"minimum":0,"type":"integer"}`},
		{reflect.TypeFor[float32](), `{"format":"float","type":"number"}`},
		{reflect.TypeFor[float64](), `{"format":"double","type":"number"}`},
		{reflect.TypeFor[bool](), `{"type":"boolean"}`},
		{reflect.TypeFor[string](), `{"type":"string"}`},
		{reflect.TypeFor[*string](), `{"type":"string"}`},
		{reflect.TypeFor[uuid.UUID](), `{"format":"uuid","type":"string"}`},
		{reflect.TypeFor[time.Time](), `{"format":"date-time","type":"string"}`},
		{reflect.TypeFor[[]byte](), `{"contentEncoding":"base64","type":"string"}`},
		{reflect.TypeFor[[]int32](), `{"items":{"format":"int32","type":"integer"},"type":"array"}`},
		{reflect.TypeFor[[3]string](), `{"items":{"type":"string"},"maxItems":3,"minItems":3,"type":"array"}`},
		{reflect.TypeFor[map[string]int64](), `{"additionalProperties":{"format":"int64","type":"integer"},"type":"object"}`},
		{reflect.TypeFor[any](), `{}`},
		{reflect.TypeFor[custom](), `{}`},
		{reflect.TypeFor[text](), `{"type":"string"}`},
		{reflect.TypeFor[struct {
			A int32 `json:"a"`
		}](), `{"properties":{"a":{"format":"int32","type":"integer","xml":{"name":"A"}}},"required":["a"],"type":"object"}`},
	}
	for _, tt := range tests {
		s := newSchemas()
		if got := compact(t, s.json(tt.typ)); got != tt.want {
			t.Errorf("%v:\ngot  %s\nwant %s", tt.typ, got, tt.want)
		}
		if len(s.components) != 0 {
			t.Errorf("%v: made components %v", tt.typ, s.components)
		}
	}
}

func TestSchemaOfStructs(t *testing.T) {
	tests := []struct {
		typ        reflect.Type
		ref        string
		components map[string]string
	}{
		{
			typ: reflect.TypeFor[requiredText](),
			ref: `{"$ref":"#/components/schemas/requiredText"}`,
			components: map[string]string{
				"requiredText": `{"properties":{"text":{"type":"string"}},"required":["text"],"type":"object","xml":{"name":"requiredText"}}`,
			},
		},
		{
			typ: reflect.TypeFor[*fields](),
			ref: `{"$ref":"#/components/schemas/fields"}`,
			components: map[string]string{
				"fields": `{"properties":{` +
					`"Untagged":{"type":"boolean"},` +
					`"any":{"xml":{"name":"Any"}},` +
					`"bytes":{"contentEncoding":"base64","type":"string","xml":{"name":"Bytes"}},` +
					`"counts":{"additionalProperties":{"format":"int64","type":"integer"},"type":"object","xml":{"name":"Counts"}},` +
					`"deep":{"format":"int32","maximum":255,"minimum":0,"type":"integer","xml":{"name":"Deep"}},` +
					`"id":{"format":"uuid","type":"string","xml":{"attribute":true,"name":"id"}},` +
					`"inner":{"type":"string","xml":{"name":"Inner"}},` +
					`"nested":{"additionalProperties":{"items":{"type":"boolean"},"type":"array"},"type":"object","xml":{"name":"Nested"}},` +
					`"omitted":{"type":"string","xml":{"name":"Omitted"}},` +
					`"optional":{"format":"int64","type":"integer","xml":{"name":"Optional"}},` +
					`"pair":{"items":{"format":"float","type":"number","xml":{"name":"Pair"}},"maxItems":2,"minItems":2,"type":"array"},` +
					`"plain":{"type":"string","xml":{"name":"Plain"}},` +
					`"pointer":{"format":"int32","type":["integer","null"],"xml":{"name":"Pointer"}},` +
					`"ptrOmit":{"format":"int32","type":"integer","xml":{"name":"PtrOmit"}},` +
					`"quoted":{"type":"string","xml":{"name":"Quoted"}},` +
					`"tags":{"items":{"type":"string","xml":{"name":"tag"}},"type":"array"},` +
					`"when":{"format":"date-time","type":"string","xml":{"name":"When"}},` +
					`"zero":{"format":"int32","type":"integer","xml":{"name":"Zero"}}` +
					`},"required":["plain","quoted","Untagged","bytes","tags","counts","any","when","id","pair","nested","inner","deep"],"type":"object","xml":{"name":"fields"}}`,
			},
		},
		{
			typ: reflect.TypeFor[rooted](),
			ref: `{"$ref":"#/components/schemas/rooted"}`,
			components: map[string]string{
				"rooted": `{"properties":{"value":{"format":"int32","type":"integer"}},"required":["value"],"type":"object","xml":{"name":"Root"}}`,
			},
		},
		{
			typ: reflect.TypeFor[tree](),
			ref: `{"$ref":"#/components/schemas/tree"}`,
			components: map[string]string{
				"tree": `{"properties":{"children":{"items":{"$ref":"#/components/schemas/tree","xml":{"name":"Children"}},"type":"array"}},"required":["children"],"type":"object","xml":{"name":"tree"}}`,
			},
		},
		{
			typ: reflect.TypeFor[map[string]*widget](),
			ref: `{"additionalProperties":{"$ref":"#/components/schemas/widget"},"type":"object"}`,
			components: map[string]string{
				"widget": `{"properties":{"id":{"format":"int64","type":"integer","xml":{"attribute":true,"name":"id"}},"name":{"type":"string"},"note":{"type":"string"}},"required":["id","name"],"type":"object","xml":{"name":"widget"}}`,
			},
		},
	}
	for _, tt := range tests {
		s := newSchemas()
		if got := compact(t, s.json(tt.typ)); got != tt.ref {
			t.Errorf("%v:\ngot  %s\nwant %s", tt.typ, got, tt.ref)
		}
		if len(s.components) != len(tt.components) {
			t.Errorf("%v: components %v, want %d", tt.typ, keys(s.components), len(tt.components))
		}
		for name, want := range tt.components {
			if got := compact(t, s.components[name]); got != want {
				t.Errorf("%v: component %s:\ngot  %s\nwant %s", tt.typ, name, got, want)
			}
		}
	}
}

// TestComponentNamesDoNotCollide gives two distinct types of one name their
// own components.
func TestComponentNamesDoNotCollide(t *testing.T) {
	type widget struct {
		Other bool `json:"other"`
	}
	s := newSchemas()
	a := compact(t, s.json(reflect.TypeFor[widget]()))
	b := compact(t, s.json(reflect.TypeFor[[]struct {
		W  widget      `json:"w"`
		W2 outerWidget `json:"w2"`
	}]()))
	if a != `{"$ref":"#/components/schemas/widget"}` {
		t.Errorf("first widget: %s", a)
	}
	want := `{"items":{"properties":{"w":{"$ref":"#/components/schemas/widget","xml":{"name":"W"}},"w2":{"$ref":"#/components/schemas/openapi.widget","xml":{"name":"W2"}}},"required":["w","w2"],"type":"object"},"type":"array"}`
	if b != want {
		t.Errorf("second widget:\ngot  %s\nwant %s", b, want)
	}
}

type outerWidget = widget

type page[T any] struct {
	Items []T `json:"items"`
}

type pair[K, V any] struct {
	Key   K `json:"key"`
	Value V `json:"value"`
}

// TestComponentNamesAreValid names an instantiated generic type with only
// what OpenAPI allows, as springdoc names PagedModel<Widget>
// PagedModelWidget: the type's name, then its arguments' without their
// packages.
func TestComponentNamesAreValid(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[page[widget]](), "pageWidget"},
		{reflect.TypeFor[page[*widget]](), "pageWidget"},
		{reflect.TypeFor[page[[]string]](), "pageListString"},
		{reflect.TypeFor[pair[string, map[string]widget]](), "pairStringMapStringWidget"},
		{reflect.TypeFor[page[pair[int64, uuid.UUID]]](), "pagePairInt64UUID"},
	}
	for _, tt := range tests {
		got := compact(t, newSchemas().json(tt.typ))
		if want := `{"$ref":"#/components/schemas/` + tt.want + `"}`; got != want {
			t.Errorf("%v:\ngot  %s\nwant %s", tt.typ, got, want)
		}
	}
}

func TestXMLRootSchema(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[int32](), `{"format":"int32","type":"integer","xml":{"name":"Integer"}}`},
		{reflect.TypeFor[int64](), `{"format":"int64","type":"integer","xml":{"name":"Long"}}`},
		{reflect.TypeFor[string](), `{"type":"string","xml":{"name":"String"}}`},
		{reflect.TypeFor[bool](), `{"type":"boolean","xml":{"name":"Boolean"}}`},
		{reflect.TypeFor[float64](), `{"format":"double","type":"number","xml":{"name":"float64"}}`},
		{reflect.TypeFor[*widget](), `{"$ref":"#/components/schemas/widget"}`},
		{reflect.TypeFor[[]widget](), `{"items":{"$ref":"#/components/schemas/widget","xml":{"name":"item"}},"type":"array","xml":{"name":"List","wrapped":true}}`},
		{reflect.TypeFor[[]string](), `{"items":{"type":"string","xml":{"name":"item"}},"type":"array","xml":{"name":"List","wrapped":true}}`},
	}
	for _, tt := range tests {
		if got := compact(t, newSchemas().xmlRoot(tt.typ)); got != tt.want {
			t.Errorf("%v:\ngot  %s\nwant %s", tt.typ, got, tt.want)
		}
	}
}

func compact(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
