package tracing

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/springport/greeter/framework/dispatch"
)

// Tracer is the dispatcher's dispatch.Tracer. Its zero value only
// propagates: a request that arrives with a traceparent has the caller's
// trace ID and span ID in its context (so on its log lines and in its
// problem document), and no ID is made for one that arrives without.
// Tracing.Tracer returns one that also records a server span per request.
//
// Spans are started here rather than by a wrapping handler (otelhttp):
// only the dispatcher knows the route pattern that names the span, a
// wrapper would need its own ResponseWriter (and allocations) to learn the
// status that the dispatcher already has, and a request that no span
// records costs one header lookup.
type Tracer struct {
	tracer trace.Tracer // nil: propagation only
}

// propagator reads the W3C traceparent and tracestate headers.
var propagator = propagation.TraceContext{}

// Start returns r's context with the caller's span context from a
// traceparent header, and with the request's server span when spans are
// recorded; r's context itself when neither, so that a request without a
// traceparent allocates nothing here while tracing is off.
func (t *Tracer) Start(r *http.Request) context.Context {
	ctx := r.Context()
	if _, ok := r.Header["Traceparent"]; ok { // canonical key: no Get
		ctx = propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
	}
	if t.tracer == nil {
		return ctx
	}
	// The route is not known yet (the dispatcher matches it next): the
	// span is named by its method and renamed in End.
	method, original := methodOf(r.Method)
	ctx, span := t.tracer.Start(ctx, spanName(method, ""), trace.WithSpanKind(trace.SpanKindServer))
	if span.IsRecording() { // a span not sampled is never exported: no attributes
		span.SetAttributes(requestAttributes(r, method, original)...)
	}
	return ctx
}

// End names the request's span by its route, adds what the answer says
// and ends it. A 5xx is an error of the span; a 4xx is the client's, as
// OpenTelemetry's conventions for server spans say.
func (t *Tracer) End(ctx context.Context, o dispatch.Observation) {
	if t.tracer == nil {
		return
	}
	span := trace.SpanFromContext(ctx)
	if span.IsRecording() {
		method, _ := methodOf(o.Method)
		route := o.Route
		switch route {
		case dispatch.NotFound, dispatch.Redirection, dispatch.Unknown:
			route = "" // not a route: the span is named by its method alone
		default:
			span.SetAttributes(semconv.HTTPRoute(route))
		}
		span.SetName(spanName(method, route))
		span.SetAttributes(semconv.HTTPResponseStatusCode(o.Status), semconv.HTTPResponseBodySize(int(o.Bytes)))
		if errorType := errorType(o); errorType != "" {
			span.SetAttributes(semconv.ErrorTypeKey.String(errorType))
		}
		if o.Status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(o.Status))
		}
	}
	span.End()
}

// TraceID returns the trace ID of ctx's span, "" when it is in no trace.
func (t *Tracer) TraceID(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		return sc.TraceID().String()
	}
	return ""
}

// spanName is "GET /api/hello/{id}", or for a request that no route took
// the method alone, so that a scan of random paths makes no new names.
func spanName(method, route string) string {
	if route == "" {
		return method
	}
	return method + " " + route
}

// methodOf returns the method as a span names it, and the method as sent
// when that differs: OpenTelemetry's conventions name an unknown method
// "_OTHER" (and a span of one "HTTP"), so that clients cannot make span
// names and attribute values without bound.
func methodOf(m string) (method, original string) {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m, ""
	}
	return "HTTP", m
}

