// Package otlpenv reads the OpenTelemetry variables that every OTLP
// exporter reads alike, whichever signal it sends (traces, metrics,
// logs): the protocol (OTEL_EXPORTER_OTLP_PROTOCOL) and the TLS to the
// collector (OTEL_EXPORTER_OTLP_CERTIFICATE, _CLIENT_CERTIFICATE and
// _CLIENT_KEY), each with a signal's own variable
// (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) that wins over the general one,
// as the OpenTelemetry specification's "OTLP exporter configuration"
// says. They are read through a config.Binder, from the environment the
// service was given, so that a bad value stops start-up naming the
// variable, as a bad setting does.
package otlpenv

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/ssl"
)

// The signals, as their variables name them
// (OTEL_EXPORTER_OTLP_<signal>_PROTOCOL).
const (
	Traces  = "TRACES"
	Metrics = "METRICS"
	Logs    = "LOGS"
)

// Variable is the name of the variable of what (PROTOCOL, CERTIFICATE)
// for signal: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL; with signal "", the
// general one, OTEL_EXPORTER_OTLP_PROTOCOL.
func Variable(signal, what string) string {
	if signal == "" {
		return "OTEL_EXPORTER_OTLP_" + what
	}
	return "OTEL_EXPORTER_OTLP_" + signal + "_" + what
}

// The protocols of OTEL_EXPORTER_OTLP_PROTOCOL that the service sends
// with: OTLP over gRPC, or over HTTP as binary protobuf.
const (
	GRPC         = "grpc"
	HTTPProtobuf = "http/protobuf"
)

// Protocol reads the protocol that signal is sent with:
// OTEL_EXPORTER_OTLP_<signal>_PROTOCOL, or else
// OTEL_EXPORTER_OTLP_PROTOCOL, and the name of the variable that gave
// it; "" and "" when neither is set. grpc and http/protobuf are taken;
// http/json, which the specification allows but no exporter of the
// service sends, is refused, as is anything else.
func Protocol(b *config.Binder, signal string) (protocol, variable string) {
	for _, v := range []string{Variable("", "PROTOCOL"), Variable(signal, "PROTOCOL")} {
		if p := config.BindVariable(b, v, "", parseProtocol); p != "" {
			protocol, variable = p, v
		}
	}
	return protocol, variable
}

func parseProtocol(s string) (string, error) {
	switch p := strings.ToLower(strings.TrimSpace(s)); p {
	case GRPC, HTTPProtobuf:
		return p, nil
	case "http/json":
		return "", errors.New("http/json is not sent here: want http/protobuf (OTLP/HTTP in binary protobuf, which every collector takes) or grpc")
	}
	return "", errors.New("want http/protobuf or grpc")
}

// ClientTLS reads the TLS to the collector of signal from the variables
// of the OpenTelemetry specification, each the path of a PEM file:
//
//   - OTEL_EXPORTER_OTLP_<signal>_CERTIFICATE, or else
//     OTEL_EXPORTER_OTLP_CERTIFICATE: the CA certificates that the
//     collector's certificate must be signed by, in place of the
//     system's;
//   - OTEL_EXPORTER_OTLP_<signal>_CLIENT_CERTIFICATE and _CLIENT_KEY, or
//     else the general ones: the client's certificate chain and its
//     private key, for a collector that asks for one (mutual TLS).
//
// It returns nil when none is set. The files are read once, now: one
// that cannot be read, or does not hold what it should, stops start-up
// naming its variable, as does a client certificate without its key or a
// key without its certificate.
func ClientTLS(b *config.Binder, signal string) *tls.Config {
	caFile, caVar := pick(b, signal, "CERTIFICATE", readCertificates)
	certFile, certVar := pick(b, signal, "CLIENT_CERTIFICATE", readable)
	keyFile, keyVar := pick(b, signal, "CLIENT_KEY", readable)
	if caVar == "" && certVar == "" && keyVar == "" {
		return nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != nil {
		cfg.RootCAs = ssl.Pool(caFile.certs) // never empty: readCertificates refuses a file without one
	}
	switch {
	case certVar != "" && keyVar == "":
		b.RefuseVariable(certVar, "a client certificate needs its private key: set "+Variable(signal, "CLIENT_KEY")+" or "+Variable("", "CLIENT_KEY")+" too")
	case keyVar != "" && certVar == "":
		b.RefuseVariable(keyVar, "a client key needs its certificate: set "+Variable(signal, "CLIENT_CERTIFICATE")+" or "+Variable("", "CLIENT_CERTIFICATE")+" too")
	case certFile != nil && keyFile != nil:
		pair, err := tls.LoadX509KeyPair(certFile.path, keyFile.path)
		if err != nil {
			b.RefuseVariable(certVar, "the client certificate and the key of "+keyVar+" do not make a pair: "+err.Error())
			break
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg
}

// file is a file that a variable names.
type file struct {
	path  string
	certs []*x509.Certificate // the certificates it holds, when it was read as such
}

// pick reads the variable of what for signal, and the general one, and
// returns the file of the first that is set (the signal's wins) with its
// variable's name; nil and "" when neither is set. Both are checked
// when both are set.
func pick(b *config.Binder, signal, what string, read func(string) (*file, error)) (*file, string) {
	var f *file
	name := ""
	for _, v := range []string{Variable("", what), Variable(signal, what)} {
		if got := config.BindVariable(b, v, (*file)(nil), read); got != nil {
			f, name = got, v
		}
	}
	return f, name
}

// readable checks that the file path can be read.
func readable(path string) (*file, error) {
	if _, err := os.ReadFile(path); err != nil {
		return nil, errors.New("the file cannot be read: " + pathError(err))
	}
	return &file{path: path}, nil
}

// readCertificates reads the PEM certificates of the file path.
func readCertificates(path string) (*file, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errors.New("the file cannot be read: " + pathError(err))
	}
	certs, err := ssl.PEMCertificates(data)
	if err != nil {
		return nil, errors.New("a certificate of the file does not parse: " + err.Error())
	}
	f := &file{path: path, certs: certs}
	if len(f.certs) == 0 {
		return nil, errors.New("the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
	}
	return f, nil
}

// pathError is why a file could not be read, without the path, which
// the report shows as the variable's value.
func pathError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// RefusePlainHTTP stops start-up when the certificate variables of
// signal ask for TLS to the collector but its endpoint is plain http://:
// the exports would go unencrypted, the certificates unused, and a
// setting that asks for protection is served or refused, never ignored.
// The reason does not quote the endpoint, which may hold a password.
func RefusePlainHTTP(b *config.Binder, signal, endpoint string) {
	if !IsPlainHTTP(endpoint) {
		return
	}
	for _, what := range []string{"CERTIFICATE", "CLIENT_CERTIFICATE", "CLIENT_KEY"} {
		for _, v := range []string{Variable(signal, what), Variable("", what)} {
			if config.BindVariable(b, v, "", config.String) != "" {
				b.RefuseVariable(v, "asks for TLS to the collector, whose endpoint is plain http://: the exports would not be encrypted; write the endpoint with https://, or unset "+v)
				return
			}
		}
	}
}

// IsPlainHTTP reports whether endpoint is an http:// URL, one without
// TLS.
func IsPlainHTTP(endpoint string) bool {
	scheme, _, ok := strings.Cut(endpoint, "://")
	return ok && strings.EqualFold(scheme, "http")
}
