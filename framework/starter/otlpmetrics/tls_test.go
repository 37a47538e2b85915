package otlpmetrics_test

// The TLS to the collector and the protocol, from OpenTelemetry's
// variables, as the spans read them (framework/management/otlpenv).

import (
	"crypto/tls"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/testpki"
)

// TestMetricsTLSToTheCollector: the meters reach a collector over TLS
// that asks for the client's certificate, with its CA and the client's
// certificate and key from OTEL_EXPORTER_OTLP_[METRICS_]CERTIFICATE,
// _CLIENT_CERTIFICATE and _CLIENT_KEY; with the CA alone the collector
// refuses the connection and receives nothing; without the CA the
// system's roots do not trust the collector's certificate either (no
// fallback to them, nor to plain text). A client certificate without its
// key stops start-up.
func TestMetricsTLSToTheCollector(t *testing.T) {
	dir := t.TempDir()
	ca := testpki.NewCA(t, "collector CA")
	serverCert, serverKey := ca.Server(t, "127.0.0.1")
	pair, err := tls.X509KeyPair(serverCert, serverKey)
	if err != nil {
		t.Fatal(err)
	}
	rcv := newReceiverOver(t, &tls.Config{Certificates: []tls.Certificate{pair}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: ca.Pool()})
	caFile := testpki.WriteFile(t, dir, "ca.pem", ca.PEM)
	clientCert, clientKey := ca.Client(t, "service")
	certFile, keyFile := testpki.WriteFile(t, dir, "client.crt", clientCert), testpki.WriteFile(t, dir, "client.key", clientKey)
	args := []string{"--management.otlp.metrics.export.url=" + rcv.URL + "/v1/metrics", "--management.otlp.metrics.export.step=1h"}

	s := boottest.Start(t, shop(newPlaced()), args, map[string]string{
		"OTEL_EXPORTER_OTLP_CERTIFICATE": caFile, "OTEL_EXPORTER_OTLP_METRICS_CLIENT_CERTIFICATE": certFile, "OTEL_EXPORTER_OTLP_METRICS_CLIENT_KEY": keyFile})
	boottest.Send(t, http.DefaultClient, "POST", s.URL+"/orders", "")
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	got := rcv.received()
	if len(got) != 1 {
		t.Fatalf("%d exports over mutual TLS at shutdown, want 1", len(got))
	}
	if m := metric(got[0].request, "orders.placed"); m == nil || m.GetSum().DataPoints[0].GetAsDouble() != 1 {
		t.Errorf("orders.placed: %v, want 1", m)
	}

	for name, env := range map[string]map[string]string{
		"the CA alone": {"OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE": caFile},
		"no CA at all": {"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": certFile, "OTEL_EXPORTER_OTLP_CLIENT_KEY": keyFile},
	} {
		s := boottest.Start(t, shop(newPlaced()), args, env)
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		if n := len(rcv.received()); n != 1 {
			t.Errorf("%s: the collector received %d exports in all, want only the first service's", name, n)
		}
		if out := s.Stdout.String(); !strings.Contains(out, "the meters could not be pushed") {
			t.Errorf("%s: the failed export is not logged:\n%s", name, out)
		}
	}

	report, err := boottest.FailToStart(t, shop(newPlaced()), args, map[string]string{"OTEL_EXPORTER_OTLP_METRICS_CLIENT_CERTIFICATE": certFile})
	if err == nil || !strings.Contains(report, "Property: OTEL_EXPORTER_OTLP_METRICS_CLIENT_CERTIFICATE") ||
		!strings.Contains(report, "a client certificate needs its private key") {
		t.Errorf("a client certificate without its key: %v\n%s", err, report)
	}
	report, err = boottest.FailToStart(t, shop(newPlaced()), args, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": keyFile})
	if err == nil || strings.Count(report, "Property: OTEL_EXPORTER_OTLP_CERTIFICATE") != 1 {
		t.Errorf("a CA file that holds no certificate: %v; want it reported once, though the spans read it too:\n%s", err, report)
	}
}

// TestGRPCProtocolRefused: this starter pushes OTLP/HTTP only, so that
// OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=grpc stops start-up, naming the
// variable and what to set instead, and so does the general
// OTEL_EXPORTER_OTLP_PROTOCOL=grpc while the URL comes from the
// variables; with the URL set, or the metrics' own protocol
// http/protobuf, the setting and the metrics' variable win and the
// meters are pushed.
// TestPlainHTTPWithCertificatesRefused: a certificate variable asks for
// TLS to the collector; with a URL that is plain http:// (the default
// one among them) start-up stops naming it, rather than push the meters
// unencrypted with the certificate unused.
func TestPlainHTTPWithCertificatesRefused(t *testing.T) {
	ca := testpki.WriteFile(t, t.TempDir(), "ca.pem", testpki.NewCA(t, "collector CA").PEM)
	for _, args := range [][]string{nil, {"--management.otlp.metrics.export.url=http://127.0.0.1:4318/v1/metrics"}} {
		report, err := boottest.FailToStart(t, shop(newPlaced()), args, map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca})
		if err == nil || !strings.Contains(report, "Property: OTEL_EXPORTER_OTLP_CERTIFICATE") || !strings.Contains(report, "plain http://") {
			t.Errorf("%v: %v; want start-up refused naming OTEL_EXPORTER_OTLP_CERTIFICATE:\n%s", args, err, report)
		}
	}
}

func TestGRPCProtocolRefused(t *testing.T) {
	for _, env := range []map[string]string{
		{"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "grpc"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "grpc"},
	} {
		variable := "OTEL_EXPORTER_OTLP_PROTOCOL"
		if _, ok := env["OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"]; ok {
			variable = "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"
		}
		report, err := boottest.FailToStart(t, shop(newPlaced()), nil, env)
		for _, want := range []string{"Property: " + variable, `Value: "grpc"`, "asks for the meters over gRPC",
			"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=http/protobuf", "management.otlp.metrics.export.url"} {
			if err == nil || !strings.Contains(report, want) {
				t.Errorf("%v: %v; the report lacks %q:\n%s", env, err, want, report)
			}
		}
	}

	rcv := newReceiver(t)
	for _, tt := range []struct {
		args []string
		env  map[string]string
	}{
		{[]string{"--management.otlp.metrics.export.url=" + rcv.URL + "/v1/metrics"}, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}},
		{nil, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/protobuf",
			"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": rcv.URL + "/v1/metrics"}},
	} {
		before := len(rcv.received())
		s := boottest.Start(t, shop(newPlaced()), append(tt.args, "--management.otlp.metrics.export.step=1h"), tt.env)
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		if n := len(rcv.received()) - before; n != 1 {
			t.Errorf("%v %v: %d exports at shutdown, want 1", tt.args, tt.env, n)
		}
	}
}
