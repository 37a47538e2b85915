package dispatch

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// exchange is the dispatcher's ResponseWriter for one request, pooled so
// that the hot path allocates nothing of its own. It records what was
// written, and it stands between the ServeMux and the client so that the
// ServeMux's plain-text 404 and 405 answers become problem documents.
type exchange struct {
	http.ResponseWriter
	d           *Dispatcher
	req         *http.Request
	status      int
	written     int64
	wroteHeader bool
	matched     bool // a route group took the request
	swallow     bool // the ServeMux's own answer was replaced; drop its body
	route       *route
	pattern     string // the matched group's pattern
	requestID   string

	call   call
	in     bytes.Buffer  // request body
	out    bytes.Buffer  // response body
	enc    *json.Encoder // writes into out; kept with it
	ranges [8]mediaType  // backing store for the parsed Accept header
	accept []mediaType
	parsed bool // accept holds the parsed Accept header
}

func (ex *exchange) reset(d *Dispatcher, w http.ResponseWriter, r *http.Request) {
	ex.ResponseWriter, ex.d, ex.req = w, d, r
}

// release forgets the request and drops buffers that a large request grew,
// so the pool does not hold on to them.
func (ex *exchange) release() {
	const keep = 64 << 10
	in, out, enc := ex.in, ex.out, ex.enc
	*ex = exchange{}
	if in.Cap() <= keep {
		ex.in = in
		ex.in.Reset()
	}
	if out.Cap() <= keep {
		ex.out, ex.enc = out, enc
		ex.out.Reset()
	}
}

// jsonEncoder returns the exchange's encoder into out, made once per
// pooled exchange rather than once per response.
func (ex *exchange) jsonEncoder() *json.Encoder {
	if ex.enc == nil {
		ex.enc = json.NewEncoder(&ex.out)
		ex.enc.SetEscapeHTML(false) // as Jackson: <, > and & stay as they are
	}
	return ex.enc
}

// setRequestID gives the answer the request ID id.
func (ex *exchange) setRequestID(id string) {
	ex.requestID = id
	ex.ResponseWriter.Header()[RequestIDHeader] = []string{id}
}

// requestIDFor returns the request's ID, making one when it has none yet,
// for a problem document and the log lines about it.
func (ex *exchange) requestIDFor(r *http.Request) string {
	if ex.requestID == "" && !ex.wroteHeader {
		ex.setRequestID(ex.d.ids.forRequest(r))
	}
	return ex.requestID
}

func (ex *exchange) routeName() string {
	if ex.route == nil {
		return ""
	}
	return ex.route.name
}

// acceptRanges parses the Accept header once per request.
func (ex *exchange) acceptRanges(r *http.Request) ([]mediaType, error) {
	if ex.parsed {
		return ex.accept, nil
	}
	var err error
	var h string
	switch vs := r.Header["Accept"]; len(vs) { // canonical key: no Get
	case 0:
	case 1:
		h = vs[0]
	default:
		h = strings.Join(vs, ", ") // several field lines make one list
	}
	switch h {
	case "", "*/*":
		ex.accept = nil
	default:
		ex.accept, err = parseAccept(h, ex.ranges[:0])
	}
	ex.parsed = err == nil
	return ex.accept, err
}

func (ex *exchange) WriteHeader(code int) {
	if ex.swallow || ex.wroteHeader {
		return
	}
	if !ex.matched {
		switch code {
		case http.StatusNotFound, http.StatusMethodNotAllowed:
			ex.swallow = true
			ex.answerUnmatched(code)
			return
		case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			// The ServeMux sends an unclean path (/a//b, /a/../b) to its
			// clean form: keep the redirect, drop its little HTML page.
			ex.swallow = true
			h := ex.ResponseWriter.Header()
			h.Del("Content-Type")
			h.Set("Content-Length", "0")
			ex.status, ex.wroteHeader = code, true
			ex.ResponseWriter.WriteHeader(code)
			return
		}
	}
	ex.status, ex.wroteHeader = code, true
	ex.ResponseWriter.WriteHeader(code)
}

func (ex *exchange) Write(p []byte) (int, error) {
	if ex.swallow {
		return len(p), nil
	}
	if !ex.wroteHeader {
		ex.WriteHeader(http.StatusOK)
	}
	n, err := ex.ResponseWriter.Write(p)
	ex.written += int64(n)
	return n, err
}

// answerUnmatched replaces the ServeMux's answer for a request no route
// group took: OPTIONS on a known path is answered with its Allow list, and
// everything else with a problem document.
func (ex *exchange) answerUnmatched(code int) {
	w := ex.ResponseWriter
	r := ex.req
	h := w.Header()
	h.Del("X-Content-Type-Options")
	if code == http.StatusMethodNotAllowed && r.Method == http.MethodOptions {
		h.Set("Allow", h.Get("Allow")+", OPTIONS")
		h.Del("Content-Type")
		h.Set("Content-Length", "0")
		ex.status, ex.wroteHeader = http.StatusOK, true
		w.WriteHeader(http.StatusOK)
		return
	}
	id := ex.requestIDFor(r) // before the header counts as written
	ex.status, ex.wroteHeader = code, true
	detail := "No endpoint " + clip(r.Method) + " " + clip(r.URL.EscapedPath()) + "."
	if code == http.StatusMethodNotAllowed {
		detail = "Method '" + clip(r.Method) + "' is not supported; this path allows " + h.Get("Allow") + "."
	}
	ex.written += int64(writeProblem(w, r, code, detail, id))
}

// Unwrap lets http.ResponseController reach the server's writer.
func (ex *exchange) Unwrap() http.ResponseWriter { return ex.ResponseWriter }

// Flush sends buffered data, when the server's writer can.
func (ex *exchange) Flush() {
	if f, ok := ex.ResponseWriter.(http.Flusher); ok {
		if !ex.wroteHeader {
			ex.WriteHeader(http.StatusOK)
		}
		f.Flush()
	}
}
