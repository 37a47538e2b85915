package main

// Fault tests: the whole program, through run on port 0, driven over
// loopback by clients that misbehave: that stall, that send bodies past the
// limit, that send what does not parse. Each test is bounded both by a
// count of requests and by a deadline, and stops by itself.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/heaptest"
)

// TestFaultStalledClients opens connections, eight of each kind, that stop
// sending: in the middle of a header line, after 10 of a declared 100 body
// bytes, before sending anything, and in the headers of a keep-alive
// connection's second request. With a 300ms read-header timeout and a
// 600ms read timeout, the server must disconnect each (a stall in the body
// may first be answered with a 4xx) before stallBound, while normal
// requests go on succeeding beside them.
func TestFaultStalledClients(t *testing.T) {
	// Not parallel: it times disconnects and requests in seconds, which others' load would skew.
	s := start(t, []string{"--server.read-header-timeout=300ms", "--server.read-timeout=600ms"}, nil)
	const each = 8 // stalled connections of each kind

	normal := startNormalTraffic(s.base)
	outcomes := make([][]stallOutcome, len(stallKinds))
	var wg sync.WaitGroup
	for k, st := range stallKinds {
		outcomes[k] = make([]stallOutcome, each)
		for i := range each {
			wg.Go(func() { outcomes[k][i] = stallAndWait(s.Addr(), st.send) })
		}
	}
	wg.Wait()
	sent, failed, last := normal.stop()

	for k, st := range stallKinds {
		t.Run(st.name, func(t *testing.T) {
			var longest time.Duration
			answers := map[int]int{}
			for _, o := range outcomes[k] {
				longest = max(longest, o.waited)
				answers[o.status]++
				switch {
				case o.err != nil:
					t.Error(o.err)
				case o.waited >= stallBound:
					t.Errorf("disconnected after %v, want under %v: the timeouts set do not bound the stall", o.waited, stallBound)
				case o.status != 0 && (o.status < 400 || o.status > 499):
					t.Errorf("answered %d before the close, want a 4xx or nothing", o.status)
				case o.problem != nil:
					t.Errorf("answered %d, but %v", o.status, o.problem)
				}
			}
			t.Logf("%d disconnected, the last after %v; answers before the close (0: none): %v",
				len(outcomes[k]), longest.Round(time.Millisecond), answers)
		})
	}
	if sent == 0 || failed > 0 {
		t.Errorf("beside the stalled clients %d of %d normal requests failed (last: %v)", failed, sent, last)
	}
	t.Logf("%d normal requests succeeded beside them", sent)
}

// stallBound is the default of server.read-header-timeout, the shorter of
// the two defaults: had the timeouts set not applied, a stalled client
// would be disconnected that late at the earliest, however idle the
// machine. With them it takes 300 or 600ms, and a busy machine has the
// rest to spare.
const stallBound = 5 * time.Second

// stallKinds are the ways TestFaultStalledClients's clients stall: send
// writes what a client sends before it stalls.
var stallKinds = []struct {
	name string
	send func(conn net.Conn) error
}{
	{"partial header line", func(conn net.Conn) error {
		_, err := io.WriteString(conn, "GET /api/hello HTTP/1.1\r\nHost: localhost\r\nX-Stalled: par")
		return err
	}},
	{"10 of 100 body bytes", func(conn net.Conn) error {
		_, err := io.WriteString(conn, "POST /api/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\":\"a")
		return err
	}},
	{"nothing at all", func(net.Conn) error { return nil }},
	{"second request's headers on a keep-alive connection", func(conn net.Conn) error {
		if _, err := io.WriteString(conn, "GET /api/hi HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
			return err
		}
		r, err := boottest.ReadResponse(conn)
		if err != nil {
			return err
		}
		if r.Status != 200 || r.Body != "Hi" {
			return fmt.Errorf("first request answered %d %q", r.Status, r.Body)
		}
		_, err = io.WriteString(conn, "GET /api/hi HTTP/1.1\r\nHo")
		return err
	}},
}

