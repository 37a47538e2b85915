package server

import (
	"bufio"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/springport/greeter/framework/config"
)

// compressSettings are server.compression.*: which responses are sent
// gzipped, as Spring Boot configures Tomcat's compression.
type compressSettings struct {
	enabled   bool
	mimeTypes []string // a response is compressed only if its Content-Type starts with one of these
	minSize   int      // … and it is at least this long
	excluded  []*regexp.Regexp
}

// The compression settings, with Spring Boot's names.
const (
	compressionEnabled  = "server.compression.enabled"
	compressionMime     = "server.compression.mime-types"
	compressionMinSize  = "server.compression.min-response-size"
	compressionExcluded = "server.compression.excluded-user-agents"
)

// defaultCompressedTypes is Spring Boot's default of
// server.compression.mime-types.
var defaultCompressedTypes = []string{"text/html", "text/xml", "text/plain", "text/css", "text/javascript",
	"application/javascript", "application/json", "application/xml"}

// maxCompressMinSize bounds min-response-size: up to that many bytes of
// every compressible response are held in memory while it is decided.
const maxCompressMinSize = 1 << 20

// bindCompression reads server.compression.*. Spring's defaults are kept:
// off, its list of text types, 2KB.
func bindCompression(b *config.Binder) compressSettings {
	s := compressSettings{
		enabled:   config.Bind(b, compressionEnabled, false, config.Bool, "gzip responses for clients whose Accept-Encoding takes it"),
		mimeTypes: config.Bind(b, compressionMime, defaultCompressedTypes, mediaTypes, "only responses whose Content-Type starts with one of these are compressed"),
		minSize:   int(config.Bind(b, compressionMinSize, config.ByteSize(2<<10), config.DataSize, "only responses at least this long are compressed (B, KB, MB; at most 1MB)")),
	}
	for _, p := range config.Bind(b, compressionExcluded, nil, userAgentPatterns, "regular expressions, each matching a whole User-Agent, whose clients get no compression") {
		s.excluded = append(s.excluded, regexp.MustCompile(p))
	}
	if s.minSize > maxCompressMinSize {
		b.Refuse(compressionMinSize, "want at most 1MB: that much of each response is held in memory until it is known to be that long")
	}
	if s.enabled && len(s.mimeTypes) == 0 {
		b.Refuse(compressionMime, "want at least one media type: with none, "+compressionEnabled+"=true would compress nothing")
	}
	return s
}

// mediaTypes parses a comma-separated list of media types, such as
// text/html,application/json.
func mediaTypes(s string) ([]string, error) {
	types, _ := config.List(s)
	for i, t := range types {
		mt, _, err := mime.ParseMediaType(t)
		if err != nil || !strings.Contains(mt, "/") {
			return nil, fmt.Errorf("want media types such as text/html,application/json; %q is not one", t)
		}
		types[i] = mt
	}
	return types, nil
}

// userAgentPatterns parses excluded-user-agents as Tomcat reads
// noCompressionUserAgents: a comma-separated list of regular expressions,
// each matching a whole User-Agent. It returns them anchored, checked to
// compile.
func userAgentPatterns(s string) ([]string, error) {
	list, _ := config.List(s)
	for i, p := range list {
		list[i] = `^(?:` + p + `)$`
		if _, err := regexp.Compile(list[i]); err != nil {
			return nil, fmt.Errorf("want regular expressions matching whole User-Agent headers (as Tomcat reads them); %q is not one: %v", p, err)
		}
	}
	return list, nil
}

