package main

import (
	"bytes"
	"errors"
	"net"
	"runtime"
	"testing"

	"github.com/springport/greeter/bench/reference"
)

// TestWireAllocsPerRequest holds the service's allocations per request
// over a real keep-alive connection, the whole program on port 0 as run
// starts it, to their measured counts, beside bare net/http's (the
// reference of bench/cmd/reference) on the same requests. Unlike
// TestAllocsPerRequest it counts what net/http does around the handler:
// reading the request, the response's head, the body's reader. bench/run's
// guard counts calls into runtime.mallocgc under callgrind, which include
// zero-sized ones (a make([]string, 0)) that runtime.MemStats does not
// count; a change that saves an allocation here saves its calls there too.
// Lower a budget when a change saves an allocation; raise one only with a
// reason.
func TestWireAllocsPerRequest(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	budgets := map[string]float64{
		"hello":        18,
		"hi":           17,
		"hello-id":     20,
		"number":       18,
		"post-message": 27,
	}
	s := start(t, nil, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ref := reference.Server(reference.Handler())
	go ref.Serve(ln)
	t.Cleanup(func() { ref.Close() })
	for _, br := range benchRequests {
		got := wireMallocs(t, s.Addr(), br)
		floor := wireMallocs(t, ln.Addr().String(), br)
		t.Logf("%s %s: %.2f allocations per request over the wire (reference %.2f)", br.method, br.target, got, floor)
		// A few hundredths come from the runtime and the test itself.
		if budget := budgets[br.name]; got > budget+0.5 {
			t.Errorf("%s %s: %.2f allocations per request over the wire, more than the budget of %v", br.method, br.target, got, budget)
		}
	}
}

// wireMallocs sends br on one keep-alive connection to addr, 200 times to
// warm up, then 2,000 times, and returns the process's allocations per
// request over the 2,000: the client allocates nothing per request, so
// they are the server's.
func wireMallocs(t *testing.T, addr string, br benchRequest) float64 {
	t.Helper()
	const warm, n = 200, 2000
	var headers []string
	if br.body != "" {
		headers = append(headers, "Content-Type: application/json")
	}
	c := dialWire(t, addr, keepAliveRequest(br.method, br.target, []byte(br.body), headers...))
	for range warm {
		if got, err := c.do(); err != nil || got != br.status {
			t.Fatalf("%s %s: status %d, %v; want %d", br.method, br.target, got, err, br.status)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		if got, err := c.do(); err != nil || got != br.status {
			t.Fatalf("%s %s: status %d, %v; want %d", br.method, br.target, got, err, br.status)
		}
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / n
}

// wireClient sends one prepared request after another on a keep-alive
// connection and reads each answer into a buffer it reuses, so that it
// allocates nothing per request itself.
type wireClient struct {
	conn net.Conn
	req  []byte
	buf  []byte
}

func dialWire(t *testing.T, addr string, req []byte) *wireClient {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &wireClient{conn: conn, req: req, buf: make([]byte, 4096)}
}

var errUnreadAnswer = errors.New("the answer is longer than the buffer or has no Content-Length")

// do sends the request and reads its answer, whose length the head's
// Content-Length gives (the measured answers are small enough for
// net/http to set it), and returns its status.
func (c *wireClient) do() (int, error) {
	if _, err := c.conn.Write(c.req); err != nil {
		return 0, err
	}
	n, head, length := 0, -1, 0
	for head < 0 || n < head+length {
		if n == len(c.buf) {
			return 0, errUnreadAnswer
		}
		m, err := c.conn.Read(c.buf[n:])
		if err != nil {
			return 0, err
		}
		n += m
		if head < 0 {
			if i := bytes.Index(c.buf[:n], []byte("\r\n\r\n")); i >= 0 {
				head = i + 4
				if length = contentLength(c.buf[:head]); length < 0 {
					return 0, errUnreadAnswer
				}
			}
		}
	}
	// "HTTP/1.1 201 Created": the status is bytes 9 to 11.
	return int(c.buf[9]-'0')*100 + int(c.buf[10]-'0')*10 + int(c.buf[11]-'0'), nil
}

// contentLength is the Content-Length of a response head, -1 when it has
// none.
func contentLength(head []byte) int {
	_, rest, ok := bytes.Cut(head, []byte("\r\nContent-Length: "))
	if !ok {
		return -1
	}
	n := 0
	for _, b := range rest {
		if b < '0' || b > '9' {
			break
		}
		n = n*10 + int(b-'0')
	}
	return n
}
