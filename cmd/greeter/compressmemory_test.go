package main

// The memory that compressed answers hold while their clients do not read
// them (issue 37): greeter runs as a child process, and its resident
// memory (VmRSS) is read from /proc while hundreds of clients that asked
// for a 2 MB list stall, once with gzip and once without.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestCompressionMemoryForStalledReaders: 300 HTTP/1.1 clients ask for a
// 2 MB list and never read, and then 4 h2c connections open 100 streams
// each for it, with a 1-byte window, and never give more. The memory
// greeter gains while they stall, when they take gzip, must be at most
// 1.5 times what it gains when they do not: a compressed answer that
// waits on its client holds a few tens of KB, not a compressor (about
// 0.8 MB before issue 37). Each figure is measured in a greeter of its
// own, the two side by side in this test.
func TestCompressionMemoryForStalledReaders(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("1,700 connections to two child processes: run without -race and -short (CI's timed step)")
	}
	for _, proto := range []string{"HTTP/1.1", "h2c"} {
		t.Run(proto, func(t *testing.T) {
			plain := stalledGrowth(t, proto, false)
			gzipped := stalledGrowth(t, proto, true)
			t.Logf("%s: %d stalled clients of a %.1f MB list: greeter grew by %.1f MB uncompressed (%.0f KB each), by %.1f MB with gzip (%.0f KB each, %d of them compressed): %.2fx",
				proto, gzipped.clients, float64(plain.listBytes)/1e6, float64(plain.growth)/1e6, float64(plain.growth)/1e3/float64(plain.clients),
				float64(gzipped.growth)/1e6, float64(gzipped.growth)/1e3/float64(gzipped.clients), gzipped.compressed,
				float64(gzipped.growth)/float64(plain.growth))
			if gzipped.compressed == 0 {
				t.Errorf("%s: no stalled client got its answer gzipped", proto)
			}
			if gzipped.growth > plain.growth*3/2 {
				t.Errorf("%s: stalled compressed answers took %.1f MB, more than 1.5 times the %.1f MB of uncompressed ones",
					proto, float64(gzipped.growth)/1e6, float64(plain.growth)/1e6)
			}
		})
	}
}

// stalled is what one run of stalledGrowth saw.
type stalled struct {
	clients, compressed int    // clients that stalled, and of them those answered with gzip
	listBytes           int    // the list's length, uncompressed
	growth              uint64 // greeter's VmRSS while they stall less its VmRSS before, in bytes
}

// stalledGrowth starts greeter with compression on, fills its collection
// with a 2 MB list of text that compresses about as natural text does,
// and measures how much its resident memory grows while clients that
// asked for the list, with gzip or without, stall.
func stalledGrowth(t *testing.T, proto string, gzipped bool) stalled {
	p := startProcess(t, "--server.compression.enabled=true", "--server.http2.enabled=true")
	words := strings.Fields("the a greeting message hello world from to of and in on for with at by an be this that it is was are were said sent answer client server list request response over under between spring boot go java service")
	rnd := rand.New(rand.NewPCG(37, 4))
	for range 512 {
		var text strings.Builder
		for text.Len() < 4000 {
			text.WriteString(words[rnd.IntN(len(words))])
			text.WriteString(" ")
			text.WriteString(strconv.Itoa(rnd.IntN(1000)))
			text.WriteString(" ")
		}
		if status, err := post(p.base, text.String()); err != nil || status != http.StatusCreated {
			t.Fatalf("POST: %d %v", status, err)
		}
	}
	var s stalled
	s.listBytes = readWholeList(t, p.base, gzipped)
	before := vmRSS(t, p.Cmd.Process.Pid)
	if proto == "HTTP/1.1" {
		s.clients, s.compressed = stallHTTP1(t, p.Addr(), 300, gzipped)
	} else {
		s.clients, s.compressed = stallH2C(t, p.Addr(), 4, 100, gzipped)
	}
	// The server writes until each client's window and socket buffers are
	// full; its memory is read until it stops growing.
	peak := vmRSS(t, p.Cmd.Process.Pid)
	for still, deadline := 0, time.Now().Add(waitTimeout); still < 50 && time.Now().Before(deadline); still++ {
		time.Sleep(20 * time.Millisecond)
		if rss := vmRSS(t, p.Cmd.Process.Pid); rss > peak+peak/200 {
			peak, still = rss, 0
		}
	}
	s.growth = peak - min(before, peak)
	t.Logf("%s, gzip %v: VmRSS %.1f MB before, %.1f MB with %d clients stalled (%d gzipped)",
		proto, gzipped, float64(before)/1e6, float64(peak)/1e6, s.clients, s.compressed)
	return s
}

