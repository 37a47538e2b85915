package boot_test

// End-to-end tests of what a server span says of its request, as
// OpenTelemetry's HTTP server conventions ask, decoded from what the
// exporter sends: the query (its signatures redacted), error.type, the
// client behind a trusted proxy beside the connection's peer, the user
// agent and the protocol's version.

import (
	"crypto/tls"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// exportingAll are the arguments that export every span to rcv.
func exportingAll(rcv *otlpReceiver) []string {
	return []string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces", "--management.tracing.sampling.probability=1"}
}

// TestServerSpanAttributes: behind a trusted proxy (loopback, with
// server.forward-headers-strategy=native), a span names the client that
// X-Forwarded-For gives as client.address and the proxy as
// network.peer.address and .port; the query is url.query with the
// values of the signatures OpenTelemetry lists replaced by REDACTED; a
// 500 has error.type "500", a 404 and a 200 none; the user agent and
// the protocol's version are there.
func TestServerSpanAttributes(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, append(exportingAll(rcv), "--server.forward-headers-strategy=native"), nil)

	query := "q=Open%20Telemetry&sig=s3cret&X-Goog-Signature=g00g&AWSAccessKeyId=AKIA1&Signature=s1gned&X-Amz-Credential=AKIA2&X-Amz-Signature=v4&Sig=kept&sig"
	ua := "User-Agent: probe/1.0 (tests)"
	send(t, nil, "GET", s.URL+"/hello/7?"+query, "", ua, "X-Forwarded-For: 198.51.100.9")
	send(t, nil, "GET", s.URL+"/hello", "", ua)
	send(t, nil, "GET", s.URL+"/fail", "", ua)
	send(t, nil, "GET", s.URL+"/no/such/path", "", ua)
	spans := rcv.waitForSpans(t, s, 4)

	hello := attrs(spans["GET /hello/{n}"].GetAttributes())
	want := map[string]any{
		"url.query":      "q=Open%20Telemetry&sig=REDACTED&X-Goog-Signature=REDACTED&AWSAccessKeyId=REDACTED&Signature=REDACTED&X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&Sig=kept&sig",
		"url.path":       "/hello/7",
		"client.address": "198.51.100.9", "network.peer.address": "127.0.0.1",
		"user_agent.original": "probe/1.0 (tests)", "network.protocol.version": "1.1",
		"http.request.method": "GET", "url.scheme": "http", "http.route": "/hello/{n}", "http.response.status_code": int64(200),
	}
	for k, v := range want {
		if hello[k] != v {
			t.Errorf("GET /hello/7: %s=%v, want %v", k, hello[k], v)
		}
	}
	if port, _ := hello["network.peer.port"].(int64); port <= 0 || strconv.Itoa(int(port)) == s.Addr()[strings.LastIndex(s.Addr(), ":")+1:] {
		t.Errorf("GET /hello/7: network.peer.port=%v, want the proxy's own port", hello["network.peer.port"])
	}
	for _, k := range []string{"error.type"} {
		if _, ok := hello[k]; ok {
			t.Errorf("GET /hello/7 has %s=%v", k, hello[k])
		}
	}
	if plain := attrs(spans["GET /hello"].GetAttributes()); plain["url.query"] != nil || plain["client.address"] != "127.0.0.1" ||
		plain["network.peer.address"] != "127.0.0.1" {
		t.Errorf("GET /hello without a query or a proxy's header: %v; want no url.query, the peer as the client", plain)
	}
	failed := spans["GET /fail"]
	if a := attrs(failed.GetAttributes()); a["error.type"] != "500" || failed.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("GET /fail: error.type=%v, status %v; want 500 and an error", a["error.type"], failed.Status)
	}
	if a := attrs(spans["GET"].GetAttributes()); a["http.response.status_code"] != int64(404) || a["error.type"] != nil {
		t.Errorf("GET /no/such/path: %v; want a 404 without error.type (the client's error, not the server's)", a)
	}
}

