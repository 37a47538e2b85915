package main

// Issue 37's HTTP/2 attack: forty h2c connections, each opening 250
// streams for /actuator/prometheus with a window of one byte and never
// reading. Before the bounds (framework/server/bound.go) it held 10,000
// handlers, each with its exposition half written, about 1 GB, until the
// 30 s write timeout; now each connection has at most 100 streams, 20 of
// them running, a stalled stream is reset after 5 s and gives up its
// place under server.tomcat.threads.max long before that, so the service
// stays small and answers everyone else.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestHTTP2StreamFloodBounded runs the attack against greeter as a child
// process and prints the figures: the peak RSS (VmHWM) stays under
// 256 MB, a plain HTTP/1.1 request during the attack answers 200 within
// 100 ms, and once the attackers leave the heap in use comes back near
// where it was before.
func TestHTTP2StreamFloodBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("a flood of 10,000 streams: run without the race detector (.ci/run's timed step)")
	}
	const (
		conns, streams = 40, 250
		peakLimit      = 256 << 20
		latencyLimit   = 100 * time.Millisecond
		// The attack holds past the 5 s a stalled stream is given, so
		// that the resets and what follows them are measured too.
		hold = 8 * time.Second
	)
	p := startProcess(t, "--server.http2.enabled=true",
		// The heap dump collects garbage first: the nudge that lets the
		// heap in use be compared after the attack.
		"--management.endpoints.web.exposure.include=health,prometheus,heapdump",
		"--management.endpoint.heapdump.access=unrestricted")
	pid := p.Cmd.Process.Pid
	client := &http.Client{Timeout: waitTimeout, Transport: &http.Transport{}}

	// The baseline: warm the paths, then the heap after a collection and
	// a plain request's latency on this machine now.
	floodGet(t, client, p.base+"/actuator/prometheus")
	baseHeap := floodHeap(t, client, p.base)
	var base []time.Duration
	for range 20 {
		base = append(base, floodTimed(t, client, p.base+"/api/hello"))
	}
	slices.Sort(base)
	t.Logf("before: VmRSS %s, heap in use %s after a collection, /api/hello median %v",
		inMB(procStatus(t, pid, "VmRSS")), inMB(baseHeap), base[len(base)/2])

	var attackers []net.Conn
	defer func() {
		for _, c := range attackers {
			c.Close()
		}
	}()
	began := time.Now()
	for range conns {
		attackers = append(attackers, h2Attack(t, p.Addr(), streams))
	}
	t.Logf("%d connections opened %d streams each in %v", conns, streams, time.Since(began).Round(time.Millisecond))

	// During the attack: a plain request every 100 ms, each followed by
	// one to a bare net/http server in this process, which tells how
	// slow the machine itself is at that moment; and the peak RSS.
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer bare.Close()
	var during, machine []time.Duration
	tick := time.NewTicker(100 * time.Millisecond)
	for time.Since(began) < hold {
		during = append(during, floodTimed(t, client, p.base+"/api/hello"))
		machine = append(machine, floodTimed(t, client, bare.URL))
		<-tick.C
	}
	tick.Stop()
	peak := procStatus(t, pid, "VmHWM")
	goroutines := floodMetric(t, client, p.base, "go_goroutines")
	slices.Sort(during)
	worst := during[len(during)-1]
	t.Logf("during: peak RSS (VmHWM) %s, %v goroutines at the end; /api/hello median %v, slowest %v of %d",
		inMB(peak), goroutines, during[len(during)/2], worst, len(during))
	if peak >= peakLimit {
		t.Errorf("peak RSS %s under the attack; want under %s", inMB(peak), inMB(peakLimit))
	}
	// Every plain request is answered 200 (floodGet fails the test
	// otherwise), and within latencyLimit. The waves of the attack (its
	// first 800 streams, and the next 800 when those are reset after 5 s)
	// take every place the streams of multiplexing connections may hold,
	// three quarters; the quarter kept for requests alone on their
	// connection leaves a plain request a place at once. (Without it, a
	// plain request waited for a stalled stream to give one up, 25-50 ms
	// into its stall, and on a busy machine up to 370 ms, measured in the
	// handler.) What is left is the machine's, and it is not spread
	// evenly: on two cores busy with other work, a plain request's
	// goroutine was seen (runtime/trace) to wait 56 ms to run once its
	// request arrived and then 270 ms parked in a garbage collection's
	// mark termination, which must stop every thread of a process with
	// 3,300 goroutines, while the bare server in this process answered
	// within 1.3 ms. So 19 in 20 must answer within the limit and every
	// one within five times it; the limit grows by the slowest answer of
	// the bare server during the attack, and in proportion to the plain
	// request's own baseline where that is slower than quietMedian, both
	// measured in this test.
	const quietMedian = 200 * time.Microsecond
	limit := latencyLimit
	if median := base[len(base)/2]; median > quietMedian {
		limit = time.Duration(float64(latencyLimit) * float64(median) / float64(quietMedian))
	}
	limit += slices.Max(machine)
	within := 0
	for _, d := range during {
		if d <= limit {
			within++
		}
	}
	t.Logf("%d of %d plain requests answered within %v (the bare server's slowest %v)", within, len(during), limit, slices.Max(machine))
	if within*20 < len(during)*19 || worst > 5*limit {
		t.Errorf("%d of %d plain requests within %v, the slowest %v, during the attack (baseline median %v, the bare server's slowest %v); want 19 in 20, and every one within %v",
			within, len(during), limit, worst, base[len(base)/2], slices.Max(machine), 5*limit)
	}

	for _, c := range attackers {
		c.Close()
	}
	attackers = nil
	// After: the handlers end as their streams are closed with their
	// connections; the heap in use after a collection comes back near the
	// baseline (within 32 MB: the pools and caches the attack warmed).
	var after float64
	if !boottest.Poll(func() bool {
		after = floodHeap(t, client, p.base)
		return after < baseHeap+32<<20
	}) {
		t.Errorf("heap in use %s after the attackers left (%s before); want it back within 32 MB", inMB(after), inMB(baseHeap))
	}
	t.Logf("after: heap in use %s after a collection, VmRSS %s, %v goroutines",
		inMB(after), inMB(procStatus(t, pid, "VmRSS")), floodMetric(t, client, p.base, "go_goroutines"))
}

