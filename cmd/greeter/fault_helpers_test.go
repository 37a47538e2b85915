package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

// inFlight is a JSON POST whose body is still arriving: the server has
// taken its headers and its handler is reading the body.
type inFlight struct {
	conn net.Conn
	br   *bufio.Reader
	rest string // the part of the body not sent yet
}

// beginInFlight opens a connection to addr and sends the headers of a
// JSON POST of body to path, with Expect: 100-continue, and then the
// first sent bytes of body. The server's 100 Continue is how the test
// knows, without waiting for a time to pass, that the server accepted the
// connection and that a handler is reading the request: it is in flight.
func beginInFlight(addr, path, body string, sent int, headers ...string) (*inFlight, error) {
	conn, err := net.DialTimeout("tcp", addr, waitTimeout)
	if err != nil {
		return nil, err
	}
	f := &inFlight{conn: conn, br: bufio.NewReader(conn), rest: body[sent:]}
	conn.SetDeadline(time.Now().Add(waitTimeout))
	headers = append(headers, "Content-Type: application/json", "Expect: 100-continue", fmt.Sprintf("Content-Length: %d", len(body)))
	if _, err := conn.Write(keepAliveRequest("POST", path, nil, headers...)); err != nil {
		conn.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(f.br, nil)
	if err == nil && resp.StatusCode != http.StatusContinue {
		err = fmt.Errorf("the server answered %d to the headers, want 100 Continue", resp.StatusCode)
	}
	if err == nil {
		_, err = io.WriteString(conn, body[:sent])
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return f, nil
}

// finish sends the rest of the body and reads the answer.
func (f *inFlight) finish() (boottest.Response, error) {
	f.conn.SetDeadline(time.Now().Add(waitTimeout))
	if _, err := io.WriteString(f.conn, f.rest); err != nil {
		return boottest.Response{}, err
	}
	return boottest.ReadResponse(f.br)
}

// keepAliveClient sends requests one after another on one keep-alive
// connection, dialling again when the server closes it. It does far less
// work per request than http.Transport, which counts under the race
// detector, where client and server share the process.
type keepAliveClient struct {
	addr  string
	conn  net.Conn
	br    *bufio.Reader
	dials int // connections opened
}

// do sends req, a whole request for method, and reads its response.
func (c *keepAliveClient) do(method string, req []byte) (boottest.Response, error) {
	if c.conn == nil {
		conn, err := net.DialTimeout("tcp", c.addr, 5*time.Second)
		if err != nil {
			return boottest.Response{}, err
		}
		c.conn, c.br = conn, bufio.NewReader(conn)
		c.dials++
	}
	c.conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.conn.Write(req); err != nil {
		c.close()
		return boottest.Response{}, err
	}
	resp, err := http.ReadResponse(c.br, &http.Request{Method: method})
	if err != nil {
		c.close()
		return boottest.Response{}, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		c.close()
		return boottest.Response{Status: resp.StatusCode, Header: resp.Header}, fmt.Errorf("reading the body of a %d: %w", resp.StatusCode, err)
	}
	if resp.Close {
		c.close()
	}
	return boottest.Response{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}, nil
}

func (c *keepAliveClient) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// rawRequest builds a whole request: the request line, Host, Connection:
// close so that the server ends the exchange, the given header lines, and
// Content-Length when body is not empty, then body.
func rawRequest(method, target string, body []byte, headers ...string) []byte {
	return keepAliveRequest(method, target, body, append([]string{"Connection: close"}, headers...)...)
}

// keepAliveRequest is rawRequest without Connection: close.
func keepAliveRequest(method, target string, body []byte, headers ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: localhost\r\n", method, target)
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if len(body) > 0 {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// chunkSize is the size of the chunks chunkedBody sends, and of filler's
// reads at most.
const chunkSize = 32 << 10

var (
	someAs = bytes.Repeat([]byte("a"), chunkSize)
	// fullChunk is one chunk of chunkSize 'a' bytes in the chunked coding.
	fullChunk = []byte(fmt.Sprintf("%x\r\n%s\r\n", chunkSize, someAs))
)

// filler is an endless source of 'a' bytes that allocates nothing.
type filler struct{}

func (filler) Read(p []byte) (int, error) { return copy(p, someAs), nil }

// chunkedBody is a body of n 'a' bytes (n a multiple of chunkSize) in the
// chunked transfer coding, last chunk included; its chunks share one
// buffer.
func chunkedBody(n int) io.Reader {
	parts := make([]io.Reader, 0, n/chunkSize+1)
	for range n / chunkSize {
		parts = append(parts, bytes.NewReader(fullChunk))
	}
	return io.MultiReader(append(parts, strings.NewReader("0\r\n\r\n"))...)
}

// isConnRefused reports whether err is a refused connection: the listener
// is gone, so the request was never accepted.
func isConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// builtWithRace reports whether the test binary runs under the race
// detector, which makes every request several times slower.
func builtWithRace() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// countOutcomes does the jobs numbered 0 to n-1, each once, on workers
// goroutines at once, and counts their outcomes. worker is called in each
// goroutine for each of two rounds, and returns its job function and what
// to do when the goroutine has no more jobs in the round.
//
// A job that hangs must not hang the test, yet a machine loaded by other
// work must not fail it: the first round, a twentieth of the jobs (at
// least one per worker), is timed, and the rest get slowdown times as
// long per job as it took, and no less than minRest. A loaded machine
// slows both rounds alike; only a server that slows down under the load,
// or hangs, leaves jobs undone. hangGuard bounds the first round.
func countOutcomes[K comparable](n, workers int, worker func() (job func(i int) K, done func())) map[K]int {
	const slowdown, minRest, hangGuard = 10, 10 * time.Second, 2 * time.Minute
	counts := map[K]int{}
	var next atomic.Int64
	first := min(n, max(workers, n/20))
	began := time.Now()
	runJobs(first, workers, time.Now().Add(hangGuard), &next, counts, worker)
	perJob := time.Since(began) / time.Duration(first)
	runJobs(n, workers, time.Now().Add(max(minRest, slowdown*perJob*time.Duration(n-first))), &next, counts, worker)
	return counts
}

// runJobs does the jobs that next numbers, up to n, on workers goroutines
// until all are done or deadline passes, and adds their outcomes to
// counts.
func runJobs[K comparable](n, workers int, deadline time.Time, next *atomic.Int64, counts map[K]int, worker func() (job func(i int) K, done func())) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			job, done := worker()
			defer done()
			mine := map[K]int{}
			for time.Now().Before(deadline) {
				i := int(next.Add(1) - 1)
				if i >= n {
					next.Add(-1) // not taken: the next round's
					break
				}
				mine[job(i)]++
			}
			mu.Lock()
			defer mu.Unlock()
			for k, c := range mine {
				counts[k] += c
			}
		})
	}
	wg.Wait()
}
