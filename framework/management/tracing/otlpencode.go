package tracing

import (
	"math"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// appendExportRequest appends spans encoded as an OTLP
// ExportTraceServiceRequest in protobuf's wire format (wire.go), the body
// of an OTLP/HTTP export. It writes what the OpenTelemetry exporter
// otlptrace wrote, field for field (its tracetransform package, then
// proto.Marshal), which the tests check by decoding both.
//
// The request nests the spans in two levels of grouping, so that what
// they share is sent once: ResourceSpans per resource (the process that
// made them: service name, version...), holding ScopeSpans per
// instrumentation scope (the library that made them), holding the spans.
// The field numbers are those of the OTLP .proto files
// (opentelemetry/proto/collector/trace/v1/trace_service.proto,
// trace/v1/trace.proto, common/v1/common.proto,
// resource/v1/resource.proto).
func appendExportRequest(b []byte, spans []sdktrace.ReadOnlySpan) []byte {
	// Groups keep the order in which their first span came (otlptrace's
	// ResourceSpans came in a map's random order; the order carries no
	// meaning). There are few groups (this service has one resource and
	// one scope), so they are found by a linear search, not a map.
	var resources []sdktrace.ReadOnlySpan // the first span of each resource
	var scopes []scopeKey
	for _, s := range spans {
		if s == nil {
			continue
		}
		r := s.Resource().Equivalent()
		g := scopeKey{r, s.InstrumentationScope()}
		if !hasResource(resources, r) {
			resources = append(resources, s)
		}
		if !hasScope(scopes, g) {
			scopes = append(scopes, g)
		}
	}

	for _, first := range resources {
		res := first.Resource()
		r := res.Equivalent()
		// ExportTraceServiceRequest.resource_spans = 1
		var rsStart int
		b, rsStart = openMessage(b, 1)
		if res != nil {
			b = appendResource(b, 1, res) // ResourceSpans.resource = 1
		}
		for _, g := range scopes {
			if g.resource != r {
				continue
			}
			var ssStart int
			b, ssStart = openMessage(b, 2) // ResourceSpans.scope_spans = 2
			if g.scope != (instrumentation.Scope{}) {
				b = appendScope(b, 1, g.scope) // ScopeSpans.scope = 1
			}
			for _, s := range spans {
				if s != nil && s.Resource().Equivalent() == r && s.InstrumentationScope() == g.scope {
					b = appendSpan(b, 2, s) // ScopeSpans.spans = 2
				}
			}
			b = appendStringField(b, 3, g.scope.SchemaURL) // ScopeSpans.schema_url = 3
			b = closeMessage(b, ssStart)
		}
		b = appendStringField(b, 3, res.SchemaURL()) // ResourceSpans.schema_url = 3
		b = closeMessage(b, rsStart)
	}
	return b
}

func hasResource(firsts []sdktrace.ReadOnlySpan, r attribute.Distinct) bool {
	for _, s := range firsts {
		if s.Resource().Equivalent() == r {
			return true
		}
	}
	return false
}

// scopeKey identifies the spans of one ScopeSpans: those of one
// instrumentation scope within one resource.
type scopeKey struct {
	resource attribute.Distinct
	scope    instrumentation.Scope
}

func hasScope(keys []scopeKey, g scopeKey) bool {
	for _, h := range keys {
		if h == g {
			return true
		}
	}
	return false
}

// appendResource writes a Resource: attributes = 1. Its
// dropped_attributes_count (2) stays 0, unwritten: the SDK's resources
// drop no attribute, and otlptrace does not write it either.
func appendResource(b []byte, field int, res *resource.Resource) []byte {
	b, start := openMessage(b, field)
	b = appendAttributeSet(b, 1, res.Iter())
	return closeMessage(b, start)
}

// appendScope writes an InstrumentationScope: name = 1, version = 2,
// attributes = 3.
func appendScope(b []byte, field int, scope instrumentation.Scope) []byte {
	b, start := openMessage(b, field)
	b = appendStringField(b, 1, scope.Name)
	b = appendStringField(b, 2, scope.Version)
	b = appendAttributeSet(b, 3, scope.Attributes.Iter())
	return closeMessage(b, start)
}

// Span's fields.
const (
	spanFieldTraceID                = 1
	spanFieldSpanID                 = 2
	spanFieldTraceState             = 3
	spanFieldParentSpanID           = 4
	spanFieldName                   = 5
	spanFieldKind                   = 6
	spanFieldStartTimeUnixNano      = 7
	spanFieldEndTimeUnixNano        = 8
	spanFieldAttributes             = 9
	spanFieldDroppedAttributesCount = 10
	spanFieldEvents                 = 11
	spanFieldDroppedEventsCount     = 12
	spanFieldLinks                  = 13
	spanFieldDroppedLinksCount      = 14
	spanFieldStatus                 = 15
	spanFieldFlags                  = 16
)

func appendSpan(b []byte, field int, s sdktrace.ReadOnlySpan) []byte {
	b, start := openMessage(b, field)
	sc := s.SpanContext()
	traceID, spanID := sc.TraceID(), sc.SpanID()
	// The IDs are written even when zero: they are bytes fields, which
	// proto3 writes unless empty, and they are always 16 and 8 bytes.
	b = appendBytes(b, spanFieldTraceID, traceID[:])
	b = appendBytes(b, spanFieldSpanID, spanID[:])
	b = appendStringField(b, spanFieldTraceState, sc.TraceState().String())
	parent := s.Parent()
	if parentID := parent.SpanID(); parentID.IsValid() {
		b = appendBytes(b, spanFieldParentSpanID, parentID[:])
	}
	b = appendStringField(b, spanFieldName, s.Name())
	b = appendVarintField(b, spanFieldKind, otlpSpanKind(s.SpanKind()))
	b = appendFixed64Field(b, spanFieldStartTimeUnixNano, unixNano(s.StartTime()))
	b = appendFixed64Field(b, spanFieldEndTimeUnixNano, unixNano(s.EndTime()))
	b = appendAttributes(b, spanFieldAttributes, s.Attributes())
	b = appendVarintField(b, spanFieldDroppedAttributesCount, clampUint32(s.DroppedAttributes()))
	for _, e := range s.Events() {
		b = appendEvent(b, spanFieldEvents, e)
	}
	b = appendVarintField(b, spanFieldDroppedEventsCount, clampUint32(s.DroppedEvents()))
	for _, l := range s.Links() {
		b = appendLink(b, spanFieldLinks, l)
	}
	b = appendVarintField(b, spanFieldDroppedLinksCount, clampUint32(s.DroppedLinks()))
	// The status is written even when unset: otlptrace always sets it.
	b = appendStatus(b, spanFieldStatus, s.Status())
	b = appendFixed32Field(b, spanFieldFlags, spanFlagsOf(sc.TraceFlags(), parent.IsRemote()))
	return closeMessage(b, start)
}

// otlpSpanKind is the OTLP SpanKind of kind. The two enums number the
// kinds alike (internal 1, server 2, client 3, producer 4, consumer 5);
// any other is unspecified (0).
func otlpSpanKind(kind trace.SpanKind) uint64 {
	if kind < trace.SpanKindInternal || kind > trace.SpanKindConsumer {
		return 0
	}
	return uint64(kind)
}

// unixNano is t in nanoseconds since 1970, and 0 for an earlier time,
// which the unsigned field cannot hold.
func unixNano(t time.Time) uint64 {
	return uint64(max(0, t.UnixNano()))
}

// clampUint32 fits a count into a uint32 field.
func clampUint32(n int) uint64 {
	return uint64(min(max(n, 0), math.MaxUint32))
}

// spanFlagsOf is the flags field of a span or link: the W3C trace flags
// in the low 8 bits (sampled: 1), then bit 8 saying that bit 9 is known,
// and bit 9 set when the parent span (of a span) or the linked span (of
// a link) is in another process.
func spanFlagsOf(flags trace.TraceFlags, remote bool) uint32 {
	const hasIsRemote, isRemote = 1 << 8, 1 << 9
	f := uint32(flags) | hasIsRemote
	if remote {
		f |= isRemote
	}
	return f
}

// appendEvent writes a Span.Event: time_unix_nano = 1, name = 2,
// attributes = 3, dropped_attributes_count = 4.
func appendEvent(b []byte, field int, e sdktrace.Event) []byte {
	b, start := openMessage(b, field)
	b = appendFixed64Field(b, 1, unixNano(e.Time))
	b = appendStringField(b, 2, e.Name)
	b = appendAttributes(b, 3, e.Attributes)
	b = appendVarintField(b, 4, clampUint32(e.DroppedAttributeCount))
	return closeMessage(b, start)
}

// appendLink writes a Span.Link: trace_id = 1, span_id = 2,
// attributes = 4, dropped_attributes_count = 5, flags = 6. Its
// trace_state (3) is not written, as otlptrace does not write it.
func appendLink(b []byte, field int, l sdktrace.Link) []byte {
	b, start := openMessage(b, field)
	traceID, spanID := l.SpanContext.TraceID(), l.SpanContext.SpanID()
	b = appendBytes(b, 1, traceID[:])
	b = appendBytes(b, 2, spanID[:])
	b = appendAttributes(b, 4, l.Attributes)
	b = appendVarintField(b, 5, clampUint32(l.DroppedAttributeCount))
	b = appendFixed32Field(b, 6, spanFlagsOf(l.SpanContext.TraceFlags(), l.SpanContext.IsRemote()))
	return closeMessage(b, start)
}

// appendStatus writes a Status: message = 2, code = 3, where OTLP numbers
// the codes unset 0, ok 1, error 2 (the SDK's codes package numbers them
// unset 0, error 1, ok 2).
func appendStatus(b []byte, field int, s sdktrace.Status) []byte {
	b, start := openMessage(b, field)
	b = appendStringField(b, 2, s.Description)
	var code uint64
	switch s.Code {
	case codes.Ok:
		code = 1
	case codes.Error:
		code = 2
	}
	b = appendVarintField(b, 3, code)
	return closeMessage(b, start)
}

// appendAttributes writes each attribute as a KeyValue in field.
func appendAttributes(b []byte, field int, attrs []attribute.KeyValue) []byte {
	for _, kv := range attrs {
		b = appendKeyValue(b, field, kv)
	}
	return b
}

// appendAttributeSet writes each attribute of a set (a resource's, a
// scope's) as a KeyValue in field.
func appendAttributeSet(b []byte, field int, attrs attribute.Iterator) []byte {
	for attrs.Next() {
		b = appendKeyValue(b, field, attrs.Attribute())
	}
	return b
}

// appendKeyValue writes a KeyValue: key = 1, value = 2. The value, an
// AnyValue message, is written even when empty.
func appendKeyValue(b []byte, field int, kv attribute.KeyValue) []byte {
	b, start := openMessage(b, field)
	b = appendStringField(b, 1, string(kv.Key))
	b = appendAnyValue(b, 2, kv.Value)
	return closeMessage(b, start)
}

// AnyValue's fields: a oneof, one of which is written, even when it holds
// its zero value (an empty AnyValue is an empty attribute value).
const (
	anyString  = 1
	anyBool    = 2
	anyInt     = 3
	anyDouble  = 4
	anyArray   = 5 // ArrayValue: values = 1, each an AnyValue
	anyKVList  = 6 // KeyValueList: values = 1, each a KeyValue
	anyBytes   = 7
	listValues = 1 // ArrayValue's and KeyValueList's only field
)

func appendAnyValue(b []byte, field int, v attribute.Value) []byte {
	b, start := openMessage(b, field)
	switch v.Type() {
	case attribute.EMPTY:
	case attribute.BOOL:
		b = appendBool(b, anyBool, v.AsBool())
	case attribute.INT64:
		b = appendInt64(b, anyInt, v.AsInt64())
	case attribute.FLOAT64:
		b = appendDouble(b, anyDouble, v.AsFloat64())
	case attribute.STRING:
		b = appendString(b, anyString, v.AsString())
	case attribute.BYTESLICE:
		b = appendBytes(b, anyBytes, v.AsByteSlice())
	case attribute.BOOLSLICE:
		b = appendArray(b, v.AsBoolSlice(), func(b []byte, e bool) []byte { return appendBool(b, anyBool, e) })
	case attribute.INT64SLICE:
		b = appendArray(b, v.AsInt64Slice(), func(b []byte, e int64) []byte { return appendInt64(b, anyInt, e) })
	case attribute.FLOAT64SLICE:
		b = appendArray(b, v.AsFloat64Slice(), func(b []byte, e float64) []byte { return appendDouble(b, anyDouble, e) })
	case attribute.STRINGSLICE:
		b = appendArray(b, v.AsStringSlice(), func(b []byte, e string) []byte { return appendString(b, anyString, e) })
	case attribute.SLICE:
		var array int
		b, array = openMessage(b, anyArray)
		for _, e := range v.AsSlice() {
			b = appendAnyValue(b, listValues, e)
		}
		b = closeMessage(b, array)
	case attribute.MAP:
		var list int
		b, list = openMessage(b, anyKVList)
		b = appendAttributes(b, listValues, v.AsMap())
		b = closeMessage(b, list)
	default:
		// A type newer than this code: otlptrace writes this string.
		b = appendString(b, anyString, "INVALID")
	}
	return closeMessage(b, start)
}

// appendArray writes elems as an ArrayValue (AnyValue.array_value): each
// element an AnyValue in ArrayValue.values, written by appendElem.
func appendArray[E any](b []byte, elems []E, appendElem func([]byte, E) []byte) []byte {
	b, array := openMessage(b, anyArray)
	for _, e := range elems {
		var elem int
		b, elem = openMessage(b, listValues)
		b = closeMessage(appendElem(b, e), elem)
	}
	return closeMessage(b, array)
}