// stallOutcome is how the server dealt with one stalled client.
type stallOutcome struct {
	waited  time.Duration // from the stall to the server's close
	status  int           // of an answer before the close; 0 for none
	problem error         // what is wrong with a 4xx problem document
	err     error
}

// stallAndWait connects to addr, sends what send sends, stalls, and waits
// for the server to close the connection.
func stallAndWait(addr string, send func(net.Conn) error) (o stallOutcome) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		o.err = err
		return o
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(waitTimeout)) // past stallBound, so that a late close is measured
	if err := send(conn); err != nil {
		o.err = fmt.Errorf("before stalling: %v", err)
		return o
	}
	stalled := time.Now()
	rest, err := io.ReadAll(conn) // until the server closes
	o.waited = time.Since(stalled)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		o.err = fmt.Errorf("the server did not close the connection: %v", err)
		return o
	}
	if len(rest) > 0 {
		r, err := boottest.ReadResponse(bytes.NewReader(rest))
		if err != nil {
			o.err = fmt.Errorf("the server wrote %q before closing: %v", rest, err)
			return o
		}
		o.status = r.Status
		if r.Status >= 400 && r.Status < 500 && r.Header.Get("Content-Type") == "application/problem+json" {
			_, o.problem = boottest.CheckProblem(r.Status, r.Header, r.Body)
		}
	}
	return o
}

// normalTraffic is one client sending GET /api/hello/{i} one after
// another, each of which must be answered 200 with its greeting.
type normalTraffic struct {
	done         chan struct{}
	finished     sync.WaitGroup
	sent, failed atomic.Int64
	last         atomic.Value // the last failure
}

func startNormalTraffic(base string) *normalTraffic {
	n := &normalTraffic{done: make(chan struct{})}
	n.finished.Go(func() {
		client := &http.Client{Timeout: 2 * time.Second}
		defer client.CloseIdleConnections()
		for i := 0; ; i++ {
			select {
			case <-n.done:
				return
			default:
			}
			resp, err := client.Get(base + "/api/hello/" + strconv.Itoa(i))
			if err == nil {
				b, rerr := io.ReadAll(resp.Body)
				resp.Body.Close()
				if rerr != nil || resp.StatusCode != 200 || string(b) != fmt.Sprintf(`{"text":"Hello World! %d"}`, i) {
					err = fmt.Errorf("GET /api/hello/%d: %d %q %v", i, resp.StatusCode, b, rerr)
				}
			}
			if err != nil {
				n.failed.Add(1)
				n.last.Store(err)
			}
			n.sent.Add(1)
		}
	})
	return n
}

// stop stops the traffic, and returns how many requests were sent, how
// many failed, and the last failure.
func (n *normalTraffic) stop() (sent, failed int64, last any) {
	close(n.done)
	n.finished.Wait()
	return n.sent.Load(), n.failed.Load(), n.last.Load()
}