// compress wraps h so that its responses are gzipped as Tomcat does
// under Spring Boot's server.compression: a response is compressed when
// it has no Content-Encoding of its own, its Content-Type starts with one
// of the listed types, and it is at least min-response-size long; such a
// response gets Vary: Accept-Encoding whoever asks, and is gzipped for a
// client whose Accept-Encoding takes gzip and whose User-Agent is not
// excluded. Where Tomcat compresses any response of unknown length, this
// holds up to min-response-size bytes to learn it: a response that ends
// before then goes as it is, with its length and without Vary; one that
// the handler flushes (http.Flusher) before then, a stream sent in pieces
// smaller than the minimum, goes as it is too. The dispatcher's Stream
// writes its 32KB pieces without flushing them, so a streamed list is
// compressed once it passes the minimum. The gzip stream is written a
// chunk at a time (gzipstream.go), and at most maxCompressing responses
// of a handler are compressed at once.
func compress(h http.Handler, s compressSettings) http.Handler {
	if !s.enabled {
		return h
	}
	slots := new(compressionSlots)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			// No body to compress, and a HEAD's Content-Length must say
			// what a GET would send.
			h.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{w: w, s: s, slots: slots, gzipOK: acceptsGzip(r.Header) && !s.excludes(r.UserAgent())}
		defer cw.finish()
		h.ServeHTTP(cw, r)
	})
}

func (s compressSettings) excludes(agent string) bool {
	for _, re := range s.excluded {
		if re.MatchString(agent) {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether Accept-Encoding takes gzip, at a weight
// above 0.
func acceptsGzip(h http.Header) bool {
	for _, v := range h.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(part, ";")
			if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
				continue
			}
			q, found := strings.CutPrefix(strings.TrimSpace(params), "q=")
			if !found {
				return true
			}
			if w, err := strconv.ParseFloat(strings.TrimSpace(q), 64); err == nil && w > 0 {
				return true
			}
		}
	}
	return false
}

// maxCompressing bounds the responses of a port (of a compress handler)
// that are being gzipped at once; past it, a response that would be is
// sent as it is (still with Vary: Accept-Encoding). Spring Boot has no
// such setting (Tomcat compresses whatever it is given), so it is a
// constant. Each such response holds at most about a chunk of its own
// (32KB gathered, or its compressed chunk while it is written), some
// 0.5MB for all, beside the shared compressors (maxCompressors, 650KB
// each): a few MB at worst. Before issue 37 each held a compressor for
// as long as its client took to read it.
const maxCompressing = 16

// compressionSlots counts the responses being gzipped.
type compressionSlots struct{ n atomic.Int32 }

// take reports whether a response may be gzipped, counting it if so.
func (s *compressionSlots) take() bool {
	if s.n.Add(1) > maxCompressing {
		s.n.Add(-1)
		return false
	}
	return true
}

func (s *compressionSlots) give() { s.n.Add(-1) }

// The states of a compressWriter's response.
const (
	undecided = iota // the handler has not written its status yet
	holding          // compressible so far: its first bytes are held
	plain            // sent as it is
	gzipped          // sent through gz
)

// compressWriter decides, at the status or once enough of the body is
// known, whether the response is gzipped, and then sends it so.
type compressWriter struct {
	w      http.ResponseWriter
	s      compressSettings
	slots  *compressionSlots
	gzipOK bool // the client takes gzip and is not excluded
	state  int
	status int
	held   *[]byte // the first bytes while holding; nil until some are
	gz     gzipStream
}

func (cw *compressWriter) Header() http.Header { return cw.w.Header() }

// Unwrap lets http.ResponseController reach the server's writer (for
// deadlines; Flush it finds here first).
func (cw *compressWriter) Unwrap() http.ResponseWriter { return cw.w }

// WriteHeader decides what it can from the headers: a response that
// cannot be compressed is sent as it is at once.
func (cw *compressWriter) WriteHeader(code int) {
	if cw.state != undecided {
		return
	}
	cw.status = code
	if code < 200 {
		cw.w.WriteHeader(code) // an informational response: not the final one
		return
	}
	h := cw.w.Header()
	length, lengthErr := strconv.Atoi(h.Get("Content-Length"))
	known := lengthErr == nil
	if code == http.StatusNoContent || code == http.StatusNotModified || code == http.StatusPartialContent ||
		h.Get("Content-Encoding") != "" || !cw.compressible(h.Get("Content-Type")) || (known && length < cw.s.minSize) {
		cw.sendPlain()
		return
	}
	// It might be compressed: caches must know that the answer depends on
	// Accept-Encoding, as Tomcat tells them at this point.
	// (Clipped, as the dispatcher shares its Vary slices among
	// responses.)
	h["Vary"] = append(slices.Clip(h["Vary"]), "Accept-Encoding")
	if !cw.gzipOK {
		cw.sendPlain()
		return
	}
	if known {
		cw.startGzip() // long enough already
		return
	}
	cw.state = holding
}

