package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/polltest"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// serveBound serves h under places of max on loopback, over HTTP/1.1 and
// h2c, with the per-connection turns, as Serve does; it returns the
// address.
func serveBound(t *testing.T, max int, h http.Handler) string {
	t.Helper()
	return servePlaces(t, newPlaces(max), h)
}

// servePlaces is serveBound with the places given, for a test that looks
// at them.
func servePlaces(t *testing.T, p *places, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: p.wrap(h), Protocols: serverProtocols(true, false),
		HTTP2: &http.HTTP2Config{MaxConcurrentStreams: 100}, ConnContext: withConnTurns(20)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestBoundRefusesPastItsPlaces: with every place taken, a request waits
// placeWait and is answered 503 with Retry-After and a problem document;
// once a place is given back, requests are served again.
func TestBoundRefusesPastItsPlaces(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	addr := serveBound(t, 1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered <- struct{}{}
			<-release
		}
		io.WriteString(w, "ok")
	}))
	go http.Get("http://" + addr + "/hold")
	<-entered

	began := time.Now()
	resp, err := http.Get("http://" + addr + "/hello")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	waited := time.Since(began)
	var doc struct {
		Status   int    `json:"status"`
		Instance string `json:"instance"`
		Detail   string `json:"detail"`
	}
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != retryAfter ||
		resp.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal(body, &doc) != nil ||
		doc.Status != 503 || doc.Instance != "/hello" {
		t.Errorf("past the bound: %d, Retry-After %q, %q: %s; want 503, a Retry-After and a problem document",
			resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"), body)
	}
	if waited < placeWait {
		t.Errorf("refused after %v; want a wait of %v for a place first", waited, placeWait)
	}

	close(release)
	if resp, err := http.Get("http://" + addr + "/hello"); err != nil || resp.StatusCode != 200 {
		t.Errorf("with the place given back: %v %v; want 200", resp, err)
	}
}

// TestBoundWaiterGetsPlaceGivenBack: a request that waits is served as
// soon as a place is given back, not refused.
func TestBoundWaiterGetsPlaceGivenBack(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	p := newPlaces(1)
	addr := servePlaces(t, p, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered <- struct{}{}
			<-release
		}
		io.WriteString(w, "ok")
	}))
	go http.Get("http://" + addr + "/hold")
	<-entered
	served := make(chan struct{})
	defer close(served)
	go func() {
		// Given back once the request below waits for it, however long
		// it takes to come: what is tested is a waiter's hand-over.
		defer close(release)
		for p.waiting.Load() == 0 {
			select {
			case <-served:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	if resp, err := http.Get("http://" + addr + "/hello"); err != nil || resp.StatusCode != 200 {
		t.Errorf("a place given back while waiting: %v %v; want 200", resp, err)
	}
}

// TestBoundStalledWriterGivesUpItsPlace: a handler whose client stops
// reading gives up its place, so that the only place serves others; the
// stalled handler is not cut over HTTP/1.1.
func TestBoundStalledWriterGivesUpItsPlace(t *testing.T) {
	big := strings.Repeat("x", 8<<20)
	addr := serveBound(t, 1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			io.WriteString(w, big)
			return
		}
		io.WriteString(w, "ok")
	}))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(c, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	// Never read: the handler's write blocks, and within stallRelease
	// and a tick or two it gives its place up.
	for range 3 {
		began := time.Now()
		resp, err := http.Get("http://" + addr + "/hello")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("beside a stalled writer: %v %v; want 200", resp, err)
		}
		resp.Body.Close()
		if took := time.Since(began); took > placeWait {
			t.Errorf("beside a stalled writer, a request took %v", took)
		}
	}
}

// h2Stream opens an h2c connection whose streams get a window of size
// bytes, and sends GET path on stream 1; it returns the connection and
// its framer for reading.
func h2Stream(t *testing.T, addr, path string, window uint32) (net.Conn, *http2.Framer) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	io.WriteString(c, http2.ClientPreface)
	fr := http2.NewFramer(c, bufio.NewReader(c))
	fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: window})
	var block strings.Builder
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", addr}, {":path", path}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: []byte(block.String()), EndStream: true, EndHeaders: true})
	return c, fr
}

// TestBoundResetsStalledStream: an HTTP/2 stream whose peer gives it no
// window is reset after streamStall, and its handler's write fails then,
// not at the server's write timeout.
func TestBoundResetsStalledStream(t *testing.T) {
	failed := make(chan error, 1)
	addr := serveBound(t, 10, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.WriteString(w, strings.Repeat("x", 1<<20))
		failed <- err
	}))
	began := time.Now()
	c, fr := h2Stream(t, addr, "/big", 1)
	c.SetReadDeadline(time.Now().Add(3 * streamStall))
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("reading until the reset: %v", err)
		}
		if rst, ok := f.(*http2.RSTStreamFrame); ok && rst.StreamID == 1 {
			break
		}
	}
	took := time.Since(began)
	if err := <-failed; err == nil {
		t.Errorf("the handler's write succeeded on a reset stream")
	}
	if took < streamStall || took > 2*streamStall {
		t.Errorf("reset after %v; want after %v", took, streamStall)
	}
}

