package dispatch

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"
)

// fuzzBody is a request body type with the shapes a real one has: a
// required field, an optional one, a nested object and a list.
type fuzzBody struct {
	Text  *string `json:"text" xml:"text"`
	Count int32   `json:"count" xml:"count"`
	Inner struct {
		Tags []string `json:"tags" xml:"tag"`
	} `json:"inner" xml:"inner"`
}

func (b fuzzBody) Validate() error {
	if b.Text == nil {
		return errors.New("field 'text' is required")
	}
	return nil
}

// FuzzBody sends arbitrary bodies with arbitrary Content-Type and Accept
// headers through the whole dispatcher: every answer is a success or a
// 4xx problem document, never a 500 or a panic.
func FuzzBody(f *testing.F) {
	for _, seed := range []struct{ body, ct, accept string }{
		{`{"text":"hi","count":3,"inner":{"tags":["a"]}}`, "application/json", ""},
		{`<fuzzBody><text>hi</text><count>3</count><inner><tag>a</tag></inner></fuzzBody>`, "application/xml", "application/xml"},
		{`{"text":null}`, "application/json;charset=utf-8", "*/*"},
		{`[1]`, "application/vnd.x+json", "text/*"},
		{`<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>`, "text/xml", "application/json;q=0"},
		{`{"text":"\ud800"}`, "application/json", "application/*+json"},
		{strings.Repeat("[", 20000), "application/json", ""},
		{"", "", ""},
		{"\xff\xfe", "application/json; charset=utf-16", "garbage"},
	} {
		f.Add(seed.body, seed.ct, seed.accept)
	}
	d, err := New(Options{MaxBodyBytes: 64 << 10},
		Route{Method: "POST", Pattern: "/echo", Status: http.StatusCreated,
			Handler: Exchanges(func(_ *Request, b fuzzBody) (fuzzBody, error) { return b, nil })},
	)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body, contentType, accept string) {
		r := httptest.NewRequest("POST", "/echo", strings.NewReader(body))
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		w := httptest.NewRecorder()
		d.ServeHTTP(w, r)
		switch {
		case w.Code == http.StatusCreated:
			if w.Body.Len() == 0 {
				t.Fatalf("201 without the echoed body")
			}
		case w.Code >= 400 && w.Code < 500:
			var p problem
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Status != w.Code || w.Header().Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d is not a problem document: %v %q", w.Code, err, w.Body)
			}
			if !utf8.ValidString(p.Detail) {
				t.Fatalf("detail is not UTF-8: %q", p.Detail)
			}
		default:
			t.Fatalf("status %d for body %q, Content-Type %q, Accept %q: %s", w.Code, body, contentType, accept, w.Body)
		}
	})
}

// FuzzConvert converts arbitrary path variables and query values to every
// declared type: conversion either succeeds with a value that prints back
// to an equivalent input, or fails with a 400 that names the parameter.
func FuzzConvert(f *testing.F) {
	for _, seed := range []string{"0", "-1", "+5", "2147483647", "2147483648", "-9223372036854775808", "1e3", "0x10", " 1",
		"123e4567-e89b-12d3-a456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "", "\x00", "é"} {
		f.Add(seed)
	}
	i32 := Query[int32]("n")
	i64 := Query[int64]("n")
	id := Query[uuid.UUID]("n")
	str := Query[string]("n")
	f.Fuzz(func(t *testing.T, raw string) {
		if raw == "" || strings.ContainsAny(raw, "&#") {
			return // not a single value in a query string
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.RawQuery = url.Values{"n": {raw}}.Encode()
		check := func(name string, err error) {
			if err == nil {
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Status != http.StatusBadRequest || !strings.Contains(e.Detail, "'n'") {
				t.Fatalf("%s(%q): %v, want a 400 naming the parameter", name, raw, err)
			}
		}
		if v, _, err := lookup(i32, r); err == nil {
			if n, _, err2 := lookup(i64, r); err2 != nil || n != int64(v) {
				t.Fatalf("int32 %q = %d but int64 = %d, %v", raw, v, n, err2)
			}
		} else {
			check("int32", err)
		}
		_, _, err := lookup(i64, r)
		check("int64", err)
		if u, _, err := lookup(id, r); err == nil {
			if !strings.EqualFold(u.String(), raw) {
				t.Fatalf("UUID %q read as %s", raw, u)
			}
		} else {
			check("uuid", err)
		}
		if s, _, err := lookup(str, r); err != nil || s != raw {
			t.Fatalf("string %q read as %q, %v", raw, s, err)
		}
	})
}