// compressible reports whether a Content-Type starts with one of the
// listed types, as Tomcat matches them.
func (cw *compressWriter) compressible(contentType string) bool {
	if contentType == "" {
		return false
	}
	for _, t := range cw.s.mimeTypes {
		if len(contentType) >= len(t) && strings.EqualFold(contentType[:len(t)], t) {
			return true
		}
	}
	return false
}

func (cw *compressWriter) sendPlain() {
	cw.state = plain
	cw.w.WriteHeader(cw.status)
}

// startGzip begins the gzip stream, or, when maxCompressing responses
// are being gzipped already, sends the response as it is.
func (cw *compressWriter) startGzip() {
	if !cw.slots.take() {
		cw.sendPlain()
		return
	}
	cw.state = gzipped
	h := cw.w.Header()
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	cw.w.WriteHeader(cw.status)
	cw.gz.w = cw.w
}

func (cw *compressWriter) Write(p []byte) (int, error) {
	if cw.state == undecided {
		cw.WriteHeader(http.StatusOK)
	}
	switch cw.state {
	case holding:
		held := 0
		if cw.held != nil {
			held = len(*cw.held)
		}
		if held+len(p) < cw.s.minSize {
			if cw.held == nil {
				cw.held = getChunkBuf()
			}
			*cw.held = append(*cw.held, p...)
			return len(p), nil
		}
		// Long enough: what is held goes first, then p, which is
		// not copied.
		cw.startGzip()
		if cw.state == plain {
			cw.releaseHeld()
			return cw.w.Write(p)
		}
		if cw.held != nil {
			_, err := cw.gz.Write(*cw.held)
			putChunkBuf(cw.held)
			cw.held = nil
			if err != nil {
				return 0, err
			}
		}
		return cw.gz.Write(p)
	case gzipped:
		return cw.gz.Write(p)
	}
	return cw.w.Write(p)
}

// Flush sends what was written. A response flushed before it reached
// min-response-size is sent as it is: a stream already cut into pieces
// smaller than the minimum gains nothing from compression.
func (cw *compressWriter) Flush() {
	if cw.state == undecided {
		cw.WriteHeader(http.StatusOK)
	}
	switch cw.state {
	case holding:
		cw.sendPlain()
		cw.releaseHeld()
	case gzipped:
		if cw.gz.Flush() != nil {
			return
		}
	}
	if f, ok := cw.w.(http.Flusher); ok {
		f.Flush()
	}
}

// releaseHeld sends the bytes held, once the response is known to go as
// it is. Its Vary stays: another time the same resource may be
// compressed.
func (cw *compressWriter) releaseHeld() {
	if cw.held != nil {
		cw.w.Write(*cw.held)
		putChunkBuf(cw.held)
		cw.held = nil
	}
}

// Hijack hands the connection over only before anything is sent, as a
// compressed stream cannot be left halfway.
func (cw *compressWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if cw.state != undecided {
		return nil, nil, errors.New("boot: cannot hijack a response already begun under server.compression")
	}
	cw.state = plain
	return http.NewResponseController(cw.w).Hijack()
}

// finish ends the response once the handler returns: a response held
// because it was shorter than min-response-size goes as it is, with its
// length; a gzip stream is closed.
func (cw *compressWriter) finish() {
	switch cw.state {
	case holding:
		// Known to be short, as Tomcat would have known from its length:
		// it is never compressed, and so does not vary.
		h := cw.w.Header()
		n := 0
		if cw.held != nil {
			n = len(*cw.held)
		}
		h.Set("Content-Length", strconv.Itoa(n))
		if vary := h["Vary"]; len(vary) > 0 && vary[len(vary)-1] == "Accept-Encoding" {
			h["Vary"] = vary[:len(vary)-1]
			if len(h["Vary"]) == 0 {
				delete(h, "Vary")
			}
		}
		cw.sendPlain()
		cw.releaseHeld()
	case gzipped:
		cw.gz.Close()
		cw.slots.give()
	}
}
