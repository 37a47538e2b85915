package tracing

import (
	"encoding/binary"
	"math"
	"strings"
	"unicode/utf8"
)

// protobuf's wire format, as much of it as an OTLP export request needs.
// (The protobuf module's own encoder is not used: its packages' init
// functions register descriptors and read the executable, costing every
// start-up memory and time; see docs/performance.md, Tracing.)
//
// A message is a sequence of fields, each a key and a value. The key is a
// varint of field number << 3 | wire type, where the wire type says how
// the value is laid out:
//
//   - varint (0): integers, bools and enums, as a base-128 varint, seven
//     bits a byte, least significant first, the high bit set on all but
//     the last byte (encoding/binary's Uvarint is the same encoding);
//   - fixed64 (1) and fixed32 (5): eight or four bytes, little-endian;
//   - length-delimited (2): a varint length, then that many bytes:
//     strings, bytes, and nested messages.
//
// A repeated field is its field written once per element. In proto3, a
// scalar field holding its zero value is not written, except as a member
// of a oneof, where being written is what says which member is set.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

func appendKey(b []byte, field, wireType int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wireType))
}

// appendVarintField writes v unless it is zero.
func appendVarintField(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendUvarint(appendKey(b, field, wireVarint), v)
}

// appendFixed64Field writes v unless it is zero.
func appendFixed64Field(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(appendKey(b, field, wireFixed64), v)
}

// appendFixed32Field writes v unless it is zero.
func appendFixed32Field(b []byte, field int, v uint32) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint32(appendKey(b, field, wireFixed32), v)
}

// appendStringField writes s unless it is empty.
func appendStringField(b []byte, field int, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(b, field, s)
}

// appendString writes s even when it is empty, as a oneof member is.
//
// A protobuf string must be UTF-8, and decoders may refuse a message
// holding one that is not, so the bytes that are not are written as
// U+FFFD, the replacement character. Such strings come from requests (a
// path with %ff in it is one): with otlptrace, proto.Marshal refused the
// whole batch for one of them.
func appendString(b []byte, field int, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b = binary.AppendUvarint(appendKey(b, field, wireBytes), uint64(len(s)))
	return append(b, s...)
}

// appendBytes writes p even when it is empty, as a oneof member is.
func appendBytes(b []byte, field int, p []byte) []byte {
	b = binary.AppendUvarint(appendKey(b, field, wireBytes), uint64(len(p)))
	return append(b, p...)
}

// appendDouble writes v even when it is zero, as a oneof member is.
func appendDouble(b []byte, field int, v float64) []byte {
	return binary.LittleEndian.AppendUint64(appendKey(b, field, wireFixed64), math.Float64bits(v))
}

// appendBool writes v even when it is false, as a oneof member is.
func appendBool(b []byte, field int, v bool) []byte {
	var u uint64
	if v {
		u = 1
	}
	return binary.AppendUvarint(appendKey(b, field, wireVarint), u)
}

// appendInt64 writes v even when it is zero, as a oneof member is. A
// negative int64 is written as the varint of its two's complement, ten
// bytes long.
func appendInt64(b []byte, field int, v int64) []byte {
	return binary.AppendUvarint(appendKey(b, field, wireVarint), uint64(v))
}

// openMessage starts a nested message in field: it writes the key and
// one byte for the length, which is not known until the message has been
// written, and returns where the message starts, for closeMessage.
func openMessage(b []byte, field int) ([]byte, int) {
	b = append(appendKey(b, field, wireBytes), 0)
	return b, len(b)
}

// closeMessage writes the length of the message that started at start.
// One byte holds a length under 128; a longer one needs more, and the
// message is moved along to make room.
func closeMessage(b []byte, start int) []byte {
	n := uint64(len(b) - start)
	var length [binary.MaxVarintLen64]byte
	size := binary.PutUvarint(length[:], n)
	if size > 1 {
		b = append(b, length[1:size]...) // grows b by the extra bytes
		copy(b[start+size-1:], b[start:start+int(n)])
	}
	copy(b[start-1:], length[:size])
	return b
}