// TestBoundSlowStreamNotCut: a stream whose peer gives window slowly but
// steadily (8 KB a second, 48 KB in all: longer than streamStall) is not
// reset: the clock restarts with each piece written.
func TestBoundSlowStreamNotCut(t *testing.T) {
	const size = 48 << 10
	addr := serveBound(t, 10, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", size))
	}))
	c, fr := h2Stream(t, addr, "/slow", 8<<10)
	c.SetReadDeadline(time.Now().Add(10 * streamStall))
	got := 0
	for got < size {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("after %d bytes: %v", got, err)
		}
		switch f := f.(type) {
		case *http2.RSTStreamFrame:
			t.Fatalf("the stream was reset after %d bytes; want all %d", got, size)
		case *http2.DataFrame:
			if n := len(f.Data()); n > 0 {
				got += n
				time.Sleep(time.Second) // a slow reader, by design
				fr.WriteWindowUpdate(0, uint32(n))
				fr.WriteWindowUpdate(1, uint32(n))
			}
		}
	}
}

// TestBoundWaiterComingAsAPlaceIsFreed: a request that begins to wait
// between give's look for waiters and its freeing of the place, and
// finds no place free, is handed the place; it was missed, and waited
// out placeWait beside a free place, to be refused 503.
func TestBoundWaiterComingAsAPlaceIsFreed(t *testing.T) {
	p := newPlaces(1)
	if !p.take(true) {
		t.Fatal("the one place of a new bound is not free")
	}
	var w chan struct{}
	p.beforeFree = func() {
		p.beforeFree = nil
		// What wait does first: enlist, then look for a free place.
		w = p.enlist(true)
		if p.take(true) {
			t.Fatal("a place was free before the only one was given back")
		}
	}
	p.give(true)
	select {
	case <-w:
	default:
		t.Fatalf("the waiter was not handed the place given back (taken %d, waiting %d)", p.taken.Load(), p.waiting.Load())
	}
	if p.taken.Load() != 1 || p.waiting.Load() != 0 {
		t.Errorf("after the hand-over: taken %d, waiting %d; want 1 and 0", p.taken.Load(), p.waiting.Load())
	}
}

// TestBoundStalledWriterTakesAPlaceAgain: a handler whose write stalled
// gave its place up; once its client reads again and the write returns,
// it waits for a place like a new request before it goes on, so that
// what it does next is under the bound.
func TestBoundStalledWriterTakesAPlaceAgain(t *testing.T) {
	p := newPlaces(1)
	release := make(chan struct{})
	holding := make(chan struct{})
	wrote := make(chan bool, 1) // whether the handler held a place after its write
	// More than the kernel takes into the sockets' buffers, so that the
	// write blocks; and read at loopback's full speed once reading (no
	// small receive buffer, which would make each piece take seconds).
	big := strings.Repeat("x", 64<<20)
	addr := servePlaces(t, p, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			io.WriteString(w, big)
			wrote <- w.(*boundWriter).held.Load()
		case "/hold":
			close(holding)
			<-release
		}
	}))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	// Not read yet: the write blocks and gives its place up, which the
	// next request takes and holds.
	held := make(chan error, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/hold")
		if err == nil {
			resp.Body.Close()
		}
		held <- err
	}()
	<-holding
	// Now the client reads: the write returns, and the handler waits for
	// the place the other request holds.
	read := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, c); read <- err }()
	if !polltest.Poll(10*time.Second, func() bool { return p.waiting.Load() == 1 }) {
		t.Fatalf("the handler whose write stalled does not wait for a place once it returns (waiting %d, taken %d, wrote %d)", p.waiting.Load(), p.taken.Load(), len(wrote))
	}
	select {
	case <-wrote:
		t.Fatal("the handler went on without a place")
	default:
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if !<-wrote {
		t.Error("the handler went on after its write without holding a place")
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	if n := p.taken.Load(); n != 0 {
		t.Errorf("places taken after both requests ended: %d", n)
	}
}

// TestBoundKeepsPlacesForRequestsAlone: the streams of connections that
// run several hold at most three quarters of the places, so that a
// request alone on its connection finds one; a place a shared stream
// gives back goes to a shared waiter, and one given back by a request
// alone does not while the shared places are all held.
func TestBoundKeepsPlacesForRequestsAlone(t *testing.T) {
	p := newPlaces(4)
	for i := range 3 {
		if !p.take(false) {
			t.Fatalf("shared stream %d of 3 refused a place of 4", i+1)
		}
	}
	if p.take(false) {
		t.Fatal("a fourth shared stream took a place of 4; want at most three quarters")
	}
	if !p.take(true) {
		t.Fatal("a request alone on its connection was refused the place kept for it")
	}
	w := p.enlist(false)
	p.give(true)
	select {
	case <-w:
		t.Fatal("a shared waiter was handed the place of a request alone while three shared streams held theirs")
	default:
	}
	if p.taken.Load() != 3 {
		t.Fatalf("after the request alone gave its place back: taken %d; want 3", p.taken.Load())
	}
	p.give(false)
	select {
	case <-w:
	default:
		t.Fatal("the shared waiter was not handed the place a shared stream gave back")
	}
	if p.taken.Load() != 3 || p.sharedTaken.Load() != 3 || p.waiting.Load() != 0 || p.waitingShared.Load() != 0 {
		t.Errorf("after the hand-over: taken %d, shared %d, waiting %d (shared %d); want 3, 3, 0, 0",
			p.taken.Load(), p.sharedTaken.Load(), p.waiting.Load(), p.waitingShared.Load())
	}
	for max, want := range map[int64]int64{1: 1, 3: 3, 4: 3, 200: 150} {
		if got := sharedPlaces(max); got != want {
			t.Errorf("sharedPlaces(%d) = %d; want %d", max, got, want)
		}
	}
}
