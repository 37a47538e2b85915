package boot_test

// server.compression's gzip stream, compressed a chunk at a time (issue
// 37), as clients decode it: compress/gzip's reader, Go's transport
// (which decompresses as a browser does), over HTTP/1.1 and HTTP/2, for
// bodies at the chunk's edges, a handler that flushes, and HEAD.

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
)

// chunkEdge is the length of a chunk compressed at once (32KB).
const chunkEdge = 32 << 10

// streamer is a service with text answers of n bytes (GET /text?n=, its
// length unknown to the server until it ends) and an answer that its
// handler flushes after its first piece and then writes its second only
// once the test says the first has arrived (GET /pushed).
func streamer(firstArrived <-chan struct{}) boot.Service[struct{}] {
	return boot.Service[struct{}]{
		Name: "streamer",
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(
				dispatch.Route{Method: "GET", Pattern: "/text", Produces: []string{"text/plain"}, Handler: dispatch.Plain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					n, _ := strconv.Atoi(r.URL.Query().Get("n"))
					w.Header().Set("Content-Type", "text/plain")
					io.WriteString(w, someText(n))
				}))},
				dispatch.Route{Method: "GET", Pattern: "/pushed", Produces: []string{"text/plain"}, Handler: dispatch.Plain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/plain")
					io.WriteString(w, pushedFirst)
					w.(http.Flusher).Flush()
					select {
					case <-firstArrived:
					case <-r.Context().Done():
						return
					}
					io.WriteString(w, pushedSecond)
				}))},
			)
			return nil
		},
	}
}

// someText is n bytes of text that compresses, each line numbered.
func someText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(strings.Repeat("greetings ", i%7+1))
		b.WriteString(strings.Repeat("x", i%13))
		b.WriteString("\n")
	}
	return b.String()[:n]
}

// The two pieces of GET /pushed: the first over min-response-size, so
// that the answer is compressed.
var pushedFirst, pushedSecond = someText(5000), strings.ToUpper(someText(7000))

// TestCompressedStreamDecodes: each answer, at the chunk's edges and
// across several chunks, decodes to the very body sent uncompressed:
// with compress/gzip over HTTP/1.1, and through Go's transport, which
// asks for gzip itself and decompresses, over HTTP/1.1 and over HTTP/2.
func TestCompressedStreamDecodes(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, streamer(nil), []string{"--server.compression.enabled=true", "--server.http2.enabled=true"}, nil)
	transports := map[string]*http.Client{"HTTP/1.1": onlyHTTP1(nil), "HTTP/2.0": onlyHTTP2(nil)}
	for _, n := range []int{2 << 10, chunkEdge - 1, chunkEdge, chunkEdge + 1, 2 * chunkEdge, 5*chunkEdge + 7} {
		path := "/text?n=" + strconv.Itoa(n)
		want := someText(n)
		r := send(t, nil, "GET", s.URL+path, "", "Accept-Encoding: gzip")
		if r.header.Get("Content-Encoding") != "gzip" || gunzip(t, r.body) != want {
			t.Errorf("GET %s with compress/gzip: Content-Encoding %q, or the body differs", path, r.header.Get("Content-Encoding"))
		}
		for proto, client := range transports {
			resp, err := client.Get(s.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.Proto != proto || !resp.Uncompressed || string(got) != want {
				t.Errorf("GET %s through Go's transport: %s, decompressed by it %v, %d bytes (%v); want %s, decompressed, the %d bytes",
					path, resp.Proto, resp.Uncompressed, len(got), err, proto, n)
			}
		}
	}
}

// TestCompressedStreamFlushes: a handler's Flush sends what it wrote so
// far, compressed: the client decompresses the first piece while the
// handler waits, before it writes the second; over HTTP/1.1 and HTTP/2.
func TestCompressedStreamFlushes(t *testing.T) {
	t.Parallel()
	for proto, client := range map[string]*http.Client{"HTTP/1.1": onlyHTTP1(nil), "HTTP/2.0": onlyHTTP2(nil)} {
		t.Run(proto, func(t *testing.T) {
			arrived := make(chan struct{})
			s := boottest.Start(t, streamer(arrived), []string{"--server.compression.enabled=true", "--server.http2.enabled=true"}, nil)
			resp, err := client.Get(s.URL + "/pushed")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if !resp.Uncompressed || resp.Proto != proto {
				t.Fatalf("%s, decompressed by the transport %v; want %s, gzipped", resp.Proto, resp.Uncompressed, proto)
			}
			first := make([]byte, len(pushedFirst))
			if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != pushedFirst {
				t.Fatalf("the first piece, before the handler wrote the second: %v", err)
			}
			close(arrived)
			rest, err := io.ReadAll(resp.Body)
			if err != nil || string(rest) != pushedSecond {
				t.Errorf("the second piece: %d bytes, %v; want the %d written", len(rest), err, len(pushedSecond))
			}
		})
	}
}

// TestCompressionHead: HEAD of a compressible answer has no body and is
// not compressed: its headers are those of the uncompressed GET, as
// before issue 37.
func TestCompressionHead(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, zipper(), []string{"--server.compression.enabled=true"}, nil)
	get := send(t, nil, "GET", s.URL+"/big", "", "Accept-Encoding: identity")
	head := send(t, nil, "HEAD", s.URL+"/big", "", "Accept-Encoding: gzip")
	if head.status != http.StatusOK || head.body != "" || head.header.Get("Content-Encoding") != "" ||
		head.header.Get("Content-Length") != get.header.Get("Content-Length") {
		t.Errorf("HEAD: %d, %d bytes, Content-Encoding %q, Content-Length %q; want 200, no body, none, %q",
			head.status, len(head.body), head.header.Get("Content-Encoding"), head.header.Get("Content-Length"), get.header.Get("Content-Length"))
	}
}