// TestServerSpanUntrustedForwardedFor: without a forward-headers
// strategy a proxy's headers are not believed, and the client is the
// connection's peer. (A peer that is not a trusted proxy, with a
// strategy, is server's forwarded tests' TestSocketPeerBehindAProxy: a
// test's client is always on loopback, which is trusted.)
func TestServerSpanUntrustedForwardedFor(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, exportingAll(rcv), nil)
	send(t, nil, "GET", s.URL+"/hello", "", "X-Forwarded-For: 198.51.100.9")
	a := attrs(rcv.waitForSpans(t, s, 1)["GET /hello"].GetAttributes())
	if a["client.address"] != "127.0.0.1" || a["network.peer.address"] != "127.0.0.1" {
		t.Errorf("client.address=%v network.peer.address=%v, want the peer for both", a["client.address"], a["network.peer.address"])
	}
}

// TestServerSpanProtocolVersion: network.protocol.version is 2 over h2
// (by ALPN over TLS, and h2c) and 1.1 over HTTP/1.1; url.scheme is https
// over TLS.
func TestServerSpanProtocolVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "test CA")
	certPEM, keyPEM := ca.Server(t, "server")
	rcv := newOTLPReceiver(t)
	tlsOn := start(t, append(exportingAll(rcv), "--server.http2.enabled=true",
		"--server.ssl.certificate="+testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key="+testpki.WriteFile(t, dir, "server.key", keyPEM)), nil)
	clear := start(t, append(exportingAll(rcv), "--server.http2.enabled=true"), nil)
	for _, c := range []struct {
		client *http.Client
		url    string
	}{{httpsClient(ca, nil), https(tlsOn.URL)}, {onlyHTTP1(ca), https(tlsOn.URL)}, {onlyHTTP2(nil), clear.URL}} {
		if _, _, _, err := exchange(c.client, c.url+"/protocol"); err != nil {
			t.Fatal(err)
		}
	}
	rcv.waitForSpans(t, tlsOn, 2)
	rcv.waitForSpans(t, clear, 3)
	var got []string
	for _, sp := range rcv.received() {
		a := attrs(sp.Attributes)
		got = append(got, a["url.scheme"].(string)+" "+a["network.protocol.version"].(string))
	}
	slices.Sort(got)
	if want := []string{"http 2", "https 1.1", "https 2"}; !slices.Equal(got, want) {
		t.Errorf("scheme and version of the spans: %q, want %q", got, want)
	}
}

// TestTracingSamplerVariables: OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG choose which traces are recorded when the
// settings do not: always_off none, even a caller's sampled one;
// traceidratio 1 every one, even one its caller does not record, and 0
// none; parentbased_* follow a caller's traceparent and sample the
// traces that start here as the other says. The settings win over them.
func TestTracingSamplerVariables(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want []string // the paths whose spans are exported
	}{
		{"always_off", nil, map[string]string{"OTEL_TRACES_SAMPLER": "always_off"}, nil},
		{"always_on", nil, map[string]string{"OTEL_TRACES_SAMPLER": "always_on"}, []string{"/hello/1", "/hello/2", "/hello/3"}},
		{"traceidratio 1", nil, map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1"}, []string{"/hello/1", "/hello/2", "/hello/3"}},
		{"traceidratio without its argument: 1", nil, map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio"}, []string{"/hello/1", "/hello/2", "/hello/3"}},
		{"traceidratio 0", nil, map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0"}, nil},
		{"parentbased_traceidratio 0", nil, map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.0"}, []string{"/hello/1"}},
		{"parentbased_always_on", nil, map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_always_on"}, []string{"/hello/1", "/hello/3"}},
		{"parentbased_always_off", nil, map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_always_off"}, []string{"/hello/1"}},
		{"the probability setting wins over the argument", []string{"--management.tracing.sampling.probability=0"},
			map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1"}, nil},
		{"the sampler setting wins over the variable", []string{"--management.opentelemetry.tracing.sampler=ALWAYS_ON"},
			map[string]string{"OTEL_TRACES_SAMPLER": "always_off"}, []string{"/hello/1", "/hello/2", "/hello/3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rcv := newOTLPReceiver(t)
			s := start(t, append([]string{"--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces"}, tt.args...), tt.env)
			send(t, nil, "GET", s.URL+"/hello/1", "", traceparent) // the caller records it
			send(t, nil, "GET", s.URL+"/hello/2", "", unsampled)   // the caller does not
			send(t, nil, "GET", s.URL+"/hello/3", "")              // it starts here
			if err := s.Stop(); err != nil {                       // what was recorded is sent now
				t.Fatal(err)
			}
			var got []string
			for _, sp := range rcv.received() {
				got = append(got, attrs(sp.Attributes)["url.path"].(string))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("spans of %q exported, want %q", got, tt.want)
			}
		})
	}
}

// TestOTLPProtocolVariable: OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf
// sends over OTLP/HTTP, to the base endpoint's /v1/traces; grpc, or the
// transport setting, without the OTLP/gRPC starter stops start-up,
// naming what asked for gRPC and the starter to add; http/json is
// refused.
func TestOTLPProtocolVariable(t *testing.T) {
	t.Parallel()
	rcv := newOTLPReceiver(t)
	s := start(t, []string{"--management.tracing.sampling.probability=1"},
		map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT": rcv.URL})
	send(t, nil, "GET", s.URL+"/hello", "")
	rcv.waitForSpans(t, s, 1)
	if e := rcv.requests()[0]; e.path != "/v1/traces" {
		t.Errorf("exported to %s, want /v1/traces", e.path)
	}

	starter := "github.com/springport/greeter/framework/starter/otlptracinggrpc: add it to the service's Starters"
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"},
			[]string{"Property: OTEL_EXPORTER_OTLP_PROTOCOL", `Value: "grpc"`, "Origin: environment variable OTEL_EXPORTER_OTLP_PROTOCOL", starter}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"},
			[]string{"Property: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", starter}},
		{[]string{"--management.opentelemetry.tracing.export.otlp.transport=grpc", "--management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:4317"}, nil,
			[]string{"Property: management.opentelemetry.tracing.export.otlp.transport", `Value: "grpc"`, starter}},
		{[]string{"--management.otlp.tracing.transport=grpc", "--management.otlp.tracing.endpoint=http://127.0.0.1:4317"}, nil, // Spring Boot 3.4's name
			[]string{"management.otlp.tracing.transport", starter}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
			[]string{"Property: OTEL_EXPORTER_OTLP_PROTOCOL", "Reason: http/json is not sent here: want http/protobuf"}},
		{[]string{"--management.opentelemetry.tracing.export.otlp.transport=udp"}, nil,
			[]string{"Property: management.opentelemetry.tracing.export.otlp.transport", "Reason: want one of http, grpc"}},
		{[]string{"--management.opentelemetry.tracing.sampler=jaeger_remote"}, nil,
			[]string{"Property: management.opentelemetry.tracing.sampler", "jaeger_remote is a sampler that OpenTelemetry's SDKs may offer, but not this one"}},
	} {
		report, err := boottestFailToStart(t, tt.args, tt.env)
		if err == nil {
			t.Errorf("%v %v: started", tt.args, tt.env)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(report, w) {
				t.Errorf("%v %v: the report lacks %q:\n%s", tt.args, tt.env, w, report)
			}
		}
	}

	// With no endpoint nothing is exported: gRPC asked for is no reason
	// to stop.
	start(t, nil, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"})
}

// TestTracingTLSToTheCollector: spans reach a collector over TLS that
// asks for the client's certificate, with its CA and the client's
// certificate and key from OpenTelemetry's variables, or from the SSL
// bundle that management.opentelemetry.tracing.export.otlp.ssl.bundle
// names; without the client's certificate the collector refuses the
// connection, and the failure is logged.
func TestTracingTLSToTheCollector(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "collector CA")
	serverCert, serverKey := ca.Server(t, "collector")
	pair, err := tlsPair(serverCert, serverKey)
	if err != nil {
		t.Fatal(err)
	}
	rcv := newOTLPReceiverOver(t, mutualTLS(pair, ca))
	caFile := testpki.WriteFile(t, dir, "ca.pem", ca.PEM)
	clientCert, clientKey := ca.Client(t, "service")
	certFile, keyFile := testpki.WriteFile(t, dir, "client.crt", clientCert), testpki.WriteFile(t, dir, "client.key", clientKey)
	endpoint := "--management.opentelemetry.tracing.export.otlp.endpoint=" + rcv.URL + "/v1/traces"

	variables := start(t, []string{endpoint, "--management.tracing.sampling.probability=1"}, map[string]string{
		"OTEL_EXPORTER_OTLP_CERTIFICATE": caFile, "OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE": certFile, "OTEL_EXPORTER_OTLP_CLIENT_KEY": keyFile})
	send(t, nil, "GET", variables.URL+"/hello/1", "")
	rcv.waitForSpans(t, variables, 1)

	bundle := start(t, []string{endpoint, "--management.tracing.sampling.probability=1",
		"--management.opentelemetry.tracing.export.otlp.ssl.bundle=collector",
		"--app.ssl.bundle.pem.collector.truststore.certificate=" + caFile,
		"--app.ssl.bundle.pem.collector.keystore.certificate=" + certFile,
		"--app.ssl.bundle.pem.collector.keystore.private-key=" + keyFile}, nil)
	send(t, nil, "GET", bundle.URL+"/hello/2", "")
	rcv.waitForSpans(t, bundle, 2)

	noClientCert := start(t, []string{endpoint, "--management.tracing.sampling.probability=1"}, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": caFile})
	send(t, nil, "GET", noClientCert.URL+"/hello/3", "")
	if err := noClientCert.FlushSpans(); err == nil || !strings.Contains(err.Error(), "certificate required") {
		t.Errorf("the export without a client certificate: %v, want the collector's refusal", err)
	}
	noClientCert.Stop() // the last export fails too
	var paths []string
	for _, sp := range rcv.received() {
		paths = append(paths, attrs(sp.Attributes)["url.path"].(string))
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"/hello/1", "/hello/2"}) {
		t.Errorf("the collector received the spans of %q, want /hello/1 and /hello/2 (not /hello/3's, sent without a client certificate)", paths)
	}

	// A client certificate without its key stops start-up.
	report, err := boottestFailToStart(t, []string{endpoint}, map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": certFile})
	if err == nil || !strings.Contains(report, "Property: OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE") ||
		!strings.Contains(report, "a client certificate needs its private key") {
		t.Errorf("a client certificate without its key: %v\n%s", err, report)
	}

	// TLS asked for, to an endpoint that is plain http://, stops start-up
	// rather than send the spans unencrypted, the certificates unused.
	plain := "--management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:4318/v1/traces"
	report, err = boottestFailToStart(t, []string{plain}, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": caFile})
	if err == nil || !strings.Contains(report, "Property: OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE") || !strings.Contains(report, "plain http://") {
		t.Errorf("a CA for an http:// endpoint: %v\n%s", err, report)
	}
}

// boottestFailToStart starts tester on a free port with args and env,
// expecting it to fail, and returns its failure report.
func boottestFailToStart(t *testing.T, args []string, env map[string]string) (string, error) {
	t.Helper()
	return boottest.FailToStart(t, tester(), append([]string{"--server.port=0"}, args...), env)
}

// tlsPair is the certificate and key in PEM as a server uses them.
func tlsPair(certPEM, keyPEM []byte) (tls.Certificate, error) {
	return tls.X509KeyPair(certPEM, keyPEM)
}

// mutualTLS is a collector's TLS with the certificate pair, asking each
// client for a certificate that ca signed.
func mutualTLS(pair tls.Certificate, ca *testpki.CA) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{pair}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: ca.Pool()}
}
