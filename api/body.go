package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"

	"github.com/springport/greeter/domain/message"
)

// messageBody is a message as a client sends it, in JSON or XML. Text is a
// pointer so that a body without text is told apart from an empty text.
type messageBody struct {
	Text *string `json:"text" xml:"text" openapi:"required"`
}

// XMLRootName names the root element of an XML message body in the
// OpenAPI document: Message, as the answers write it and docs/greeter.md shows.
// Any root is read, as Jackson reads any.
func (messageBody) XMLRootName() string { return "Message" }

// UnmarshalJSON reads the "text" member by its exact name, as Jackson
// does; encoding/json alone would also take "Text" or "TEXT", and let the
// last of several spellings win. Most bodies spell it only one way, and
// those are decoded in one ordinary pass.
func (b *messageBody) UnmarshalJSON(data []byte) error {
	if !mayMisspellText(data) {
		var plain struct {
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(data, &plain); err != nil {
			return err
		}
		b.Text = plain.Text
		return nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	raw, ok := members["text"]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, &b.Text); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			typ.Field = "text"
		}
		return err
	}
	return nil
}

// mayMisspellText reports whether data may hold a member that
// encoding/json would take for "text" though it is not spelled so (a
// quoted "Text", "TEXT" or the like, or any escape, which could spell
// one), or "text" more than once, where the last must win whatever the
// earlier ones hold.
func mayMisspellText(data []byte) bool {
	if bytes.IndexByte(data, '\\') >= 0 {
		return true
	}
	exact := 0
	for i := bytes.IndexByte(data, '"'); i >= 0 && i+5 < len(data); {
		if data[i+5] == '"' && bytes.EqualFold(data[i+1:i+5], []byte("text")) {
			if string(data[i+1:i+5]) != "text" {
				return true
			}
			if exact++; exact > 1 {
				return true
			}
		}
		next := bytes.IndexByte(data[i+1:], '"')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// UnmarshalXML reads <text> as plain characters: an element inside it is a
// wrongly shaped body, as an object in place of the JSON string is, where
// encoding/xml alone would drop the element and keep what is left. Other
// elements are skipped, as unknown JSON members are.
func (b *messageBody) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "text" {
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			text, err := readXMLText(d)
			if err != nil {
				return err
			}
			b.Text = &text
		case xml.EndElement:
			return nil // the end of start
		}
	}
}

// readXMLText reads character data up to the end of the current element.
func readXMLText(d *xml.Decoder) (string, error) {
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			text.Write(t)
		case xml.StartElement:
			return "", fmt.Errorf("element <%s> inside <text>, which takes plain text", t.Name.Local)
		case xml.EndElement:
			return text.String(), nil
		}
	}
}

// Validate requires the text, the message's only field.
func (b messageBody) Validate() error {
	if b.Text == nil {
		return errors.New("field 'text' is required")
	}
	return nil
}

func (b messageBody) message() message.Message { return message.Message{Text: *b.Text} }
