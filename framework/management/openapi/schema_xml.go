package openapi

// How encoding/xml writes a type, as OpenAPI's XML object says it: root
// element names and the names of elements and attributes.

import (
	"reflect"
	"strings"
)

// xmlRoot returns the schema of t written as an XML document, with the root
// element the dispatcher writes: a struct's own name, Java's names for boxed
// scalars, and <List> with one <item> per element for a slice.
func (s *schemas) xmlRoot(t reflect.Type) object {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && t.Name() != "" {
		return s.json(t) // the component names its root element
	}
	if t.Kind() == reflect.Slice && t != bytesType {
		sc := object{"type": "array", "xml": object{"name": "List", "wrapped": true}}
		sc["items"] = withXMLName(s.json(t.Elem()), "item")
		return sc
	}
	return withXMLName(s.json(t), scalarXMLName(t))
}

// scalarXMLName is the root element of a scalar written as XML: Java's boxed
// type names where the dispatcher uses them, else encoding/xml's choice,
// the type's name.
func scalarXMLName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int32, reflect.Int, reflect.Int16, reflect.Int8:
		return "Integer"
	case reflect.Int64:
		return "Long"
	case reflect.String:
		return "String"
	case reflect.Bool:
		return "Boolean"
	}
	return t.Name()
}

// withXMLName returns sc naming its element name. A $ref gets the name as a
// sibling keyword, which OpenAPI 3.1 applies over the referenced schema's.
func withXMLName(sc object, name string) object {
	if name == "" {
		return sc
	}
	out := make(object, len(sc)+1)
	for k, v := range sc {
		out[k] = v
	}
	x := object{"name": name}
	if old, ok := sc["xml"].(object); ok {
		for k, v := range old {
			x[k] = v
		}
		x["name"] = name
	}
	out["xml"] = x
	return out
}

// XMLRooted is a type that names the XML root element its documents use,
// where neither an XMLName field nor its Go name says it: a request body
// whose decoder takes any root (as Jackson does), documented by the root
// clients are shown sending.
type XMLRooted interface{ XMLRootName() string }

var xmlRootedType = reflect.TypeFor[XMLRooted]()

// xmlRootName is the root element encoding/xml writes for the struct t, or
// the one t names as an XMLRooted.
func xmlRootName(t reflect.Type) string {
	if t.Implements(xmlRootedType) {
		return reflect.Zero(t).Interface().(XMLRooted).XMLRootName()
	}
	if f, ok := t.FieldByName("XMLName"); ok && f.Type == xmlNameType {
		name, _, _ := strings.Cut(f.Tag.Get("xml"), ",")
		if _, local, ok := strings.Cut(name, " "); ok { // "namespace local"
			name = local
		}
		if name != "" {
			return name
		}
	}
	return t.Name()
}

// fieldXML adds to a property's schema how encoding/xml writes the field.
func fieldXML(f reflect.StructField, jsonName string, sc object) object {
	xmlTag, hasTag := f.Tag.Lookup("xml")
	xmlName, xmlOpts, _ := strings.Cut(xmlTag, ",")
	if xmlTag == "-" || hasOption(xmlOpts, "chardata") || hasOption(xmlOpts, "innerxml") || hasOption(xmlOpts, "comment") || strings.Contains(xmlName, ">") {
		return sc // not something OpenAPI's XML object describes
	}
	if !hasTag || xmlName == "" {
		xmlName = f.Name
	}
	if hasOption(xmlOpts, "attr") {
		out := withXMLName(sc, xmlName)
		out["xml"].(object)["attribute"] = true
		return out
	}
	_, isRef := sc["$ref"]
	if items, ok := sc["items"].(object); ok && sc["type"] == "array" && f.Type != bytesType {
		// encoding/xml writes a slice as one element per item, unwrapped,
		// each named after the field.
		if _, itemRef := items["$ref"]; itemRef || xmlName != jsonName {
			out := make(object, len(sc))
			for k, v := range sc {
				out[k] = v
			}
			out["items"] = withXMLName(items, xmlName)
			return out
		}
		return sc
	}
	if isRef || xmlName != jsonName {
		return withXMLName(sc, xmlName)
	}
	return sc
}
