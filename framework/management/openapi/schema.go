package openapi

// JSON Schema from Go types, by reflection, following encoding/json's rules
// (and encoding/xml's where the document says how a type is written as XML):
//
//   - A named struct becomes a component under components/schemas, named after
//     the type, and is referred to with $ref; an anonymous struct is inlined.
//     Its properties are its exported fields under their json names; fields
//     tagged json:"-" are left out; the exported fields of an embedded struct
//     without a json name are promoted, a field of the outer struct winning
//     over a promoted one of the same name.
//   - A field is required when its type is not a pointer and it has neither
//     omitempty nor omitzero: encoding/json always writes it. In a struct
//     whose fields declare constraints (validate and pattern tags, which
//     the dispatcher enforces on bodies: constraint.go), a field is
//     required when its validate tag says so, and each constraint is its
//     schema's keyword (minimum, maxLength, pattern, format, enum...). A pointer field
//     is optional, and may be null unless it has omitempty. The struct tag
//     openapi:"required" makes any field required (and not null), and
//     openapi:"optional" makes any field optional. For a request body,
//     "required" is a promise the type's decoding or Validate method must
//     keep: encoding/json itself requires nothing.
//   - Integers carry their format (int32, int64) and, for the narrower and
//     unsigned kinds, their bounds; floats are numbers with format float or
//     double; []byte is a base64 string; slices and arrays are arrays; maps are
//     objects with additionalProperties.
//   - time.Time is a date-time string and uuid.UUID a uuid string. Any other
//     type with its own MarshalJSON is described by the empty schema, since its
//     shape is its own business; one with MarshalText is a string. A custom
//     UnmarshalJSON is assumed to read the fields the type declares.
//   - Struct components name their XML root element (xml.name): the one the
//     type names as an XMLRooted, or the name an XMLName field's xml tag
//     gives, or else the type's name, as encoding/xml writes it. A property whose xml tag names it differently from its json
//     name, or that refers to a struct component, names its element; an
//     xml:",attr" field is an attribute.

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"path"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/springport/greeter/framework/dispatch"
)

// object is a JSON object of the document under construction.
type object = map[string]any

// schemas derives schemas and collects the named ones as components.
type schemas struct {
	components object                  // components/schemas
	names      map[reflect.Type]string // component names given so far
}

