package metrics

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/prometheus/common/expfmt"
)

// scrapeShare serves concurrent scrapes of one representation with one
// rendering, so that a flood of scrapes (hundreds of HTTP/2 streams at
// once) costs one gathering and encoding at a time rather than one each,
// and a scraper that stalls holds only a reference to bytes others share.
//
// A scrape never gets a snapshot taken before it arrived: one that comes
// while a rendering of its representation runs waits for the next, which
// starts when the running one ends and serves every scrape that came
// meanwhile. So there is at most one rendering running and one waiting
// per representation, whatever the number of scrapers; a lone scrape
// (Prometheus's, normally) renders at once, in its own goroutine.
type scrapeShare struct {
	// render is promhttp's handler; its answer depends only on what
	// representation says of the request (see representationOf).
	render  http.Handler
	formats []expfmt.Format
	logger  *slog.Logger

	mu   sync.Mutex
	reps map[representation]*renderings
}

// representation is what promhttp's answer depends on: the
// Content-Type it negotiates from Accept (the escaping scheme included)
// and whether it gzips the body, from Accept-Encoding. The formats and
// escaping schemes are a short fixed list, so there are few of them.
type representation struct {
	format expfmt.Format
	gzip   bool
}

// renderings are those of one representation.
type renderings struct {
	running bool
	// next is the rendering that starts when the running one ends, when
	// a scrape has asked for it; nil otherwise.
	next *rendering
	// size is the length of the last body, to size the next one's buffer.
	size int
}

// rendering is one answer of promhttp, as a buffer that the scrapes
// sharing it copy out. Once ready is closed its fields are read-only.
type rendering struct {
	ready   chan struct{}
	request *http.Request // what it is rendered for
	// waiting counts the scrapes that wait for it or write it to their
	// clients, and done tells that it is rendered (both under
	// scrapeShare.mu): its buffer is reused once both say nobody needs it.
	waiting int
	done    bool
	recorded
}

// bodies are the buffers of renderings nobody reads any more, so that
// scrapes one after another (Prometheus's) do not each allocate one.
var bodies sync.Pool // of *[]byte

// newBody is an empty buffer for a body of about size bytes.
func newBody(size int) []byte {
	if b, _ := bodies.Get().(*[]byte); b != nil && cap(*b) >= size {
		return (*b)[:0]
	}
	return make([]byte, 0, size+size/8)
}

// recorded is a response kept: its status, headers and body.
type recorded struct {
	status int
	header http.Header
	body   []byte
}

func (r *recorded) Header() http.Header { return r.header }

func (r *recorded) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorded) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body = append(r.body, p...)
	return len(p), nil
}

func newScrapeShare(render http.Handler, formats []expfmt.Format, logger *slog.Logger) *scrapeShare {
	return &scrapeShare{render: render, formats: formats, logger: logger, reps: map[representation]*renderings{}}
}

// representationOf tells what promhttp would answer r with, and false
// when the answer depends on more than that: a name[] filter in the
// query, which such a scrape renders for itself.
func (s *scrapeShare) representationOf(r *http.Request) (representation, bool) {
	if r.URL != nil && r.URL.RawQuery != "" && r.URL.Query().Has("name[]") {
		return representation{}, false
	}
	return representation{
		format: expfmt.NegotiateAccept(r.Header, s.formats...),
		gzip:   choosesGzip(r.Header["Accept-Encoding"]),
	}, true
}

func (s *scrapeShare) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rep, ok := s.representationOf(r)
	if !ok {
		s.renderAlone(w, r)
		return
	}
	s.mu.Lock()
	rs := s.reps[rep]
	if rs == nil {
		rs = &renderings{}
		s.reps[rep] = rs
	}
	if !rs.running {
		// Nothing runs: render now, for this scrape alone (those that
		// come meanwhile wait for the next one).
		rs.running = true
		rn := &rendering{request: r, waiting: 1, recorded: recorded{header: http.Header{}, body: newBody(rs.size)}}
		s.mu.Unlock()
		s.produce(rs, rn, false)
		rn.writeTo(w, s.logger)
		s.release(rn)
		return
	}
	rn := rs.next
	if rn == nil {
		rn = &rendering{ready: make(chan struct{}), request: renderRequest(r), recorded: recorded{header: http.Header{}}}
		rs.next = rn
	}
	rn.waiting++
	s.mu.Unlock()
	select {
	case <-rn.ready:
		rn.writeTo(w, s.logger)
		s.release(rn)
	case <-r.Context().Done():
		// The scraper has gone (or the server is stopping): stop
		// waiting; the rendering is skipped if nobody else waits for it.
		s.release(rn)
		http.Error(w, "The scrape ended before its metrics were rendered.", http.StatusServiceUnavailable)
	}
}

// renderAlone serves a scrape that shares no rendering (a name[]
// filter) into a buffer of its own, as the shared ones are, then writes
// it at once: promhttp writing to the connection itself would, once the
// scraper has gone, fail at every metric family and log each failure,
// where the buffer's one write fails once, at DEBUG.
func (s *scrapeShare) renderAlone(w http.ResponseWriter, r *http.Request) {
	rn := &rendering{recorded: recorded{header: http.Header{}, body: newBody(0)}}
	s.render.ServeHTTP(&rn.recorded, r)
	rn.writeTo(w, s.logger)
	rn.recycle()
}

// release tells that a scrape no longer needs rn.
func (s *scrapeShare) release(rn *rendering) {
	s.mu.Lock()
	rn.waiting--
	reuse := rn.waiting == 0 && rn.done
	s.mu.Unlock()
	if reuse {
		rn.recycle()
	}
}

