package tracing

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// The contract: what appendExportRequest writes decodes, with the
// protobuf module and the generated OTLP types, to what OpenTelemetry's
// own exporter, otlptrace, builds from the same spans, for spans that use
// every field it writes.
func TestExportRequestIsOTLPTraces(t *testing.T) {
	spans := everyFieldSpans()
	var ours collectorpb.ExportTraceServiceRequest
	if err := proto.Unmarshal(appendExportRequest(nil, spans), &ours); err != nil {
		t.Fatalf("our export request does not decode: %v", err)
	}
	official := officialExportRequest(t, spans)
	// otlptrace orders the ResourceSpans as a map hands them out, that
	// is at random; within one, it keeps the spans' order, as we do.
	if len(ours.ResourceSpans) != len(official.ResourceSpans) {
		t.Fatalf("%d ResourceSpans, otlptrace makes %d", len(ours.ResourceSpans), len(official.ResourceSpans))
	}
	for _, rs := range ours.ResourceSpans {
		found := false
		for _, want := range official.ResourceSpans {
			found = found || proto.Equal(rs, want)
		}
		if !found {
			t.Errorf("our ResourceSpans\n%s\nis none of otlptrace's:\n%s", prototext.Format(rs), prototext.Format(official))
		}
	}
}

// With one resource, so that otlptrace's order is not random, the bytes
// are the protobuf module's own: it writes fields in field number order,
// as we do.
func TestExportRequestIsTheProtobufModulesBytes(t *testing.T) {
	var oneResource []sdktrace.ReadOnlySpan
	for _, s := range everyFieldSpans() {
		if s != nil && s.Resource().Equivalent() == serviceResource.Equivalent() {
			oneResource = append(oneResource, s)
		}
	}
	want, err := proto.Marshal(officialExportRequest(t, oneResource))
	if err != nil {
		t.Fatal(err)
	}
	if got := appendExportRequest(nil, oneResource); !bytes.Equal(got, want) {
		t.Errorf("our export request differs from proto.Marshal's:\n ours %x\nproto %x", got, want)
	}
}

// A string that is not UTF-8, which otlptrace could not send (proto.Marshal
// refuses it, and the batch with it), is sent with U+FFFD in place of its
// bad bytes.
func TestExportRequestRepairsUTF8(t *testing.T) {
	spans := tracetest.SpanStubs{{Name: "GET", Attributes: []attribute.KeyValue{attribute.String("url.path", "/api/\xff/x")}}}.Snapshots()
	var req collectorpb.ExportTraceServiceRequest
	if err := proto.Unmarshal(appendExportRequest(nil, spans), &req); err != nil {
		t.Fatalf("the request does not decode: %v", err)
	}
	if got := req.ResourceSpans[0].ScopeSpans[0].Spans[0].Attributes[0].Value.GetStringValue(); got != "/api/\uFFFD/x" {
		t.Errorf("url.path = %q, want %q", got, "/api/\uFFFD/x")
	}
}

// A batch of nil spans, or none, is no request: nothing is posted.
func TestExportRequestOfNoSpanIsEmpty(t *testing.T) {
	if b := appendExportRequest(nil, []sdktrace.ReadOnlySpan{nil, nil}); len(b) != 0 {
		t.Errorf("%x, want nothing", b)
	}
}

// closeMessage moves a message along when its length needs more than one
// byte, whatever the number of bytes.
func TestCloseMessageLengths(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 16383, 16384, 2097152} {
		body := strings.Repeat("x", n)
		b, start := openMessage([]byte("prefix"), 7)
		b = closeMessage(append(b, body...), start)
		want := appendString([]byte("prefix"), 7, body)
		if !bytes.Equal(b, want) {
			t.Errorf("a message of %d bytes is written as %x..., want %x...", n, b[:min(len(b), 16)], want[:min(len(want), 16)])
		}
	}
}

// officialExportRequest is what otlptrace, given spans, asks its client to
// upload.
func officialExportRequest(t testing.TB, spans []sdktrace.ReadOnlySpan) *collectorpb.ExportTraceServiceRequest {
	client := &capturingClient{}
	exporter, err := otlptrace.New(context.Background(), client)
	if err != nil {
		t.Fatal(err)
	}
	if err := exporter.ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	return &collectorpb.ExportTraceServiceRequest{ResourceSpans: client.uploaded}
}

// capturingClient is an otlptrace client that keeps what it is given.
type capturingClient struct {
	uploaded []*tracepb.ResourceSpans
}

func (c *capturingClient) Start(context.Context) error { return nil }
func (c *capturingClient) Stop(context.Context) error  { return nil }
func (c *capturingClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	c.uploaded = append(c.uploaded, rs...)
	return nil
}

var (
	serviceResource = resource.NewWithAttributes("https://opentelemetry.io/schemas/1.43.0",
		attribute.String("service.name", "greeter"), attribute.String("service.version", "v1.2.3"))
	otherResource = resource.NewSchemaless(attribute.String("service.name", "other"))
	fullScope     = instrumentation.Scope{Name: "github.com/springport/greeter/framework/dispatch", Version: "v0.1.0",
		SchemaURL: "https://opentelemetry.io/schemas/1.43.0", Attributes: attribute.NewSet(attribute.Bool("scope.attr", true))}
	schemaOnlyScope = instrumentation.Scope{SchemaURL: "https://example.com/schema"}
)

