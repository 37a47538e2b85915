package tracing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// otlpHTTP is the transport of spanExporter: it posts each batch, encoded
// as an OTLP export request, as an OTLP/HTTP protobuf request, as the OTLP
// specification describes.
//
// The SDK's own OTLP/HTTP exporter, otlptracehttp, is not used because of
// what it links besides the protobuf module (see spanExporter): its
// request type lives in a package that also holds the gRPC service stubs,
// which bring gRPC, grpc-gateway, x/net/trace and html/template into the
// binary. Measured with tracing off, that made the service's binary 18 MB
// larger, its idle VmRSS 5 MiB larger (past the 15 MiB target) and its
// start-up 1.9 million instructions longer (see docs/performance.md,
// Tracing).
type otlpHTTP struct {
	url    string
	shown  string // url with any password masked, for errors, which are logged
	client *http.Client
}

func newOTLPHTTP(endpoint string, timeout time.Duration) *otlpHTTP {
	shown := endpoint
	if u, err := url.Parse(endpoint); err == nil {
		shown = u.Redacted()
	}
	return &otlpHTTP{url: endpoint, shown: shown, client: &http.Client{Timeout: timeout}}
}

// post sends one export request, body being an encoded
// ExportTraceServiceRequest. The collector's answer, an
// ExportTraceServiceResponse that may report spans it rejected, is not
// decoded, as otlptrace's exporter did not either: the status says
// whether the export was taken.
func (c *otlpHTTP) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := c.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = c.shown // net/http's error quotes the URL, password and all
		}
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the collector at %s answered %s", c.shown, resp.Status)
	}
	return nil
}