// recycle gives rn's buffer back, once nobody reads it.
func (rn *rendering) recycle() {
	if cap(rn.body) > 0 {
		b := rn.body[:0]
		rn.body = nil
		bodies.Put(&b)
	}
}

// renderRequest is a request for the representation r asks for, which
// the rendering can read after r's handler has returned: the headers
// promhttp reads (shared read-only with r: nothing writes a request's
// headers once it is being served).
func renderRequest(r *http.Request) *http.Request {
	return &http.Request{Method: http.MethodGet, URL: r.URL, Header: http.Header{
		"Accept":          r.Header["Accept"],
		"Accept-Encoding": r.Header["Accept-Encoding"],
	}}
}

// produce renders rn, then starts the next rendering of rs if a scrape
// waits for it. A panic in the rendering still starts the next one; the
// scrape that rendered for itself (background false) panics on as
// promhttp would have, and the scrapes sharing a rendering get a 500.
func (s *scrapeShare) produce(rs *renderings, rn *rendering, background bool) {
	completed := false
	defer func() {
		if !completed && background {
			p := recover()
			s.logger.Error("rendering /actuator/prometheus panicked", "panic", fmt.Sprint(p))
			rn.recorded = recorded{status: http.StatusInternalServerError, header: http.Header{},
				body: []byte("An error has occurred while serving metrics.\n")}
			rn.header.Set("Content-Type", "text/plain; charset=utf-8")
			rn.header.Set("X-Content-Type-Options", "nosniff")
		}
		s.mu.Lock()
		if completed {
			rs.size = len(rn.body)
		}
		rn.done = true
		unread := rn.waiting == 0 // every scrape that waited for it has gone
		next := rs.next
		rs.next = nil
		if next != nil && next.waiting == 0 {
			next = nil // every scrape that asked for it has gone
		}
		rs.running = next != nil
		size := rs.size
		s.mu.Unlock()
		if next != nil {
			next.body = newBody(size)
		}
		if rn.ready != nil {
			close(rn.ready)
		}
		if unread {
			rn.recycle()
		}
		if next != nil {
			go s.produce(rs, next, true)
		}
	}()
	s.render.ServeHTTP(&rn.recorded, rn.request)
	completed = true
}

// writeTo sends the rendering to one scraper, as promhttp would have
// written it: its headers set (Vary added to any already there), its
// status, its body. The header values are shared, clipped so that an
// Add downstream copies them. A scraper that has gone (a write that
// fails) is told of on logger at DEBUG, once: nothing is wrong with the
// service, and an aborted scrape is no operator's concern.
func (rn *rendering) writeTo(w http.ResponseWriter, logger *slog.Logger) {
	h := w.Header()
	for k, v := range rn.header {
		if old := h[k]; k == "Vary" && len(old) > 0 {
			h[k] = append(slices.Clip(old), v...)
		} else {
			h[k] = slices.Clip(v)
		}
	}
	if rn.status != 0 {
		w.WriteHeader(rn.status)
	}
	if len(rn.body) > 0 {
		if _, err := w.Write(rn.body); err != nil {
			logger.Debug("the scraper went away before /actuator/prometheus was sent", "error", err.Error())
		}
	}
}

// choosesGzip reports whether promhttp, offering identity and gzip, picks
// gzip for these Accept-Encoding values: when the best quality a value
// gives gzip (by name or *) beats identity's and is not 0. It parses them
// as promhttp's copy of gddo's httputil/header.ParseAccept does (a value
// it cannot parse ends the parsing of its header line), so that two
// scrapes share a rendering only when promhttp would answer both alike.
func choosesGzip(values []string) bool {
	gzipQ, identityQ := -1.0, -1.0
	for _, s := range values {
		for {
			var value string
			value, s = acceptToken(s)
			if value == "" {
				break
			}
			q := 1.0
			s = strings.TrimLeft(s, " \t\r\n")
			if strings.HasPrefix(s, ";") {
				s = strings.TrimLeft(s[1:], " \t\r\n")
				if !strings.HasPrefix(s, "q=") {
					break
				}
				if q, s = acceptQuality(s[2:]); q < 0 {
					break
				}
			}
			if value == "*" || value == "gzip" {
				gzipQ = max(gzipQ, q)
			}
			if value == "*" || value == "identity" {
				identityQ = max(identityQ, q)
			}
			s = strings.TrimLeft(s, " \t\r\n")
			if !strings.HasPrefix(s, ",") {
				break
			}
			s = strings.TrimLeft(s[1:], " \t\r\n")
		}
	}
	return gzipQ > identityQ && gzipQ != 0
}

// acceptToken splits off a leading token (RFC 2616's, with / allowed).
func acceptToken(s string) (token, rest string) {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c <= 31 || c >= 127 || strings.IndexByte(" \t\"(),:;<=>?@[]\\{}", c) >= 0 {
			break
		}
	}
	return s[:i], s[i:]
}

// acceptQuality parses a leading q value as gddo does: 0 or 1, then
// optionally . and digits; -1 when there is none.
func acceptQuality(s string) (q float64, rest string) {
	switch {
	case s == "":
		return -1, ""
	case s[0] == '0':
		q = 0
	case s[0] == '1':
		q = 1
	default:
		return -1, ""
	}
	s = s[1:]
	if !strings.HasPrefix(s, ".") {
		return q, s
	}
	s = s[1:]
	i, n, d := 0, 0, 1
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		d *= 10
	}
	return q + float64(n)/float64(d), s[i:]
}
