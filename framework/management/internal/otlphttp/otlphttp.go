// Package otlphttp is the OTLP/HTTP transport that the span exporter
// (framework/management/tracing/otlp) and the metric exporter
// (framework/management/metrics/otlp) share: it posts an export request,
// already encoded as protobuf, to a collector, retries it while the
// collector refuses it for now, as the OTLP specification asks, and
// reports a partial success.
//
// It stands in for OpenTelemetry's own HTTP clients (otlptracehttp,
// otlpmetrichttp), and behaves as they do, for one reason: they link
// gRPC, grpc-gateway and genproto (their configuration packages and the
// collector service packages import them), whose package-level state the
// garbage collector scans at every cycle of every service;
// docs/performance.md#tracing has the figures. What it does not do that
// they can: JSON encoding, and reading OTEL_EXPORTER_OTLP_* from the
// process's environment, neither of which the services ask for (their
// settings say where to send, and over which TLS).
package otlphttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Options say where a Client posts and how.
type Options struct {
	// Endpoint is the URL posted to (http or https, checked by its
	// user). A user and password in it are sent as HTTP basic
	// authentication.
	Endpoint string
	// Headers are sent with every export; their values are secrets.
	Headers map[string]string
	// Gzip compresses every export.
	Gzip bool
	// Timeout bounds each export, its retries included.
	Timeout time.Duration
	// ConnectTimeout bounds opening a connection; 0 keeps net/http's
	// default (30 s), which Timeout bounds anyway.
	ConnectTimeout time.Duration
	// TLS is that of the connections to an https collector: its CAs in
	// place of the system's, and the client's certificate for a
	// collector that asks for one. nil keeps Go's defaults.
	TLS *tls.Config
	// UserAgent names the exporter; a User-Agent header in Headers wins.
	UserAgent string
	// Items names what an export carries ("spans", "data points"), in
	// the error of a partial success.
	Items string
}

// Client posts export requests to one collector.
type Client struct {
	url     string      // the endpoint without its user and password
	header  http.Header // sent with every export
	gzip    bool
	items   string
	retry   retryConfig
	client  *http.Client
	idle    func() // closes the client's idle connections
	stopped context.Context
	stop    context.CancelFunc
}

// New returns the client that o describes.
func New(o Options) *Client {
	endpoint, headers := credentialsAsHeader(o.Endpoint, o.Headers)
	header := http.Header{}
	// The order the SDK's clients set them in: a User-Agent header that
	// is set wins over the exporter's, the Content-Type never does.
	header.Set("User-Agent", o.UserAgent)
	for name, value := range headers {
		header.Set(name, value)
	}
	header.Set("Content-Type", "application/x-protobuf")
	if o.Gzip {
		header.Set("Content-Encoding", "gzip")
	}
	// A transport of its own, so that Stop closes its connections and no
	// other's. Its proxy is the process's (HTTPS_PROXY, NO_PROXY), as for
	// every client of net/http.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if o.TLS != nil {
		transport.TLSClientConfig = o.TLS.Clone()
	}
	if o.ConnectTimeout > 0 {
		transport.DialContext = (&net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	}
	stopped, stop := context.WithCancel(context.Background())
	return &Client{
		url: endpoint, header: header, gzip: o.Gzip, items: o.Items, retry: retryPolicy(o.Timeout),
		client: &http.Client{Transport: transport, Timeout: o.Timeout},
		idle:   transport.CloseIdleConnections, stopped: stopped, stop: stop,
	}
}

// URL is where the client posts, without the endpoint's user and
// password.
func (c *Client) URL() string { return c.url }

// Stop interrupts the exports under way and closes the idle connections.
// It may be called more than once.
func (c *Client) Stop() {
	c.stop()
	c.idle()
}

// Stopped reports whether Stop was called.
func (c *Client) Stopped() bool { return c.stopped.Err() != nil }

// Post sends one export request, body (see ExportRequest), retrying it
// while the collector refuses it for now and ctx, and the retry policy's
// total, allow.
func (c *Client) Post(ctx context.Context, body []byte) error {
	if c.Stopped() {
		return errors.New("the exporter is stopped")
	}
	if c.gzip {
		var err error
		if body, err = gzipped(body); err != nil {
			return err
		}
	}
	// Stop interrupts the export.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(c.stopped, cancel)()
	return c.retry.do(ctx, func(ctx context.Context) error { return c.post(ctx, body) })
}

