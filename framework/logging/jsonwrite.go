package logging

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// The structured formats append their JSON by hand, so that a line is
// written in one pass into a pooled buffer, in the order its format gives
// its fields. The escaping is encoding/json's without its HTML escaping
// (an Encoder with SetEscapeHTML(false)): jsonwrite_test.go fuzzes the one
// against the other.

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD, and
// U+2028 and U+2029 escaped, which JavaScript reads as line ends.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONFloat appends f as a JSON number; NaN and the infinities,
// which JSON has no numbers for, as strings.
func appendJSONFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Inf"`...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(b, f, format, -1, 64)
}

// appendJSONValue appends v, resolved, as JSON. A value of another kind
// than slog's scalars is written as encoding/json writes it (an error
// as its text); scalarsOnly writes such a value, and a bool, as a string,
// for GELF, whose fields are strings or numbers.
func appendJSONValue(b []byte, v slog.Value, scalarsOnly bool) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendJSONString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		return appendJSONFloat(b, v.Float64())
	case slog.KindBool:
		if scalarsOnly {
			return appendJSONString(b, strconv.FormatBool(v.Bool()))
		}
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		return appendJSONFloat(b, milliseconds(v.Duration()))
	case slog.KindTime:
		return appendJSONString(b, v.Time().Format(time.RFC3339Nano))
	}
	a := v.Any()
	if err, ok := a.(error); ok {
		return appendJSONString(b, err.Error())
	}
	j, err := json.Marshal(a)
	if err != nil {
		return appendJSONString(b, fmt.Sprintf("%+v", a))
	}
	if scalarsOnly && len(j) > 0 && (j[0] == '{' || j[0] == '[' || j[0] == 't' || j[0] == 'f' || j[0] == 'n') {
		return appendJSONString(b, string(j))
	}
	return append(b, j...)
}

// milliseconds is d in milliseconds, to the microsecond: how every
// format writes a duration, under its key with "_ms" added.
func milliseconds(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}