// TestFaultOversizedBodies floods the service with 200 bodies of 8 MiB
// against its default 1 MiB limit, from 8 clients at once, some with a
// declared Content-Length and some chunked without one: every one is
// refused with a 413 problem document, and the heap of the process (run
// serves inside the test process) stays bounded, during the flood and
// after it. A client that declares 100,000,000 bytes and sends none is
// refused at once: the server answers from the declared length, without
// reading the body.
func TestFaultOversizedBodies(t *testing.T) {
	// Not parallel: it measures the process's heap, which other tests would add to.
	s := start(t, nil, nil)
	t.Run("declared 100,000,000 bytes, none sent", func(t *testing.T) {
		began := time.Now()
		// Had the server waited for the body, the read timeout (30s
		// by default) would end the wait, long after waitTimeout.
		r, err := boottest.RawExchange(s.Addr(), []byte(oversizedHead+"Content-Length: 100000000\r\n\r\n"), nil, waitTimeout)
		if err != nil {
			t.Fatalf("no answer within %v: %v", waitTimeout, err)
		}
		if r.Status != 413 {
			t.Errorf("%d, want 413", r.Status)
		} else if _, err := boottest.CheckProblem(r.Status, r.Header, r.Body); err != nil {
			t.Error(err)
		}
		t.Logf("refused after %v", time.Since(began).Round(time.Microsecond))
	})
	t.Run("a flood of 8 MiB bodies", func(t *testing.T) {
		const requests, clients = 200, 8
		// Every chunkedEvery-th body is chunked. The server must read 1 MiB
		// of each before it can refuse it, which under the race detector
		// costs some 50ms a body, so fewer of them are chunked there.
		chunkedEvery := 2
		if builtWithRace() {
			chunkedEvery = 5
		}
		before := heaptest.Live()
		peak := heaptest.SamplePeak()
		counts := floodOversized(s.Addr(), requests, clients, chunkedEvery)
		top := peak()
		after := heaptest.Live()

		want := map[string]int{"declared: 413": requests - requests/chunkedEvery, "chunked: 413": requests / chunkedEvery}
		if fmt.Sprint(counts) != fmt.Sprint(want) {
			t.Errorf("answers to %d oversized bodies:\ngot  %v\nwant %v", requests, counts, want)
		}
		const mib = 1 << 20
		t.Logf("heap in use: %.1f MiB before, peak %.1f MiB during the flood, %.1f MiB after",
			float64(before)/mib, float64(top)/mib, float64(after)/mib)
		if growth := int64(top) - int64(before); growth > 64*mib {
			t.Errorf("the heap grew by %.1f MiB during a flood of %d × 8 MiB bodies from %d clients; want under 64 MiB: bodies are being held",
				float64(growth)/mib, requests, clients)
		}
		if kept := int64(after) - int64(before); kept > 16*mib {
			t.Errorf("the heap kept %.1f MiB after the flood; want under 16 MiB", float64(kept)/mib)
		}
	})
	if got := s.do(t, "GET", "/api/messages", ""); got.status != 200 || got.body != "[]" {
		t.Errorf("after the oversized bodies GET /api/messages: %d %q, want 200 []", got.status, got.body)
	}
}

// oversizedHead is the start of the header block of an oversized POST.
const oversizedHead = "POST /api/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"

// floodOversized sends requests bodies of 8 MiB to addr from clients
// clients at once, every chunkedEvery-th chunked and the others with a
// declared length, within 30 seconds, and counts the answers by kind:
// "declared: 413", "chunked: no answer: …".
func floodOversized(addr string, requests, clients, chunkedEvery int) map[string]int {
	const size = 8 << 20
	return countOutcomes(requests, clients, func() (func(int) string, func()) {
		return func(n int) string {
			kind, req, body := "declared", oversizedHead+"Content-Length: "+strconv.Itoa(size)+"\r\n\r\n", io.LimitReader(filler{}, size)
			if n%chunkedEvery == 0 {
				kind, req, body = "chunked", oversizedHead+"Transfer-Encoding: chunked\r\n\r\n", chunkedBody(size)
			}
			r, err := boottest.RawExchange(addr, []byte(req), body, 10*time.Second)
			switch {
			case err != nil:
				return kind + ": no answer: " + err.Error()
			case r.Status != 413:
				return kind + ": " + strconv.Itoa(r.Status)
			}
			if _, err := boottest.CheckProblem(r.Status, r.Header, r.Body); err != nil {
				return kind + ": 413, but " + err.Error()
			}
			return kind + ": 413"
		}, func() {}
	})
}

// any4xx stands for any 4xx status where only the class is defined.
const any4xx = -4

// malformedRow is one malformed request and the answer it must get.
type malformedRow struct {
	name   string
	req    []byte // the whole request, as sent on a fresh connection
	status int    // the exact status, or any4xx
	// problem says the service itself answers, with a problem document.
	// When false, net/http answers before any handler runs (see
	// TestFaultMalformedInput).
	problem bool
	// bug names a known bug that makes the row fail; while it does, the
	// row is skipped with a message that starts "BUG:".
	bug string
}

