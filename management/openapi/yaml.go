package openapi

// A small YAML writer for JSON-shaped data: block mappings with sorted keys,
// block sequences, and scalars written plain only when no YAML 1.1 or 1.2
// parser could read them as anything but the same string; every other string
// is double-quoted, with escapes for what YAML does not allow raw. Numbers are
// written as JSON wrote them, which YAML 1.2 reads as the same numbers.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// YAML writes v as block-style YAML, deterministically: mapping keys are
// sorted. v is first marshalled as JSON, so it may be anything encoding/json
// accepts, and the YAML says what the JSON says. YAML panics if v cannot be
// marshalled, as for a channel: that is a programming error.
func YAML(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("openapi.YAML: %v", err))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		panic(fmt.Sprintf("openapi.YAML: %v", err)) // json.Marshal's output always decodes
	}
	var w yamlWriter
	w.node(tree, 0, false)
	return w.buf.Bytes()
}

type yamlWriter struct{ buf bytes.Buffer }

// node writes v at the given indentation. inline means the line is already
// begun (after a sequence's "- "), so the first line is not indented.
func (w *yamlWriter) node(v any, indent int, inline bool) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			w.scalarLine("{}", indent, inline)
			return
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if !inline || i > 0 {
				w.indent(indent)
			}
			w.entry(k, v[k], indent)
		}
	case []any:
		if len(v) == 0 {
			w.scalarLine("[]", indent, inline)
			return
		}
		for i, e := range v {
			if !inline || i > 0 {
				w.indent(indent)
			}
			w.buf.WriteString("- ")
			if isBlock(e) {
				w.node(e, indent+2, true)
			} else {
				w.buf.WriteString(yamlScalar(e))
				w.buf.WriteByte('\n')
			}
		}
	default:
		w.scalarLine(yamlScalar(v), indent, inline)
	}
}

// entry writes one mapping entry, its line already indented.
func (w *yamlWriter) entry(k string, v any, indent int) {
	key := yamlString(k)
	if utf8.RuneCountInString(key) > 1000 {
		// An implicit key is limited to 1024 characters: use an explicit one.
		w.buf.WriteString("? " + key + "\n")
		w.indent(indent)
	} else {
		w.buf.WriteString(key)
	}
	w.buf.WriteByte(':')
	if isBlock(v) {
		w.buf.WriteByte('\n')
		w.node(v, indent+2, false)
		return
	}
	w.buf.WriteByte(' ')
	w.buf.WriteString(yamlScalar(v))
	w.buf.WriteByte('\n')
}

func (w *yamlWriter) scalarLine(s string, indent int, inline bool) {
	if !inline {
		w.indent(indent)
	}
	w.buf.WriteString(s)
	w.buf.WriteByte('\n')
}

func (w *yamlWriter) indent(n int) {
	for range n {
		w.buf.WriteByte(' ')
	}
}

// isBlock reports whether v is written as a block of its own lines: a
// mapping or sequence that is not empty.
func isBlock(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) > 0
	case []any:
		return len(v) > 0
	}
	return false
}

func yamlScalar(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return v.String()
	case string:
		return yamlString(v)
	case map[string]any:
		return "{}"
	case []any:
		return "[]"
	}
	panic(fmt.Sprintf("openapi.YAML: unexpected %T", v)) // not produced by json.Decoder
}

// yamlString writes s plain when that is safe, double-quoted otherwise.
func yamlString(s string) string {
	if plainSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			switch {
			case printable(r):
				b.WriteRune(r)
			case r <= 0xFF:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r <= 0xFFFF:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// printable reports whether YAML allows r unescaped (its c-printable set,
// less the byte-order mark and the characters YAML 1.1 took as line breaks).
func printable(r rune) bool {
	switch {
	case r == 0xFEFF:
		return false
	case r >= 0x20 && r <= 0x7E,
		r >= 0xA0 && r <= 0xD7FF && r != 0x2028 && r != 0x2029,
		r >= 0xE000 && r <= 0xFFFD,
		r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// reserved are the plain scalars that YAML 1.1 or 1.2 resolves to null or a
// boolean (compared case-insensitively).
var reserved = []string{"null", "true", "false", "yes", "no", "on", "off", "y", "n"}

// plainSafe reports whether s can be written as a plain scalar and be read
// back as the same string. It is deliberately conservative: the first
// character must be a letter or one of / _ $ ( (so nothing that starts like
// a number, an indicator, an alias, a tag or a comment), every character
// printable and not a tab, no ": " or " #" inside, no ":" at the end, no
// space at either end, and not a word YAML resolves to null or a boolean.
func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLetter(first) && !strings.ContainsRune("/_$(", first) {
		return false
	}
	for _, r := range s {
		if !printable(r) {
			return false
		}
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	return !slices.Contains(reserved, strings.ToLower(s))
}