// readWholeList reads GET /api/messages once, as a client that takes gzip
// or not, and returns its uncompressed length, printing how well it
// compressed.
func readWholeList(t *testing.T, base string, gzipped bool) int {
	req, _ := http.NewRequest("GET", base+"/api/messages", nil)
	req.Header.Set("Accept-Encoding", map[bool]string{true: "gzip", false: "identity"}[gzipped])
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sent, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || (resp.Header.Get("Content-Encoding") == "gzip") != gzipped {
		t.Fatalf("GET /api/messages: %d, Content-Encoding %q, %v", resp.StatusCode, resp.Header.Get("Content-Encoding"), err)
	}
	if !gzipped {
		return len(sent)
	}
	zr, err := gzip.NewReader(bytes.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	list, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the list: %d bytes, gzipped to %d (%.1f%%)", len(list), len(sent), 100*float64(len(sent))/float64(len(list)))
	return len(list)
}

// stallHTTP1 opens n connections with a small receive buffer, each sending
// GET /api/messages and never reading, and waits until each has the start
// of its answer in its receive buffer. It returns how many are stalled so
// and how many of them are answered with gzip, peeking at the answers'
// heads without reading them.
func stallHTTP1(t *testing.T, addr string, n int, gzipped bool) (clients, compressed int) {
	dialer := net.Dialer{Timeout: waitTimeout, Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		c.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	accept := map[bool]string{true: "gzip", false: "identity"}[gzipped]
	conns := make([]*net.TCPConn, n)
	for i := range conns {
		c, err := dialer.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c.(*net.TCPConn)
		fmt.Fprintf(c, "GET /api/messages HTTP/1.1\r\nHost: x\r\nAccept-Encoding: %s\r\n\r\n", accept)
	}
	for i, c := range conns {
		var head []byte
		waitFor(t, fmt.Sprintf("client %d's answer to begin", i), func() bool {
			head = peek(t, c)
			return bytes.Contains(head, []byte("\r\n\r\n"))
		})
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(head)), nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("client %d: %v %v", i, resp, err)
		}
		if resp.Header.Get("Content-Encoding") == "gzip" {
			compressed++
		}
	}
	return n, compressed
}

// peek returns what the connection has received, leaving it unread.
func peek(t *testing.T, c *net.TCPConn) []byte {
	raw, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	var got int
	raw.Control(func(fd uintptr) {
		got, _, err = syscall.Recvfrom(int(fd), buf, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	})
	if err == syscall.EAGAIN {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf[:max(got, 0)]
}

// stallH2C opens conns h2c connections with an initial stream window of
// one byte, asks for GET /api/messages on streams streams of each, and
// reads frames until each stream has its headers and its one byte; it
// never sends a WINDOW_UPDATE. It returns how many streams are stalled so
// and how many are answered with gzip.
func stallH2C(t *testing.T, addr string, conns, streams int, gzipped bool) (clients, compressed int) {
	var headers bytes.Buffer
	enc := hpack.NewEncoder(&headers)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "x"}, {":path", "/api/messages"},
		{"accept-encoding", map[bool]string{true: "gzip", false: "identity"}[gzipped]}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	for range conns {
		c, err := net.DialTimeout("tcp", addr, waitTimeout)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(waitTimeout))
		io.WriteString(c, http2.ClientPreface)
		fr := http2.NewFramer(c, c)
		fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
		if err := fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1}); err != nil {
			t.Fatal(err)
		}
		for i := range streams {
			if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: uint32(2*i + 1), BlockFragment: headers.Bytes(), EndStream: true, EndHeaders: true}); err != nil {
				t.Fatal(err)
			}
		}
		begun, data := map[uint32]bool{}, map[uint32]bool{}
		for len(begun) < streams || len(data) < streams {
			f, err := fr.ReadFrame()
			if err != nil {
				t.Fatalf("h2c: %d streams answered, %d with data: %v", len(begun), len(data), err)
			}
			switch f := f.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					fr.WriteSettingsAck()
				}
			case *http2.MetaHeadersFrame:
				if f.PseudoValue("status") != "200" {
					t.Fatalf("h2c stream %d: status %s", f.StreamID, f.PseudoValue("status"))
				}
				begun[f.StreamID] = true
				if slices.ContainsFunc(f.RegularFields(), func(h hpack.HeaderField) bool { return h.Name == "content-encoding" && h.Value == "gzip" }) {
					compressed++
				}
			case *http2.DataFrame:
				data[f.StreamID] = true
			case *http2.RSTStreamFrame, *http2.GoAwayFrame:
				t.Fatalf("h2c: %v", f)
			}
		}
		clients += streams
	}
	return clients, compressed
}

// vmRSS is the resident memory of process pid, in bytes.
func vmRSS(t *testing.T, pid int) uint64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc here to read the memory of a process: %v", err)
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib << 10
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}
