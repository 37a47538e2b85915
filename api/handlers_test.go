package api

import (
	"encoding/json"
	"encoding/xml"
	"testing"
)

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
		got := "<nil>"
		switch {
		case err != nil:
			got = "<error>"
		case b.Text != nil:
			got = *b.Text
		}
		if got != tt.want {
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
		got := "<nil>"
		switch {
		case err != nil:
			got = "<error>"
		case b.Text != nil:
			got = *b.Text
		}
		if got != tt.want {
			t.Errorf("%s:\ngot  %s (%v)\nwant %s", tt.in, got, err, tt.want)
		}
	}
}
