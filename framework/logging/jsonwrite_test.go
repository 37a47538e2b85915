package logging

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"testing"
	"time"
)

// FuzzJSONString: appendJSONString writes every string byte for byte as
// encoding/json does without HTML escaping, invalid UTF-8 included.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "\n\r\t\b\f\x00\x1f\x7f", "é ü 日本", "\u2028\u2029",
		"bad \xff\xfe utf-8", "\xed\xa0\x80 surrogate", "<html>&amp;", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got := appendJSONString(nil, s)
		if !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("appendJSONString(%q) = %s, encoding/json %s", s, got, want.Bytes())
		}
	})
}

// TestJSONValues: every kind of slog value is written as valid JSON,
// durations as milliseconds, and GELF's scalars-only rule turns bools and
// objects into strings.
func TestJSONValues(t *testing.T) {
	for _, c := range []struct {
		v           slog.Value
		scalarsOnly bool
		want        string
	}{
		{slog.IntValue(-3), false, `-3`},
		{slog.Uint64Value(7), false, `7`},
		{slog.Float64Value(1.5), false, `1.5`},
		{slog.Float64Value(math.NaN()), false, `"NaN"`},
		{slog.Float64Value(1e300), false, `1e+300`},
		{slog.BoolValue(true), false, `true`},
		{slog.BoolValue(true), true, `"true"`},
		{slog.DurationValue(1234567 * time.Nanosecond), false, `1.235`},
		{slog.TimeValue(time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)), false, `"2026-01-02T03:04:05.000006Z"`},
		{slog.AnyValue(map[string]int{"a": 1}), false, `{"a":1}`},
		{slog.AnyValue(map[string]int{"a": 1}), true, `"{\"a\":1}"`},
		{slog.AnyValue(errors.New("unexpected end of JSON input")), false, `"unexpected end of JSON input"`},
		{slog.AnyValue(func() {}), false, ""}, // not encoding/json's: written as fmt writes it
	} {
		got := string(appendJSONValue(nil, c.v, c.scalarsOnly))
		if c.want == "" {
			if !json.Valid([]byte(got)) {
				t.Errorf("%v: %s is not JSON", c.v, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%v (scalars only %v): %s, want %s", c.v, c.scalarsOnly, got, c.want)
		}
	}
}