// ExportRequest encodes an export request of the collector's services
// holding msgs:
//
//	message ExportTraceServiceRequest {
//	  repeated opentelemetry.proto.trace.v1.ResourceSpans resource_spans = 1;
//	}
//	message ExportMetricsServiceRequest {
//	  repeated opentelemetry.proto.metrics.v1.ResourceMetrics resource_metrics = 1;
//	}
//
// (opentelemetry/proto/collector/{trace,metrics}/v1/*_service.proto).
// Their Go types are in go.opentelemetry.io/proto/otlp/collector/..., which
// import gRPC for the services' stubs: linking them is what this package
// avoids. Their one field is written here, as protobuf's encoding writes
// a repeated message field: for each element the tag of field 1 with
// wire type 2, length-delimited (the byte 0x0a), the element's length as
// a varint, then the element, which google.golang.org/protobuf encodes.
// Tests decode the result with the collector packages' types. items
// names the elements in an error ("spans").
func ExportRequest[M proto.Message](items string, msgs []M) ([]byte, error) {
	sizes := make([]int, len(msgs))
	total := 0
	for i, m := range msgs {
		sizes[i] = proto.Size(m)
		total += protowire.SizeTag(1) + protowire.SizeBytes(sizes[i])
	}
	b := make([]byte, 0, total)
	// The sizes just computed are cached in the messages: Marshal reuses
	// them rather than walking each message a second time.
	marshal := proto.MarshalOptions{UseCachedSize: true}
	for i, m := range msgs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(sizes[i]))
		start := len(b)
		var err error
		if b, err = marshal.MarshalAppend(b, m); err != nil {
			return nil, fmt.Errorf("the %s could not be encoded: %w", items, err)
		}
		if len(b)-start != sizes[i] {
			return nil, fmt.Errorf("the %s could not be encoded: %d bytes written, %d announced", items, len(b)-start, sizes[i])
		}
	}
	return b, nil
}

var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// gzipped compresses body. Writers are reused: each holds some hundreds
// of kilobytes of tables.
func gzipped(body []byte) ([]byte, error) {
	var b bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer func() {
		zw.Reset(io.Discard) // lets go of the body
		gzipWriters.Put(zw)
	}()
	zw.Reset(&b)
	if _, err := zw.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Bounds on what is read of the collector's answer: the OTLP
// specification's answer to an export is small (an empty message, or a
// partial success), and an error's body is quoted only in part.
const (
	maxAnswer  = 64 << 10
	maxExcerpt = 512
)

// post sends body once and says what came of it: nil when the collector
// took the export, a retryable error when it refused it for now, or
// another error.
func (c *Client) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = c.header.Clone()
	resp, err := c.client.Do(req)
	if err != nil {
		// A connection reset or a timeout may not happen again; the
		// client's error names the URL, which holds no password.
		var urlErr *url.Error
		if errors.As(err, &urlErr) && urlErr.Temporary() {
			return retryable{err: err}
		}
		return err
	}
	defer resp.Body.Close()
	// Reading the answer to its end, when it is not too long, lets the
	// connection serve the next export.
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("the collector's answer (%s) could not be read: %w", resp.Status, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The body, not the headers: they may echo the request's.
		err := fmt.Errorf("%s answered %s: %s", c.url, resp.Status, excerpt(answer))
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return retryable{err: err, after: retryAfter(resp.Header.Get("Retry-After"))}
		}
		return err
	}
	if len(answer) > maxAnswer || resp.Header.Get("Content-Type") != "application/x-protobuf" {
		return nil // taken; an answer this long, or in JSON, is not looked into
	}
	return partialSuccess(answer, c.items)
}

// partialSuccess reports, as the SDK's clients do, the items of an
// export that the collector took but then rejected, from its answer:
//
//	message ExportTraceServiceResponse {
//	  ExportTracePartialSuccess partial_success = 1;
//	}
//	message ExportTracePartialSuccess {
//	  int64 rejected_spans = 1;
//	  string error_message = 2;
//	}
//
// (trace_service.proto; metrics_service.proto's answer has the same
// shape, with rejected_data_points; decoded with protobuf's wire format
// reader, for the reason ExportRequest gives). An answer that does not
// decode is ignored: the export was taken, there is nothing to send
// again.
func partialSuccess(answer []byte, items string) error {
	var rejected int64
	var message string
	found := false
	walk(answer, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) {
		if num != 1 || typ != protowire.BytesType {
			return
		}
		found = true
		walk(v, func(num protowire.Number, typ protowire.Type, v []byte, n uint64) {
			switch {
			case num == 1 && typ == protowire.VarintType:
				rejected = int64(n)
			case num == 2 && typ == protowire.BytesType:
				message = string(v)
			}
		})
	})
	if !found || (rejected == 0 && message == "") {
		return nil
	}
	if message == "" {
		message = "empty message"
	}
	return fmt.Errorf("OTLP partial success: %s (%d %s rejected)", strings.ToValidUTF8(message, "\uFFFD"), rejected, items)
}

// walk calls field for each field of the encoded message b, with its
// bytes when it is length-delimited or its value when it is a varint,
// and stops at the first malformed one.
func walk(b []byte, field func(num protowire.Number, typ protowire.Type, value []byte, varint uint64)) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return
		}
		b = b[n:]
		field(num, typ, v, x)
	}
}

// excerpt is the start of an error's body, as it is shown in the log.
func excerpt(body []byte) string {
	s := strings.TrimSpace(string(body[:min(len(body), maxExcerpt)]))
	if s == "" {
		return "(empty)"
	}
	if len(body) > maxExcerpt {
		s += "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// credentialsAsHeader returns endpoint without its user and password and
// headers with them as HTTP basic authentication, unless an
// Authorization header is given already: the client posts to the URL's
// host and path only, and a user and password in the URL would be lost.
func credentialsAsHeader(endpoint string, headers map[string]string) (string, map[string]string) {
	headers = maps.Clone(headers)
	if headers == nil {
		headers = map[string]string{}
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.User == nil {
		return endpoint, headers
	}
	for name := range headers {
		if strings.EqualFold(name, "Authorization") {
			u.User = nil
			return u.String(), headers
		}
	}
	password, _ := u.User.Password()
	headers["Authorization"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+password))
	u.User = nil
	return u.String(), headers
}