// everyFieldSpans are spans that set every field otlptrace writes, with
// values of every attribute type, zero and negative ones, and texts long
// enough to need lengths of two and three bytes, spread over three
// resources (one of them nil) and three scopes (one of them the zero
// scope, which otlptrace leaves out).
func everyFieldSpans() []sdktrace.ReadOnlySpan {
	id := func(b byte) (trace.TraceID, trace.SpanID) {
		return trace.TraceID{b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, trace.SpanID{b, 1, 2, 3, 4, 5, 6, 7}
	}
	state, err := trace.ParseTraceState("vendor=abc,other=def")
	if err != nil {
		panic(err)
	}
	context := func(b byte, sampled, remote bool) trace.SpanContext {
		tid, sid := id(b)
		var flags trace.TraceFlags
		if sampled {
			flags = trace.FlagsSampled
		}
		return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags, TraceState: state, Remote: remote})
	}
	start := time.Date(2026, 11, 26, 7, 0, 0, 123456789, time.UTC)
	everyType := []attribute.KeyValue{
		attribute.String("string", "value"), attribute.String("empty string", ""),
		attribute.Bool("true", true), attribute.Bool("false", false),
		attribute.Int64("int", 42), attribute.Int64("zero", 0), attribute.Int64("negative", -1), attribute.Int64("min", math.MinInt64),
		attribute.Float64("double", 3.25), attribute.Float64("double zero", 0), attribute.Float64("negative zero", math.Copysign(0, -1)),
		attribute.Float64("infinity", math.Inf(-1)),
		attribute.StringSlice("strings", []string{"a", "", strings.Repeat("long", 100)}),
		attribute.BoolSlice("bools", []bool{true, false}),
		attribute.Int64Slice("ints", []int64{1, 0, -300}),
		attribute.Float64Slice("doubles", []float64{1.5, 0, -2}),
		attribute.StringSlice("no strings", []string{}),
		attribute.ByteSlice("bytes", []byte{0, 1, 255}), attribute.ByteSlice("no bytes", nil),
		attribute.Slice("mixed", attribute.StringValue("s"), attribute.IntValue(1), attribute.SliceValue(attribute.BoolValue(true)), attribute.Value{}),
		attribute.Map("map", attribute.String("k", "v"), attribute.Map("inner", attribute.Float64("f", 1))),
		{Key: "empty value"},
		attribute.String("", "no key"),
		attribute.String("long", strings.Repeat("0123456789", 2000)),
	}
	stubs := tracetest.SpanStubs{
		{ // a server span whose parent is a remote caller's
			Name: "GET /api/hello/{id}", SpanContext: context(1, true, false), Parent: context(2, true, true),
			SpanKind: trace.SpanKindServer, StartTime: start, EndTime: start.Add(1500 * time.Microsecond),
			Attributes: everyType, DroppedAttributes: 3,
			Events: []sdktrace.Event{
				{Name: "exception", Time: start.Add(time.Millisecond), Attributes: everyType[:4], DroppedAttributeCount: 2},
				{Name: "", Time: time.Time{}}, // before 1970: written as 0
			},
			DroppedEvents: 1,
			Links: []sdktrace.Link{
				{SpanContext: context(3, true, true), Attributes: everyType[4:8], DroppedAttributeCount: 1},
				{SpanContext: context(4, false, false)},
			},
			DroppedLinks: 5,
			Status:       sdktrace.Status{Code: codes.Error, Description: "Internal Server Error"},
			Resource:     serviceResource, InstrumentationScope: fullScope,
		},
		{ // a child in the same process, of each span kind
			Name: "child", SpanContext: context(5, true, false), Parent: context(1, true, false),
			SpanKind: trace.SpanKindClient, StartTime: start, EndTime: start.Add(time.Second),
			Status:   sdktrace.Status{Code: codes.Ok},
			Resource: serviceResource, InstrumentationScope: fullScope,
		},
		{Name: "internal", SpanContext: context(6, false, false), SpanKind: trace.SpanKindInternal, Resource: serviceResource},
		{Name: "producer", SpanContext: context(7, true, false), SpanKind: trace.SpanKindProducer, Resource: serviceResource, InstrumentationScope: schemaOnlyScope},
		{Name: "consumer", SpanContext: context(8, true, false), SpanKind: trace.SpanKindConsumer, Resource: otherResource},
		{Name: "unspecified", SpanContext: context(9, true, false), SpanKind: trace.SpanKindUnspecified, Resource: serviceResource, InstrumentationScope: fullScope},
		{Name: "a kind unknown", SpanKind: trace.SpanKind(17), Resource: otherResource, InstrumentationScope: fullScope},
		{Name: "no resource", SpanContext: context(10, true, false), DroppedAttributes: math.MaxInt32 + 7},
	}
	spans := stubs.Snapshots()
	return append(spans[:2:2], append([]sdktrace.ReadOnlySpan{nil}, spans[2:]...)...)
}
