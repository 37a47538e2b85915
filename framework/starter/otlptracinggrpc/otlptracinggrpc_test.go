package otlptracinggrpc_test

// End-to-end tests of the OTLP/gRPC starter: a service that names it,
// run through boot on port 0, sends the span of each request to a gRPC
// OTLP trace receiver inside the test (the collector's TraceService, from
// OpenTelemetry's own protobuf package), in plain text and over TLS with
// the client's certificate.

import (
	"context"
	"crypto/tls"
	"encoding/hex"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/starter/otlptracing"
	"github.com/springport/greeter/framework/starter/otlptracinggrpc"
	"github.com/springport/greeter/framework/testing/testpki"
)

// service answers GET /hello, and exports its spans over gRPC; with
// alsoHTTP, it names the OTLP/HTTP starter too.
func service(alsoHTTP bool) boot.Service[struct{}] {
	starters := []boot.Starter{otlptracinggrpc.Starter}
	if alsoHTTP {
		starters = append(starters, otlptracing.Starter)
	}
	return boot.Service[struct{}]{Name: "grpc-tester", Starters: starters,
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(dispatch.Route{Method: "GET", Pattern: "/hello",
				Handler: dispatch.Returns(func(*dispatch.Request) (string, error) { return "hi", nil })})
			return nil
		}}
}

// receiver is a collector's OTLP/gRPC trace service: it keeps the spans
// of every export and the metadata they came with.
type receiver struct {
	collectorpb.UnimplementedTraceServiceServer
	addr       string       // host:port
	compressed atomic.Int32 // exports that came gzip-compressed
	mu         sync.Mutex
	spans      []*tracepb.Span
	metadata   []metadata.MD
}

func (r *receiver) Export(ctx context.Context, req *collectorpb.ExportTraceServiceRequest) (*collectorpb.ExportTraceServiceResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.metadata = append(r.metadata, md)
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	return &collectorpb.ExportTraceServiceResponse{}, nil
}

// compression counts the exports that arrive gzip-compressed, which
// gRPC tells a stats handler (the metadata does not show grpc-encoding).
type compression struct{ r *receiver }

func (c compression) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (c compression) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}
func (c compression) HandleConn(context.Context, stats.ConnStats) {}
func (c compression) HandleRPC(_ context.Context, s stats.RPCStats) {
	if h, ok := s.(*stats.InHeader); ok && h.Compression == "gzip" {
		c.r.compressed.Add(1)
	}
}

// first is the first value of key in md, "" when there is none.
func first(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

func (r *receiver) received() ([]*tracepb.Span, []metadata.MD) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...), append([]metadata.MD(nil), r.metadata...)
}

// newReceiver serves a receiver on a free port of 127.0.0.1 until the
// test ends, over TLS when creds is given.
func newReceiver(t *testing.T, opts ...grpc.ServerOption) *receiver {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{addr: l.Addr().String()}
	srv := grpc.NewServer(append(opts, grpc.StatsHandler(compression{r}))...)
	collectorpb.RegisterTraceServiceServer(srv, r)
	go srv.Serve(l)
	t.Cleanup(srv.Stop)
	return r
}

// waitForSpans has s send its spans until rcv has n.
func (r *receiver) waitForSpans(t *testing.T, s *boottest.Instance, n int) []*tracepb.Span {
	t.Helper()
	boottest.WaitFor(t, strconv.Itoa(n)+" spans at the gRPC receiver", func() bool {
		if err := s.FlushSpans(); err != nil {
			t.Logf("flushing the spans: %v", err)
		}
		spans, _ := r.received()
		return len(spans) >= n
	})
	spans, _ := r.received()
	return spans
}

const traceparent = "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// TestSpansOverGRPC: OTEL_EXPORTER_OTLP_PROTOCOL=grpc sends the spans to
// OTEL_EXPORTER_OTLP_ENDPOINT as it is (no /v1/traces), with the
// headers as gRPC metadata and gzip; the transport setting does the same
// with the endpoint setting, and wins over the variable.
func TestSpansOverGRPC(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := boottest.Start(t, service(false), nil, map[string]string{
		"OTEL_EXPORTER_OTLP_PROTOCOL":    "grpc",
		"OTEL_EXPORTER_OTLP_ENDPOINT":    "http://" + rcv.addr,
		"OTEL_EXPORTER_OTLP_HEADERS":     "Authorization=Bearer%20t0ken,x-tenant=blue",
		"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
	})
	boottest.Send(t, nil, "GET", s.URL+"/hello", "", traceparent)
	spans := rcv.waitForSpans(t, s, 1)
	if spans[0].Name != "GET /hello" || hex.EncodeToString(spans[0].TraceId) != "4bf92f3577b34da6a3ce929d0e0e4736" || spans[0].Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("span %s in trace %x, kind %v; want GET /hello, a server span in the caller's trace", spans[0].Name, spans[0].TraceId, spans[0].Kind)
	}
	_, md := rcv.received()
	if got := md[0]; first(got, "authorization") != "Bearer t0ken" || first(got, "x-tenant") != "blue" {
		t.Errorf("metadata %v; want the headers", got)
	}
	if rcv.compressed.Load() == 0 {
		t.Error("the export was not gzip-compressed")
	}

	// Both starters named, the setting picks gRPC over the variable's
	// http/protobuf.
	other := newReceiver(t)
	both := boottest.Start(t, service(true), []string{"--management.opentelemetry.tracing.export.otlp.transport=grpc",
		"--management.opentelemetry.tracing.export.otlp.endpoint=http://" + other.addr}, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"})
	boottest.Send(t, nil, "GET", both.URL+"/hello", "", traceparent)
	other.waitForSpans(t, both, 1)
}

// TestSpansOverGRPCWithTLS: to an https endpoint the spans go over TLS,
// trusting the CA of OTEL_EXPORTER_OTLP_CERTIFICATE and showing the
// client certificate of _CLIENT_CERTIFICATE and _CLIENT_KEY to a
// collector that requires one.
func TestSpansOverGRPCWithTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "collector CA")
	pair, err := tls.X509KeyPair(ca.Server(t, "collector"))
	if err != nil {
		t.Fatal(err)
	}
	rcv := newReceiver(t, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{pair},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: ca.Pool()})))
	certPEM, keyPEM := ca.Client(t, "service")
	s := boottest.Start(t, service(false), []string{"--management.tracing.sampling.probability=1"}, map[string]string{
		"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL":           "grpc",
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT":           "https://" + rcv.addr,
		"OTEL_EXPORTER_OTLP_CERTIFICATE":               testpki.WriteFile(t, dir, "ca.pem", ca.PEM),
		"OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE": testpki.WriteFile(t, dir, "client.crt", certPEM),
		"OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY":         testpki.WriteFile(t, dir, "client.key", keyPEM),
	})
	boottest.Send(t, nil, "GET", s.URL+"/hello", "")
	rcv.waitForSpans(t, s, 1)
}