// TestFaultMalformedInput sends malformed bodies, paths, queries and
// headers, each on its own connection, and checks each gets its 4xx (never
// a 500), as a problem document wherever the service writes the answer;
// then that the service still serves and logged no failure of its own.
//
// net/http parses the request line and the header block before any
// handler exists for the request, and answers what it cannot parse itself,
// with a plain-text body and Connection: close: a header line without a
// colon, an invalid or doubled Content-Length, a control character in a
// header, a malformed percent-escape in the path (the request target does
// not parse as a URL), a missing Host (400); a header block past
// MaxHeaderBytes (431); a transfer coding it does not implement (501,
// which RFC 9112 §6.1 prescribes, the one 5xx here and not the service's).
// No code of the service can turn those into problem documents, so their
// rows check the status only.
func TestFaultMalformedInput(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	var slowest time.Duration
	var slowestName string
	for _, row := range malformedRows() {
		t.Run(row.name, func(t *testing.T) {
			if ctx.Err() != nil {
				t.Fatal("the test's deadline passed before this row")
			}
			began := time.Now()
			r, err := boottest.RawExchange(s.Addr(), row.req, nil, 5*time.Second)
			if d := time.Since(began); d > slowest {
				slowest, slowestName = d, row.name
			}
			if err != nil {
				t.Fatalf("no answer within 5s: %v", err)
			}
			wrong := row.check(r)
			if wrong != "" && row.bug != "" {
				t.Skipf("%s (got %d %.120q)", row.bug, r.Status, r.Body)
			}
			if wrong != "" {
				t.Errorf("%s; body %.200q", wrong, r.Body)
			}
		})
	}
	t.Logf("slowest row: %q, %v", slowestName, slowest.Round(time.Millisecond))

	if got := s.do(t, "GET", "/api/hello", ""); got.status != 200 {
		t.Errorf("after the malformed requests GET /api/hello answered %d", got.status)
	}
	if got := s.do(t, "GET", "/api/messages", ""); strings.Contains(got.body, "root:") {
		t.Errorf("a message holds the contents of /etc/passwd: %.200s", got.body)
	}
	if log := s.Stdout.String(); strings.Contains(log, "level=ERROR") {
		t.Errorf("the service logged failures of its own:\n%s", log)
	}
}

// check returns "" when r is the answer row expects, and else what is
// wrong with it.
func (row malformedRow) check(r boottest.Response) string {
	wrong := ""
	switch {
	case r.Status >= 500 && r.Status != row.status:
		wrong = fmt.Sprintf("a %d, want %s", r.Status, statusName(row.status))
	case row.status == any4xx && (r.Status < 400 || r.Status > 499), row.status != any4xx && r.Status != row.status:
		wrong = fmt.Sprintf("status %d, want %s", r.Status, statusName(row.status))
	case row.problem:
		if _, err := boottest.CheckProblem(r.Status, r.Header, r.Body); err != nil {
			wrong = err.Error()
		}
	}
	if strings.Contains(r.Body, "root:") {
		wrong = "the answer holds the contents of /etc/passwd"
	}
	return wrong
}