// validUTF8 returns s with the bytes that are not UTF-8 replaced by
// U+FFFD. What a client sends (a path with %ff in it, a User-Agent) may
// not be UTF-8, while OTLP's strings must be: the protobuf encoder refuses
// the whole batch, other requests' spans with it, for one such string.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s // the common case, at no allocation
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// requestAttributes are the attributes that OpenTelemetry's semantic
// conventions ask of an HTTP server span before it is answered.
func requestAttributes(r *http.Request, method, original string) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 12) // 13 at most: a query and an unknown method
	if original == "" {
		attrs = append(attrs, semconv.HTTPRequestMethodKey.String(method))
	} else {
		attrs = append(attrs, semconv.HTTPRequestMethodKey.String("_OTHER"), semconv.HTTPRequestMethodOriginal(validUTF8(original)))
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	attrs = append(attrs, semconv.URLPath(validUTF8(r.URL.Path)), semconv.URLScheme(scheme))
	if r.URL.RawQuery != "" {
		attrs = append(attrs, semconv.URLQuery(redactQuery(validUTF8(r.URL.RawQuery))))
	}
	if host, port, err := net.SplitHostPort(r.Host); err == nil {
		attrs = append(attrs, semconv.ServerAddress(validUTF8(host)))
		if n, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, semconv.ServerPort(n))
		}
	} else if r.Host != "" {
		attrs = append(attrs, semconv.ServerAddress(validUTF8(r.Host)))
	}
	// The client is who sent the request: a trusted proxy's forwarded
	// headers have named it in RemoteAddr already
	// (server.forward-headers-strategy). The peer is the other end of the
	// connection: the proxy then, the client otherwise.
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		attrs = append(attrs, semconv.ClientAddress(host))
	}
	if host, port, err := net.SplitHostPort(dispatch.SocketPeer(r)); err == nil {
		attrs = append(attrs, semconv.NetworkPeerAddress(host))
		if n, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, semconv.NetworkPeerPort(n))
		}
	}
	if ua := r.UserAgent(); ua != "" {
		attrs = append(attrs, semconv.UserAgentOriginal(validUTF8(ua)))
	}
	version := "1.1"
	switch {
	case r.ProtoMajor == 1 && r.ProtoMinor == 0:
		version = "1.0"
	case r.ProtoMajor >= 2:
		version = strconv.Itoa(r.ProtoMajor)
	}
	attrs = append(attrs, semconv.NetworkProtocolVersion(version))
	return attrs
}

// errorType is OpenTelemetry's error.type of a server span: the status
// code, as a string, of an answer that is the server's error (a 5xx; a
// 4xx is the client's, and no error of the server span); for a request
// that failed with no status to show, the Go type of what it failed with
// (*net.OpError), or "_OTHER" when that is not known; "" when the request
// did not fail.
func errorType(o dispatch.Observation) string {
	switch {
	case o.Status >= 500:
		return strconv.Itoa(o.Status)
	case o.Status > 0:
		return ""
	case o.Err != nil:
		return fmt.Sprintf("%T", o.Err)
	}
	return "_OTHER"
}

// redactedQueryKeys are the query parameters whose values OpenTelemetry's
// conventions for url.query ask to be replaced by "REDACTED": they are
// the signatures, credentials and session tokens of pre-signed URLs (AWS
// S3's SigV4, Azure's SAS, Google Cloud Storage's), which a span must not
// pass on to whoever reads traces. The first five are the list of the
// conventions this package writes (semconv v1.43.0, url.query); the last
// two are S3's older SigV2 signature and key, which earlier versions of
// the list named and pre-signed URLs still carry.
var redactedQueryKeys = []string{"X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "sig", "X-Goog-Signature",
	"AWSAccessKeyId", "Signature"}

// redactQuery returns the query q, as sent, with the values of
// redactedQueryKeys replaced by REDACTED; q itself, at no allocation,
// when it holds none of them. Keys are compared as sent: exactly, as the
// conventions list them.
func redactQuery(q string) string {
	var b strings.Builder
	done := 0 // the bytes of q written to b
	for i := 0; i < len(q); {
		end := strings.IndexByte(q[i:], '&')
		if end < 0 {
			end = len(q)
		} else {
			end += i
		}
		if key, _, ok := strings.Cut(q[i:end], "="); ok && slices.Contains(redactedQueryKeys, key) {
			value := i + len(key) + 1
			b.WriteString(q[done:value])
			b.WriteString("REDACTED")
			done = end
		}
		i = end + 1
	}
	if b.Len() == 0 {
		return q
	}
	b.WriteString(q[done:])
	return b.String()
}
