package metrics

import (
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// TestNegotiation checks the Content-Type of a scrape per Accept against
// what promhttp (client_golang 1.25) answered.
func TestNegotiation(t *testing.T) {
	const (
		text    = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"
		om100   = "application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=underscores"
		om001   = "application/openmetrics-text; version=0.0.1; charset=utf-8; escaping=underscores"
		prom3x  = "application/openmetrics-text;version=1.0.0;escaping=underscores;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=underscores;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1"
		prom2x  = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
		protoOr = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3"
	)
	for accept, want := range map[string]string{
		"":                             text,
		"*/*":                          text,
		"text/plain":                   text,
		"text/*":                       text,
		"text/plain;version=1.0.0":     text, // no format matches: the text format
		"application/openmetrics-text": om001,
		"application/openmetrics-text;version=1.0.0":  om100,
		"application/openmetrics-text; version=1.0.0": om100,
		prom3x:  om100,
		prom2x:  om100,
		protoOr: text,
		"text/plain;version=0.0.4;q=0.9,application/openmetrics-text;version=1.0.0;q=0.1": text,
		"text/plain;escaping=allow-utf-8":                                                 strings.Replace(text, "underscores", "allow-utf-8", 1),
		"*/*;escaping=dots":                                                               strings.Replace(text, "underscores", "dots", 1),
		"text/plain;escaping=nonsense":                                                    text,
	} {
		if got := expose(escapes, "Accept: "+accept).Header().Get("Content-Type"); got != want {
			t.Errorf("Accept %q: Content-Type %q, want %q", accept, got, want)
		}
	}
}

func TestGzip(t *testing.T) {
	plain := expose(escapes).Body.String()
	for encoding, compressed := range map[string]bool{
		"gzip": true, "deflate, gzip, br, zstd": true, "identity;q=0.5, gzip": true,
		"": false, "br": false, "gzip;q=0": false, "*": false,
		"gzip, identity": false, // promhttp prefers identity on a tie
	} {
		w := expose(escapes, "Accept-Encoding: "+encoding)
		if got := w.Header().Get("Content-Encoding") == "gzip"; got != compressed {
			t.Errorf("Accept-Encoding %q: compressed %v, want %v", encoding, got, compressed)
			continue
		}
		if vary := w.Header().Values("Vary"); strings.Join(vary, ",") != "Accept,Accept-Encoding" {
			t.Errorf("Vary %q", vary)
		}
		body := w.Body.String()
		if compressed {
			r, err := gzip.NewReader(w.Body)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			body = string(b)
		}
		if body != plain {
			t.Errorf("Accept-Encoding %q: %q, want %q", encoding, body, plain)
		}
	}
}
