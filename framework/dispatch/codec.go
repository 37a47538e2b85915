package dispatch

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// encode writes v to buf in format f, without a trailing newline. For
// JSON it uses enc, which must write into buf; nil makes one.
func encode(buf *bytes.Buffer, enc *json.Encoder, f Format, root xmlRoot, v any) error {
	switch f {
	case FormatJSON:
		if enc == nil {
			enc = newJSONEncoder(buf)
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		return nil
	case FormatXML:
		enc := xml.NewEncoder(buf)
		if err := encodeXML(enc, root, v); err != nil {
			return err
		}
		return enc.Close()
	case FormatText:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("text writer given %T", v)
		}
		buf.WriteString(s)
		return nil
	}
	return fmt.Errorf("no writer for format %s", f)
}

// newJSONEncoder returns an encoder that leaves <, > and & as they are, as
// Jackson does: a path or a message with & stays readable.
func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

func encodeXML(enc *xml.Encoder, root xmlRoot, v any) error {
	if !root.list {
		if root.name == "" {
			return enc.Encode(v)
		}
		return enc.EncodeElement(v, xml.StartElement{Name: xml.Name{Local: root.name}})
	}
	list := xml.StartElement{Name: xml.Name{Local: root.name}}
	if err := enc.EncodeToken(list); err != nil {
		return err
	}
	s := reflect.ValueOf(v)
	item := xml.StartElement{Name: xml.Name{Local: "item"}}
	for i := range s.Len() {
		if err := enc.EncodeElement(s.Index(i).Interface(), item); err != nil {
			return err
		}
	}
	return enc.EncodeToken(list.End())
}

// decode fills dst, a pointer, from a whole request body in format f. Every
// failure is a *Error with status 400 whose detail says what is wrong with
// the body without echoing it.
func decode(body []byte, f Format, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return badRequest("Required request body is missing.")
	}
	if !utf8.Valid(body) {
		// A UTF-16 byte-order mark says what the body is, whatever the
		// format: a charset the service does not read, rather than bytes
		// that are wrong.
		if bytes.HasPrefix(body, []byte{0xFE, 0xFF}) || bytes.HasPrefix(body, []byte{0xFF, 0xFE}) {
			return &Error{Status: http.StatusUnsupportedMediaType,
				Detail: "The request body is UTF-16 (it starts with a byte-order mark); send UTF-8."}
		}
		if f == FormatXML {
			// A body in another charset is mostly not UTF-8; if it says
			// so in its declaration, say that rather than "not UTF-8".
			if err := xmlCharset(body); err != nil {
				return err
			}
		}
		return badRequest("Request body is not valid UTF-8.")
	}
	switch f {
	case FormatJSON:
		if string(bytes.TrimSpace(body)) == "null" { // as Spring: no body at all
			return badRequest("Required request body is missing.")
		}
		var err error
		if u, ok := dst.(json.Unmarshaler); ok {
			// What json.Unmarshal would call, minus its own validation
			// pass and state: an Unmarshaler validates what it reads.
			err = u.UnmarshalJSON(body)
		} else {
			err = json.Unmarshal(body, dst)
		}
		if err != nil {
			return badRequest(describeJSONError(err))
		}
	case FormatXML:
		if err := decodeXML(body, dst); err != nil {
			var e *Error
			if errors.As(err, &e) { // the charset's 415
				return e
			}
			return badRequest("Malformed XML body: " + err.Error() + ".")
		}
	default:
		return fmt.Errorf("no reader for format %s", f)
	}
	return nil
}

// decodeXML reads one root element and allows nothing after it but
// whitespace, comments and processing instructions. encoding/xml expands no
// entities beyond XML's five predefined ones and limits nesting depth, so
// entity-expansion tricks end in an error, not in memory.
func decodeXML(body []byte, dst any) error {
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.CharsetReader = charsetReader
	if err := dec.Decode(dst); err != nil {
		return err
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				return errors.New("text after the root element")
			}
		case xml.Comment, xml.ProcInst:
		default:
			return errors.New("content after the root element")
		}
	}
}

// charsetReader is the XML decoder's CharsetReader, which it calls for a
// declared encoding other than UTF-8. US-ASCII is a subset of UTF-8, and the
// body has been checked to be UTF-8, so it is read as it is. Any other
// charset (UTF-16, ISO-8859-1, ...) is refused with 415: the standard
// library has no decoders for them, and reading them as UTF-8 would garble
// every character outside ASCII without an error.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	if strings.EqualFold(charset, "us-ascii") || strings.EqualFold(charset, "ascii") {
		return input, nil
	}
	return nil, &Error{Status: http.StatusUnsupportedMediaType,
		Detail: "XML encoding " + strconv.Quote(Clip(charset)) + " is not supported; send UTF-8."}
}

// xmlCharset returns the 415 for a body whose XML declaration names a
// charset charsetReader refuses, and nil for any other body.
func xmlCharset(body []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.CharsetReader = charsetReader
	_, err := dec.Token() // the declaration, if any, is the first token
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return "Malformed JSON body at byte " + strconv.FormatInt(syntax.Offset, 10) + ": " + syntax.Error() + "."
	case errors.As(err, &typ):
		where := "the body"
		if typ.Field != "" {
			where = strconv.Quote(typ.Field)
		}
		return "JSON body has the wrong shape: " + where + " must be " + jsonKind(typ.Type) + ", not " + article(typ.Value) + "."
	}
	return "Malformed JSON body."
}

func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.Kind().String()
}

func article(jsonValue string) string {
	switch jsonValue {
	case "array", "object":
		return "an " + jsonValue
	case "":
		return "this value"
	}
	if len(jsonValue) > 6 && jsonValue[:6] == "number" {
		return "the number" + jsonValue[6:]
	}
	return "a " + jsonValue
}
