package api

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"testing"
)

// decoded says what decoding a body gave: its text, "<nil>" when it has
// none, "<error>" when decoding refused it.
func decoded(b messageBody, err error) string {
	switch {
	case err != nil:
		return "<error>"
	case b.Text != nil:
		return *b.Text
	}
	return "<nil>"
}

func TestMessageBodyJSON(t *testing.T) {
	tests := []struct {
		in   string
		want string // the text, "<nil>" when absent, "<error>" when refused
	}{
		{`{"text":"hi"}`, "hi"},
		{`{"text":"a","extra":1}`, "a"},
		{`{"TEXT":"x"}`, "<nil>"},
		{`{"Text":"x"}`, "<nil>"},
		{`{"text":"a","TEXT":"b"}`, "a"},
		{`{"TEXT":"b","text":"a"}`, "a"},
		{`{"t\u0065xt":"escaped name"}`, "escaped name"},
		{`{"T\u0065xt":"x"}`, "<nil>"},
		{`{"text":"say \"TEXT\""}`, `say "TEXT"`},
		{`{"note":"TEXT","text":"a"}`, "a"},
		{`{"text":null}`, "<nil>"},
		{`{"text":5}`, "<error>"},
		{`{"TEXT":5,"text":"a"}`, "a"},
		{`{"text":"a"} x`, "<error>"},
		{`{"text":`, "<error>"},
		{`[1]`, "<error>"},
	}
	for _, tt := range tests {
		var b messageBody
		err := json.Unmarshal([]byte(tt.in), &b)
		if got := decoded(b, err); got != tt.want {
			t.Errorf("%s:\ngot  %s (%v)\nwant %s", tt.in, got, err, tt.want)
		}
		// The dispatcher calls UnmarshalJSON directly; it must refuse the
		// same inputs on its own.
		var direct messageBody
		if derr := direct.UnmarshalJSON([]byte(tt.in)); (derr != nil) != (err != nil) {
			t.Errorf("%s: UnmarshalJSON alone gives %v, json.Unmarshal %v", tt.in, derr, err)
		}
	}
}

func TestMessageBodyXML(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{`<Message><text>hi</text></Message>`, "hi"},
		{`<anything><other>x</other><text>hi &amp; bye</text></anything>`, "hi & bye"},
		{`<Message><text><b>x</b></text></Message>`, "<error>"},
		{`<Message><text>a<!-- note -->b</text></Message>`, "ab"},
		{`<Message/>`, "<nil>"},
	}
	for _, tt := range tests {
		var b messageBody
		err := xml.Unmarshal([]byte(tt.in), &b)
		if got := decoded(b, err); got != tt.want {
			t.Errorf("%s:\ngot  %s (%v)\nwant %s", tt.in, got, err, tt.want)
		}
	}
}

// FuzzMessageBodyJSON checks the one-pass decoding against the plain
// exact-name reading it stands for: the same text, or an error for both.
func FuzzMessageBodyJSON(f *testing.F) {
	for _, seed := range []string{`{"text":"hi"}`, `{"TEXT":"x"}`, `{"t\u0065xt":"y"}`, `{"text":"a","Text":"b"}`,
		`{"note":"\"text\"","text":"c"}`, `{"text":5}`, `{"text":null}`, `[]`, `{"text":"a"}x`, `{"tExt":1,"text":"z"}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var b messageBody
		err := b.UnmarshalJSON([]byte(data))

		var want *string
		var members map[string]json.RawMessage
		wantErr := json.Unmarshal([]byte(data), &members)
		if wantErr == nil {
			if raw, ok := members["text"]; ok {
				wantErr = json.Unmarshal(raw, &want)
			}
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, the exact-name reading says %v", data, err, wantErr)
		}
		if err == nil && fmt.Sprint(deref(b.Text)) != fmt.Sprint(deref(want)) {
			t.Fatalf("%q: text %v, the exact-name reading says %v", data, deref(b.Text), deref(want))
		}
	})
}

// FuzzMessageBodyXML checks that any XML body either fails or yields a
// text, without panicking, and the same way twice.
func FuzzMessageBodyXML(f *testing.F) {
	for _, seed := range []string{`<Message><text>hi</text></Message>`, `<m><text><b/></text></m>`, `<m><text>a&amp;b</text><x><text>no</text></x></m>`, `<m>`, `<m><text>`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var a, b messageBody
		errA := xml.Unmarshal([]byte(data), &a)
		errB := xml.Unmarshal([]byte(data), &b)
		if (errA != nil) != (errB != nil) || fmt.Sprint(deref(a.Text)) != fmt.Sprint(deref(b.Text)) {
			t.Fatalf("%q: two readings differ", data)
		}
	})
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