func newSchemas() *schemas {
	return &schemas{components: object{}, names: map[reflect.Type]string{}}
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	uuidType          = reflect.TypeFor[uuid.UUID]()
	bytesType         = reflect.TypeFor[[]byte]()
	xmlNameType       = reflect.TypeFor[xml.Name]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// json returns the schema of t written as JSON.
func (s *schemas) json(t reflect.Type) object {
	switch {
	case t == timeType:
		return object{"type": "string", "format": "date-time"}
	case t == uuidType:
		return object{"type": "string", "format": "uuid"}
	case t.Kind() == reflect.Pointer:
		return s.json(t.Elem())
	case implements(t, jsonMarshalerType):
		return object{}
	case implements(t, textMarshalerType):
		return object{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Bool:
		return object{"type": "boolean"}
	case reflect.String:
		return object{"type": "string"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return integerSchema(t.Kind())
	case reflect.Float32:
		return object{"type": "number", "format": "float"}
	case reflect.Float64:
		return object{"type": "number", "format": "double"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !implements(t.Elem(), jsonMarshalerType) && !implements(t.Elem(), textMarshalerType) {
			return object{"type": "string", "contentEncoding": "base64"}
		}
		return object{"type": "array", "items": s.json(t.Elem())}
	case reflect.Array:
		return object{"type": "array", "items": s.json(t.Elem()), "minItems": t.Len(), "maxItems": t.Len()}
	case reflect.Map:
		return object{"type": "object", "additionalProperties": s.json(t.Elem())}
	case reflect.Struct:
		if t.Name() == "" {
			return s.structSchema(t)
		}
		return ref(s.component(t))
	}
	// Interfaces can hold anything; channels, functions and complex numbers
	// cannot be written at all.
	return object{}
}

func integerSchema(k reflect.Kind) object {
	switch k {
	case reflect.Int8:
		return object{"type": "integer", "format": "int32", "minimum": -1 << 7, "maximum": 1<<7 - 1}
	case reflect.Int16:
		return object{"type": "integer", "format": "int32", "minimum": -1 << 15, "maximum": 1<<15 - 1}
	case reflect.Int32:
		return object{"type": "integer", "format": "int32"}
	case reflect.Uint8:
		return object{"type": "integer", "format": "int32", "minimum": 0, "maximum": 1<<8 - 1}
	case reflect.Uint16:
		return object{"type": "integer", "format": "int32", "minimum": 0, "maximum": 1<<16 - 1}
	case reflect.Uint32:
		return object{"type": "integer", "format": "int64", "minimum": 0, "maximum": 1<<32 - 1}
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return object{"type": "integer", "minimum": 0}
	}
	return object{"type": "integer", "format": "int64"} // int, int64
}

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

func ref(name string) object { return object{"$ref": "#/components/schemas/" + name} }

// component returns the name of t's component, deriving its schema the first
// time. The name is registered before the schema is derived, so recursive
// types refer to themselves.
func (s *schemas) component(t reflect.Type) string {
	if name, ok := s.names[t]; ok {
		return name
	}
	name := s.freeName(t)
	s.names[t] = name
	s.components[name] = object{} // reserved while the schema is derived
	s.components[name] = s.structSchema(t)
	return name
}

// freeName gives t the component name it will have: its type name, or, when
// another type took that, its package-qualified name.
func (s *schemas) freeName(t reflect.Type) string {
	base := componentName(typeName(t))
	candidates := []string{base, componentName(path.Base(t.PkgPath())) + "." + base}
	for _, c := range candidates {
		if _, taken := s.components[c]; !taken {
			return c
		}
	}
	for i := 2; ; i++ {
		c := candidates[1] + strconv.Itoa(i)
		if _, taken := s.components[c]; !taken {
			return c
		}
	}
}

// componentName keeps what OpenAPI allows in a component's name (letters,
// digits, ".", "-" and "_"): an instantiated generic type's name has
// brackets, and identifiers may have letters beyond ASCII.
func componentName(s string) string {
	return strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-_", r)) {
			return r
		}
		return '_'
	}, s)
}

// structSchema describes a struct's fields.
func (s *schemas) structSchema(t reflect.Type) object {
	props := object{}
	var required []string
	s.fields(t, props, &required, map[reflect.Type]bool{}, declaresConstraints(t, map[reflect.Type]bool{}))
	sc := object{"type": "object", "properties": props}
	if len(required) > 0 {
		sc["required"] = required
	}
	if t.Name() != "" {
		sc["xml"] = object{"name": xmlRootName(t)}
	}
	return sc
}

// fields adds t's fields to props: its own first, then those promoted from
// embedded structs, which do not replace a name already there.
func (s *schemas) fields(t reflect.Type, props object, required *[]string, seen map[reflect.Type]bool, validated bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := props[name]; dup {
			continue
		}
		props[name] = s.field(f, name, opts)
		if isRequired(f, opts, validated) {
			*required = append(*required, name)
		}
	}
	for _, et := range embedded {
		s.fields(et, props, required, seen, validated)
	}
}

// field is the schema of one struct field under the JSON name name.
func (s *schemas) field(f reflect.StructField, name, jsonOpts string) object {
	var sc object
	if hasOption(jsonOpts, "string") && isStringable(f.Type) {
		sc = object{"type": "string"} // encoding/json quotes the value
	} else {
		sc = s.json(f.Type)
	}
	if c, err := dispatch.FieldConstraints(f); err == nil {
		sc = constrained(sc, f.Type, c)
	}
	sc = fieldXML(f, name, sc)
	if f.Type.Kind() == reflect.Pointer && !isRequired(f, jsonOpts, hasConstraintTags(f)) && !hasOption(jsonOpts, "omitempty") {
		sc = nullable(sc) // encoding/json writes a nil pointer as null
	}
	return sc
}

// isRequired applies the convention the package comment describes; in a
// validated struct, what the dispatcher enforces.
func isRequired(f reflect.StructField, jsonOpts string, validated bool) bool {
	opts := f.Tag.Get("openapi")
	switch {
	case hasOption(opts, "required"):
		return true
	case hasOption(opts, "optional"):
		return false
	case validated:
		c, _ := dispatch.FieldConstraints(f)
		return c.Required
	}
	return f.Type.Kind() != reflect.Pointer && !hasOption(jsonOpts, "omitempty") && !hasOption(jsonOpts, "omitzero")
}

func hasOption(opts, want string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if strings.TrimFunc(o, unicode.IsSpace) == want {
			return true
		}
	}
	return false
}

// isStringable reports whether the ",string" option applies to t.
func isStringable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// nullable returns sc allowing null as well.
func nullable(sc object) object {
	switch typ := sc["type"].(type) {
	case string:
		out := make(object, len(sc))
		for k, v := range sc {
			out[k] = v
		}
		out["type"] = []any{typ, "null"}
		return out
	case nil:
		if len(sc) == 0 {
			return sc // anything, null included
		}
		return object{"anyOf": []any{sc, object{"type": "null"}}}
	}
	return sc
}
