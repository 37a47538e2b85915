package dispatch

import (
	"reflect"
	"strconv"
	"strings"
)

// Format is the syntax of a representation: how the dispatcher reads a
// body in it, or how it writes a result in it.
type Format uint8

const (
	FormatJSON  Format = iota + 1 // encoding/json, with Jackson's defaults
	FormatXML                     // encoding/xml, with Java's root names
	FormatText                    // a string, written as it is
	FormatOther                   // bytes in a syntax the dispatcher does not read
)

var formatNames = [...]string{FormatJSON: "JSON", FormatXML: "XML", FormatText: "text", FormatOther: "other"}

func (f Format) String() string {
	if int(f) < len(formatNames) && formatNames[f] != "" {
		return formatNames[f]
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// formatOf is the syntax of a media type by its subtype or its +json or
// +xml structured-syntax suffix: the rule that decides which reader or
// writer serves a type, applied to a type that the handler writes itself.
func formatOf(m mediaType) Format {
	switch {
	case m.sub == "json" || strings.HasSuffix(m.sub, "+json"):
		return FormatJSON
	case m.sub == "xml" || strings.HasSuffix(m.sub, "+xml"):
		return FormatXML
	case m.typ == "text":
		return FormatText
	}
	return FormatOther
}

// representation is one media type with the format behind it and the
// Content-Type header that a response in it carries.
type representation struct {
	mediaType         mediaType
	contentType       string
	contentTypeHeader []string // {contentType}, made once and shared
	format            Format
	raw               bool // a []byte result, written as it is
}

// rep makes a representation of the table below; its format follows from
// the media type.
func rep(s string, contentType string) representation {
	m, err := parseMediaType(s)
	if err != nil {
		panic(err) // the tables below are constants
	}
	r := representation{mediaType: m, contentType: contentType, format: formatOf(m)}
	if contentType != "" {
		r.contentTypeHeader = []string{contentType}
	}
	return r
}

// Writers, in order of preference: with no Accept, or */*, an object is JSON.
var (
	objectWriters = []representation{
		rep("application/json", "application/json"),
		rep("application/*+json", ""), // answers in the client's own +json type
		rep("application/xml", "application/xml;charset=UTF-8"),
		rep("text/xml", "text/xml;charset=UTF-8"),
		rep("application/*+xml", ""),
	}
	textWriters = []representation{
		rep("text/plain", "text/plain;charset=UTF-8"),
	}
)

// bodyReaders are the body types that a route taking a body accepts unless it
// narrows them with Consumes.
var bodyReaders = []representation{
	rep("application/json", ""),
	rep("application/*+json", ""),
	rep("application/xml", ""),
	rep("text/xml", ""),
	rep("application/*+xml", ""),
}

// xmlRoot names the root element of a value written as XML. Structs use
// their type name (encoding/xml's default); Java's names for boxed scalars
// and lists keep the original's documents: <Integer>5</Integer>,
// <List><item>…</item></List>.
type xmlRoot struct {
	name string // empty: let encoding/xml choose
	list bool   // a slice: one <item> per element inside <List>
}

func xmlRootOf(t reflect.Type) xmlRoot {
	switch t.Kind() {
	case reflect.Int32, reflect.Int, reflect.Int16, reflect.Int8:
		return xmlRoot{name: "Integer"}
	case reflect.Int64:
		return xmlRoot{name: "Long"}
	case reflect.String:
		return xmlRoot{name: "String"}
	case reflect.Bool:
		return xmlRoot{name: "Boolean"}
	case reflect.Slice:
		return xmlRoot{name: "List", list: true}
	}
	return xmlRoot{}
}