// attack opens an h2c connection with prior knowledge whose streams get
// a window of one byte, and its connection never more than the first
// 64 KB, opens n streams for /actuator/prometheus on it and never reads.
func h2Attack(t *testing.T, addr string, n int) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, waitTimeout)
	if err != nil {
		t.Fatal(err)
	}
	c.(*net.TCPConn).SetReadBuffer(4096)
	w := bufio.NewWriter(c)
	w.WriteString(http2.ClientPreface)
	fr := http2.NewFramer(w, nil)
	fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1})
	// The server's SETTINGS acknowledged unread, as a client that does
	// read would.
	fr.WriteSettingsAck()
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for i := range n {
		block.Reset()
		for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", addr}, {":path", "/actuator/prometheus"}} {
			enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
		}
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: uint32(2*i + 1), BlockFragment: block.Bytes(), EndStream: true, EndHeaders: true})
	}
	c.SetWriteDeadline(time.Now().Add(waitTimeout))
	if err := w.Flush(); err != nil {
		t.Fatalf("opening the streams: %v", err)
	}
	return c
}

// timed is how long a GET of url takes, which must answer 200.
func floodTimed(t *testing.T, client *http.Client, url string) time.Duration {
	t.Helper()
	began := time.Now()
	floodGet(t, client, url)
	return time.Since(began)
}

func floodGet(t *testing.T, client *http.Client, url string) string {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d, %v: %.200s", url, resp.StatusCode, err, body)
	}
	return string(body)
}

// heapInUse is the service's heap in use right after a garbage
// collection: a heap dump collects first.
func floodHeap(t *testing.T, client *http.Client, base string) float64 {
	t.Helper()
	floodGet(t, client, base+"/actuator/heapdump")
	return floodMetric(t, client, base, "go_memstats_heap_inuse_bytes")
}

// metric reads one unlabelled sample from /actuator/prometheus.
func floodMetric(t *testing.T, client *http.Client, base, name string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `(?:\{[^}]*\})? (\S+)$`).FindStringSubmatch(floodGet(t, client, base+"/actuator/prometheus"))
	if m == nil {
		t.Fatalf("/actuator/prometheus has no %s", name)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// status reads a size in bytes from /proc/PID/status (VmRSS, VmHWM).
func procStatus(t *testing.T, pid int, field string) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb * 1024
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}

func inMB(bytes float64) string { return fmt.Sprintf("%.0f MB", bytes/(1<<20)) }