// malformedRows is TestFaultMalformedInput's table.
func malformedRows() []malformedRow {
	get := func(target string, headers ...string) []byte { return rawRequest("GET", target, nil, headers...) }
	post := func(contentType, body string) []byte {
		return rawRequest("POST", "/api/messages", []byte(body), "Content-Type: "+contentType)
	}
	const (
		jsonType = "application/json"
		xmlType  = "application/xml"
		deep     = 100000
		head     = "POST /api/messages HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n"
	)
	laughs := `<?xml version="1.0"?><!DOCTYPE Message [<!ENTITY lol "lol">`
	for i := 1; i <= 9; i++ {
		prev := "lol"
		if i > 1 {
			prev = "lol" + strconv.Itoa(i-1)
		}
		laughs += `<!ENTITY lol` + strconv.Itoa(i) + ` "` + strings.Repeat("&"+prev+";", 10) + `">`
	}
	laughs += `]><Message><text>&lol9;</text></Message>`

	return []malformedRow{
		// Bodies.
		{"JSON: invalid UTF-8 in the text", post(jsonType, "{\"text\":\"\xff\"}"), 400, true, ""},
		{"JSON: invalid UTF-8 in a member name", post(jsonType, "{\"te\xc3xt\":\"a\"}"), 400, true, ""},
		{"JSON: overlong UTF-8 for '/'", post(jsonType, "{\"text\":\"\xc0\xaf\"}"), 400, true, ""},
		{"JSON: a surrogate encoded in UTF-8", post(jsonType, "{\"text\":\"\xed\xa0\x80\"}"), 400, true, ""},
		{"JSON: 100,000 nested arrays", post(jsonType, strings.Repeat("[", deep)+strings.Repeat("]", deep)), 400, true, ""},
		{"JSON: text nested 100,000 objects deep", post(jsonType, `{"text":`+strings.Repeat(`{"a":`, deep)+"1"+strings.Repeat("}", deep)+"}"), 400, true, ""},
		{"JSON: a 1000-digit number for the text", post(jsonType, `{"text":`+strings.Repeat("9", 1000)+`}`), 400, true, ""},
		{"JSON: a number past float64 for the text", post(jsonType, `{"text":1e999999999}`), 400, true, ""},
		{"XML: invalid UTF-8 in the text", post(xmlType, "<Message><text>\xff</text></Message>"), 400, true, ""},
		{"XML: invalid UTF-8 in an element name", post(xmlType, "<Message><te\xffxt>a</te\xffxt></Message>"), 400, true, ""},
		{"XML: billion laughs through internal DTD entities", post(xmlType, laughs), 400, true, ""},
		{"XML: external entity file:///etc/passwd", post(xmlType, `<?xml version="1.0"?><!DOCTYPE Message [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Message><text>&xxe;</text></Message>`), 400, true, ""},
		{"XML: external parameter entity", post(xmlType, `<!DOCTYPE Message [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><Message><text>&p;</text></Message>`), 400, true, ""},
		{"XML: 100,000 unclosed elements", post(xmlType, strings.Repeat("<a>", deep)), 400, true, ""},
		{"XML: 100,000 nested unknown elements in Message", post(xmlType, "<Message>"+strings.Repeat("<a>", deep)+strings.Repeat("</a>", deep)+"</Message>"), 400, true, ""},
		{"XML: 100,000 nested elements in text", post(xmlType, "<Message><text>"+strings.Repeat("<a>", deep)+strings.Repeat("</a>", deep)+"</text></Message>"), 400, true, ""},
		{"XML: an element in text", post(xmlType, "<Message><text><b>x</b></text></Message>"), 400, true, ""},
		{"XML: two root elements", post(xmlType, "<Message><text>a</text></Message><Message><text>b</text></Message>"), 400, true, ""},
		{"XML: a declared encoding other than UTF-8", post(xmlType, `<?xml version="1.0" encoding="ISO-8859-1"?><Message><text>a</text></Message>`), any4xx, true, ""},

		// Paths.
		{"path: escaped invalid UTF-8 for an int", get("/api/hello/%ff"), 400, true, ""},
		{"path: raw invalid UTF-8 for an int", get("/api/hello/\xff"), 400, true, ""},
		{"path: raw invalid UTF-8, no route", get("/api/\xff\xfe"), 404, true, ""},
		{"path: 20-digit id", get("/api/hello/99999999999999999999"), 400, true, ""},
		{"path: negative 20-digit id", get("/api/hello/-99999999999999999999"), 400, true, ""},
		{"path: 20-digit index, GET", get("/api/messages/99999999999999999999"), 400, true, ""},
		{"path: 20-digit index, PUT", rawRequest("PUT", "/api/messages/99999999999999999999", []byte(`{"text":"a"}`), "Content-Type: "+jsonType), 400, true, ""},
		{"path: %00 for an int", get("/api/hello/%00"), 400, true, ""},
		{"path: %00, no route", get("/api/hi%00"), 404, true, ""},
		{"path: 10,000-digit id", get("/api/hello/" + strings.Repeat("1", 10000)), 400, true, ""},
		{"path: 10,000 characters, no route", get("/api/" + strings.Repeat("a", 10000)), 404, true, ""},
		{"path: malformed escape %zz (net/http)", get("/api/hello/%zz"), 400, false, ""},

		// Queries.
		{"query: escaped invalid UTF-8 for an int", get("/api/messages/search?param1=%ff"), 400, true, ""},
		{"query: raw invalid UTF-8 for a UUID", get("/api/messages/search?param1=1&param2=\xff"), 400, true, ""},
		{"query: malformed escape %zz", get("/api/messages/search?param1=%zz"), 400, true, ""},
		{"query: 20-digit param1", get("/api/messages/search?param1=99999999999999999999"), 400, true, ""},
		{"query: 1000-digit param1", get("/api/messages/search?param1=" + strings.Repeat("9", 1000)), 400, true, ""},

		// Framing and headers: net/http's own answers.
		{"header: line without a colon (net/http)", get("/api/hello", "NoColonHere"), 400, false, ""},
		{"header: Content-Length abc (net/http)", []byte(head + "Content-Length: abc\r\n\r\n"), 400, false, ""},
		{"header: Content-Length -1 (net/http)", []byte(head + "Content-Length: -1\r\n\r\n"), 400, false, ""},
		{"header: two different Content-Lengths (net/http)", []byte(head + "Content-Length: 12\r\nContent-Length: 13\r\n\r\n{\"text\":\"a\"} "), 400, false, ""},
		{"header: block over 64 KiB (net/http)", get("/api/hello", "X-Big: "+strings.Repeat("a", 80<<10)), 431, false, ""},
		{"header: control character in a value (net/http)", get("/api/hello", "X-A: a\x01b"), 400, false, ""},
		{"header: space in a name (net/http)", get("/api/hello", "X A: b"), 400, false, ""},
		{"request line: control character in the method (net/http)", []byte("G\x01T /api/hello HTTP/1.1\r\nHost: localhost\r\n\r\n"), 400, false, ""},
		{"request line: HTTP/1.1 without Host (net/http)", []byte("GET /api/hello HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, false, ""},
		{"header: Transfer-Encoding gzip (net/http, RFC 9112 §6.1)", []byte(head + "Transfer-Encoding: gzip\r\n\r\n"), 501, false, ""},
		{"body: malformed chunk size", []byte(head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{\"text\":\"a\"}\r\n0\r\n\r\n"), 400, true, ""},

		// Accept.
		{"Accept: application//json", get("/api/hello", "Accept: application//json"), 400, true, ""},
		{"Accept: invalid UTF-8", get("/api/hello", "Accept: \xff/\xff"), 400, true, ""},
		{"Accept: q=abc", get("/api/hello", "Accept: application/json;q=abc"), 400, true, ""},
		{"Accept: q=2", get("/api/hello", "Accept: application/json;q=2"), 400, true, ""},
		{"Accept: ;;;", get("/api/hello", "Accept: ;;;"), 400, true, ""},
		{"Accept: unterminated quote", get("/api/hello", `Accept: application/json;a="x`), 400, true, ""},
		{"Accept: 10,000 ranges, none writable", get("/api/hello", "Accept: "+strings.Repeat("a/b,", 10000)), 406, true, ""},

		// Content-Type.
		{"Content-Type: application//json", post("application//json", `{"text":"a"}`), 415, true, ""},
		{"Content-Type: invalid UTF-8", post("application/json\xff", `{"text":"a"}`), 415, true, ""},
		{"Content-Type: ;;;charset", post("application/json;;;charset", `{"text":"a"}`), 415, true, ""},
		{"Content-Type: unterminated quote", post(`application/json;charset="utf-8`, `{"text":"a"}`), 415, true, ""},
		{"Content-Type: charset of invalid UTF-8", post("application/json;charset=\xff", `{"text":"a"}`), 415, true, ""},
		{"Content-Type: empty", post("", `{"text":"a"}`), 415, true, ""},
	}
}

func statusName(status int) string {
	if status == any4xx {
		return "a 4xx"
	}
	return strconv.Itoa(status)
}
